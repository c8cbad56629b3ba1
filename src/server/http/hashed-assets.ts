import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { chooseEncoding, noneMatch, type Encoding } from './content-encoding.js';
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

interface HashedAsset {
  contentType: string;
  /** The copies built for it: always identity, and br and gz where compressing was worth it (scripts/compress-build.mjs). */
  bodies: Partial<Record<Encoding, Buffer>>;
  etags: Partial<Record<Encoding, string>>;
}

/**
 * The built app's files under assets/, answered from memory. Vite puts a hash of the content in
 * each name, so a file never changes while its name stands: it is read once, with its compressed
 * copies, at its first request, and from then on a request costs a lookup (`@fastify/static` would
 * look at the disk for each one). The names are listed at start, so an unknown one is a 404 that
 * never reaches the disk, and the memory held is bounded by the build.
 */
export function registerHashedAssets(app: FastifyInstance, assetsDir: string): void {
  const names = new Set(existsSync(assetsDir) ? readdirSync(assetsDir).filter((name) => !/\.(br|gz)$/.test(name)) : []);
  const loaded = new Map<string, Promise<HashedAsset>>();
  const load = (name: string) => {
    let asset = loaded.get(name);
    if (!asset) {
      asset = readAsset(assetsDir, name);
      loaded.set(name, asset);
      // A failed read (the build replaced under a running server) is tried again at the next request.
      asset.catch(() => loaded.delete(name));
    }
    return asset;
  };

  app.get<{ Params: { file: string } }>('/assets/:file', async (request, reply) => {
    const { file } = request.params;
    if (!names.has(file)) return reply.status(404).send(errorBody('not_found', `No file /assets/${file}`));
    const asset = await load(file);
    const encoding = chooseEncoding(request.headers['accept-encoding'], (candidate) => asset.bodies[candidate] !== undefined);
    const etag = asset.etags[encoding]!;
    reply.header('cache-control', 'public, max-age=31536000, immutable').header('etag', etag).header('content-type', asset.contentType);
    if (asset.bodies.br || asset.bodies.gzip) reply.header('vary', 'accept-encoding');
    if (noneMatch(request.headers['if-none-match'], etag)) return reply.status(304).send();
    if (encoding !== 'identity') reply.header('content-encoding', encoding);
    return reply.send(asset.bodies[encoding]);
  });
}

async function readAsset(assetsDir: string, name: string): Promise<HashedAsset> {
  const file = path.join(assetsDir, name);
  const [identity, br, gzip] = await Promise.all([readFile(file), readFile(`${file}.br`).catch(() => undefined), readFile(`${file}.gz`).catch(() => undefined)]);
  const hash = createHash('sha256').update(identity).digest('base64url').slice(0, 27);
  const bodies: HashedAsset['bodies'] = { identity, br, gzip };
  const etags: HashedAsset['etags'] = { identity: `"${hash}"` };
  if (br) etags.br = `"${hash}-br"`;
  if (gzip) etags.gzip = `"${hash}-gzip"`;
  return { contentType: CONTENT_TYPES[path.extname(name)] ?? 'application/octet-stream', bodies, etags };
}
