import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { encodedAnswers, pickAnswer, type EncodedAnswers } from './content-encoding.js';
import { errorBody } from './errors.js';

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.png': 'image/png',
  '.webp': 'image/webp',
};

/** A file's answers, in identity and in br and gz where compressing was worth it (scripts/compress-build.mjs). */
type HashedAsset = EncodedAnswers;

/**
 * The built app's files under assets/, answered from memory. Vite puts a hash of the content in
 * each name, so a file never changes while its name stands: it is read once, with its compressed
 * copies, at its first request, and from then on a request costs a lookup (`@fastify/static` would
 * look at the disk for each one). The names are listed at start, so an unknown one is a 404 that
 * never reaches the disk, and the memory held is bounded by the build. A file read once is answered
 * on the short path (short-path.ts).
 */
export function registerHashedAssets(app: FastifyInstance, assetsDir: string): void {
  const names = new Set(existsSync(assetsDir) ? readdirSync(assetsDir).filter((name) => !/\.(br|gz)$/.test(name)) : []);
  const loaded = new Map<string, Promise<HashedAsset>>();
  /** The files read, for the short path, which answers only from memory. */
  const ready = new Map<string, HashedAsset>();
  const load = (name: string) => {
    let asset = loaded.get(name);
    if (!asset) {
      asset = readAsset(assetsDir, name);
      loaded.set(name, asset);
      asset.then(
        (read) => ready.set(name, read),
        // A failed read (the build replaced under a running server) is tried again at the next request.
        () => loaded.delete(name),
      );
    }
    return asset;
  };

  app.get<{ Params: { file: string } }>(ASSET_ROUTE, async (request, reply) => {
    const { file } = request.params;
    if (!names.has(file)) return reply.status(404).send(errorBody('not_found', `No file /assets/${file}`));
    const { status, headers, body } = pickAnswer(request.headers, await load(file));
    return reply.status(status).headers(headers).send(body);
  });
  app.shortPath.addPrefix('/assets/', ASSET_ROUTE, ({ pathname, headers }) => {
    const asset = ready.get(pathname.slice('/assets/'.length));
    return asset && pickAnswer(headers, asset);
  });
}

const ASSET_ROUTE = '/assets/:file';

async function readAsset(assetsDir: string, name: string): Promise<HashedAsset> {
  const file = path.join(assetsDir, name);
  const [identity, br, gzip] = await Promise.all([readFile(file), readFile(`${file}.br`).catch(() => undefined), readFile(`${file}.gz`).catch(() => undefined)]);
  const contentType = CONTENT_TYPES[path.extname(name)] ?? 'application/octet-stream';
  return encodedAnswers(200, { 'cache-control': 'public, max-age=31536000, immutable', 'content-type': contentType }, { identity, br, gzip });
}
