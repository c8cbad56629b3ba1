import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DatabaseHandle } from '#server/db/client.js';
import { PgliteWorkerClient } from '#server/db/pglite-worker-client.js';
import { HttpError } from '#server/http/errors.js';
import { prepareBackup } from './backup-archive.js';

export const BACKUP_PATH = '/api/internal/backup';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Loopback, or this machine's own address (when the server listens on one interface only), and not
 * passed on by a reverse proxy, which connects from this machine too but names its client in one of
 * these headers. The key is what keeps others out; this only narrows who may try.
 */
function fromThisMachine(request: FastifyRequest): boolean {
  if (request.headers['x-forwarded-for'] || request.headers['x-real-ip'] || request.headers.forwarded) return false;
  // The socket's peer, not request.ip: behind a proxy (TRUST_PROXY) request.ip is whatever X-Forwarded-For says.
  const { remoteAddress, localAddress } = request.raw.socket;
  if (!remoteAddress) return false;
  const peer = remoteAddress.replace(/^::ffff:/, '');
  return peer.startsWith('127.') || peer === '::1' || remoteAddress === localAddress;
}

/**
 * The embedded database serves one process, so `npm run backup` cannot open it while the server
 * runs; it asks the server instead, with the key the server wrote to DATA_DIR (backup-access.ts),
 * and receives the archive in the answer. Only a caller on this machine that can read DATA_DIR gets
 * one; a second backup while one is being made is refused.
 */
export function registerBackupRoute(app: FastifyInstance, database: DatabaseHandle, dataDir: string, key: string): void {
  // Drizzle keeps the client it was given; only the embedded database's client can dump its files.
  const client = (database.db as unknown as { $client?: unknown }).$client;
  if (!(client instanceof PgliteWorkerClient)) throw new Error('Backups through the server need the embedded database');
  const expected = digest(key);
  let running = false;

  app.post(BACKUP_PATH, async (request, reply) => {
    const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    // Compared as hashes, in constant time, so that the answer's timing tells nothing of the key.
    if (!given || !fromThisMachine(request) || !timingSafeEqual(digest(given), expected)) {
      throw new HttpError(403, 'forbidden', 'A backup is given only to `npm run backup` on this machine.');
    }
    if (running) throw new HttpError(409, 'conflict', 'A backup is being made; try again when it is done.');
    running = true;
    try {
      const backup = await prepareBackup(client, dataDir);
      request.log.info({ counts: backup.manifest.counts }, 'Backup prepared; sending it');
      const finished = () => {
        running = false;
        void backup.discard().catch((error: unknown) => request.log.warn({ err: error }, 'Could not remove a backup’s work folder'));
      };
      reply.raw.once('close', finished);
      return reply
        .header('content-type', 'application/gzip')
        .header('cache-control', 'no-store')
        .header('content-disposition', 'attachment; filename="shop-backup.tar.gz"')
        .send(backup.archive());
    } catch (error) {
      running = false;
      throw error;
    }
  });
}
