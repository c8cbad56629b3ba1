import { createWriteStream, existsSync } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream } from 'node:stream/web';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { BackupError, prepareBackup, readManifest, type BackupManifest } from '#server/backup/backup-archive.js';
import { backupAccessFile, readBackupAccess } from '#server/backup/backup-access.js';
import { BACKUP_PATH } from '#server/backup/backup-routes.js';
import { ConfigError, loadConfig } from './config.js';
import { DataDirInUseError, lockDataDir } from '#server/db/data-dir-lock.js';

const usage = `Usage:
  npm run backup                 write shop-backup-<date and time>.tar.gz in the current folder
  npm run backup -- <file>       write the backup to that file
It backs up the embedded database in DATA_DIR with the shop's files there (photos, own legal and
e-mail texts), while the server runs or not. Restore it with "npm run restore -- <file>".`;

const postgresAdvice = (databaseUrl: string) => {
  const safeUrl = new URL(databaseUrl);
  if (safeUrl.password) safeUrl.password = '****';
  return `DATABASE_URL is set, so the shop's data (orders, customers, products and their photos) is in PostgreSQL, not in DATA_DIR.
Back it up with PostgreSQL's own tools, which take a consistent copy while the shop runs:
  pg_dump -Fc -f shop.dump "${safeUrl.toString()}"
and restore it into a new, empty database with:
  createdb shop_restored && pg_restore --no-owner -d shop_restored shop.dump
(see docs/operations/backups.md).`;
};

const defaultFileName = () => `shop-backup-${new Date().toISOString().replace(/[:]/g, '-').replace(/\.\d+Z$/, 'Z')}.tar.gz`;

async function run(args: string[]): Promise<number> {
  if (args.length > 1 || args[0]?.startsWith('-')) {
    console.error(usage);
    return 2;
  }
  const config = loadConfig();
  if (config.databaseUrl) {
    console.error(postgresAdvice(config.databaseUrl));
    return 1;
  }
  const dataDir = path.resolve(config.dataDir);
  if (!existsSync(path.join(dataDir, 'db'))) throw new BackupError(`There is no embedded database in ${dataDir} to back up (set DATA_DIR to the shop's folder).`);
  const file = path.resolve(args[0] ?? defaultFileName());
  if (existsSync(file)) throw new BackupError(`${file} exists already; a backup never overwrites a file. Name another.`);
  // Written beside the target and renamed once complete, so that a cut-off backup never looks like one.
  const partial = `${file}.partial`;
  try {
    let release: (() => void) | undefined;
    try {
      release = lockDataDir(dataDir);
    } catch (error) {
      if (!(error instanceof DataDirInUseError)) throw error;
    }
    if (release) {
      console.warn(`No server runs on ${dataDir}; backing up its database directly.`);
      try {
        await backupDirectly(dataDir, partial);
      } finally {
        release();
      }
    } else {
      await backupThroughServer(dataDir, partial);
    }
    const manifest = await readManifest(partial);
    await rename(partial, file);
    console.warn(summary(file, manifest, (await stat(file)).size));
    return 0;
  } finally {
    await rm(partial, { force: true });
  }
}

async function backupDirectly(dataDir: string, partial: string): Promise<void> {
  // Opened as it is, without migrations: a backup must not change what it copies.
  const client = new PGlite(path.join(dataDir, 'db'), { extensions: { pg_trgm } });
  try {
    const backup = await prepareBackup(client, dataDir);
    try {
      await pipeline(backup.archive(), createWriteStream(partial, { flags: 'wx', mode: 0o600 }));
    } finally {
      await backup.discard();
    }
  } finally {
    await client.close();
  }
}

async function backupThroughServer(dataDir: string, partial: string): Promise<void> {
  let access;
  try {
    access = await readBackupAccess(dataDir);
  } catch (error) {
    throw new BackupError(
      `A server is running on ${dataDir}, and the embedded database serves one process, so the backup must come from that server; ` +
        `but ${backupAccessFile(dataDir)} could not be read (${(error as Error).message}). ` +
        'Run this command as the user that runs the server, or stop the server and run it again.',
    );
  }
  let response: Response;
  try {
    response = await fetch(`${access.url}${BACKUP_PATH}`, { method: 'POST', headers: { authorization: `Bearer ${access.key}` } });
  } catch (error) {
    throw new BackupError(`The server running on ${dataDir} (process ${access.pid}) did not answer at ${access.url}: ${(error as Error).cause ?? (error as Error).message}`);
  }
  if (!response.ok || !response.body) {
    const reason = await response.text().then((text) => (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? text, () => '');
    throw new BackupError(`The server running on ${dataDir} refused the backup (${response.status}): ${reason}`);
  }
  await pipeline(Readable.fromWeb(response.body as ReadableStream<Uint8Array>), createWriteStream(partial, { flags: 'wx', mode: 0o600 }));
}

function summary(file: string, manifest: BackupManifest, bytes: number): string {
  const { orders, products, productPhotos, customers } = manifest.counts;
  return `Backup written to ${file} (${(bytes / 1024 / 1024).toFixed(1)} MB): ${orders} orders, ${customers} customers, ${products} products with ${productPhotos} photos, currency ${manifest.currency ?? 'not recorded'}.`;
}

try {
  process.exitCode = await run(process.argv.slice(2));
} catch (error) {
  console.error(error instanceof ConfigError || error instanceof BackupError || error instanceof DataDirInUseError ? error.message : error);
  process.exitCode = 1;
}
