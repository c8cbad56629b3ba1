import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerHashedAssets } from './hashed-assets.js';
import { ShortPath } from './short-path.js';

describe('the hashed files under /assets/', () => {
  let folder: string;
  let app: FastifyInstance;
  const script = Buffer.from(`console.log(${JSON.stringify('a built module '.repeat(200))});`);

  beforeAll(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'hashed-assets-'));
    await writeFile(path.join(folder, 'index-AbC123.js'), script);
    await writeFile(path.join(folder, 'index-AbC123.js.br'), brotliCompressSync(script));
    await writeFile(path.join(folder, 'index-AbC123.js.gz'), gzipSync(script));
    await writeFile(path.join(folder, 'small-XyZ.css'), 'a{color:red}');
    app = Fastify();
    app.decorate('shortPath', new ShortPath());
    registerHashedAssets(app, folder);
  });
  afterAll(async () => {
    await app.close();
    await rm(folder, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

  it('sends the copy the browser accepts best, cached for a year, with an ETag per copy and 304 for the one it holds', async () => {
    const [br, gzip, plain] = await Promise.all([get('/assets/index-AbC123.js', { 'accept-encoding': 'gzip, br' }), get('/assets/index-AbC123.js', { 'accept-encoding': 'gzip' }), get('/assets/index-AbC123.js')]);
    expect(br.headers).toMatchObject({ 'content-encoding': 'br', 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=31536000, immutable', vary: 'accept-encoding' });
    expect(gunzipSync(gzip.rawPayload).equals(script)).toBe(true);
    expect(plain.rawPayload.equals(script)).toBe(true);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(new Set([br.headers.etag, gzip.headers.etag, plain.headers.etag]).size).toBe(3);
    const again = await get('/assets/index-AbC123.js', { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });

  it('sends a file too small to have compressed copies as it is, to any browser', async () => {
    const response = await get('/assets/small-XyZ.css', { 'accept-encoding': 'gzip, br' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.headers.vary).toBeUndefined();
    expect(response.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(response.body).toBe('a{color:red}');
  });

  it('answers a name the build does not have, a compressed copy asked for by name included, with a JSON 404', async () => {
    for (const url of ['/assets/missing.js', '/assets/index-AbC123.js.br', '/assets/..%2Fpasswd']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json().error.code, url).toBe('not_found');
    }
  });
});
