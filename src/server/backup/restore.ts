import { existsSync, openAsBlob } from 'node:fs';
import { mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { DataDirInUseError, lockDataDir } from '#server/db/data-dir-lock.js';
import { openDatabase } from '#server/db/client.js';
import { keepPrivate } from '#server/private-files.js';
import {
  BackupError,
  checkBackupEntries,
  DATABASE_FILE,
  extractBackup,
  knownMigrations,
  readCounts,
  readManifest,
  removeStaging,
  SHOP_FOLDERS,
  STAGING_PREFIX,
  type BackupCounts,
  type BackupManifest,
} from './backup-archive.js';

/** What the lock leaves in a DATA_DIR that holds nothing else. */
const LOCK_FILES = new Set(['pglite.lock', 'pglite.lock.takeover']);

export interface RestoreResult {
  manifest: BackupManifest;
  /** What the restored shop holds, counted in it. */
  counts: Omit<BackupCounts, 'customers'>;
}

/**
 * Brings a backup back into an empty DATA_DIR (which may not exist yet), held with the same lock a
 * server takes, so that none can start on it halfway. A restore that fails leaves the folder empty
 * again. The restored database is then opened as a server would open it, which brings a backup
 * from an earlier version up to this version's schema.
 */
export async function restoreBackup(file: string, dataDir: string): Promise<RestoreResult> {
  const where = path.resolve(dataDir);
  const manifest = await readManifest(file);
  const known = await knownMigrations();
  if (manifest.migrations > known) {
    throw new BackupError(
      `${file} was made by a newer version of the shop (${manifest.appVersion}, whose database has ${manifest.migrations} migrations; this version knows ${known}). Restore it with that version or a later one.`,
    );
  }
  await checkBackupEntries(file);
  const created = !existsSync(dataDir);
  let release: () => void;
  try {
    release = lockDataDir(dataDir);
  } catch (error) {
    if (error instanceof DataDirInUseError) throw new BackupError(`Cannot restore into ${where}: ${error.message}`);
    throw error;
  }
  let counts: RestoreResult['counts'];
  try {
    const present = (await readdir(dataDir)).filter((name) => !LOCK_FILES.has(name));
    if (present.length > 0) {
      throw new BackupError(
        `Cannot restore into ${where}: it is not empty (it holds ${present.slice(0, 5).join(', ')}${present.length > 5 ? ', …' : ''}). ` +
          'A restore never overwrites a shop: set DATA_DIR to a new, empty folder (and point the server at it afterwards), or move this one away first.',
      );
    }
    try {
      counts = await unpack(file, dataDir);
      const differing = (['orders', 'products', 'productPhotos', 'imageFiles'] as const).filter((name) => counts[name] !== manifest.counts[name]);
      if (differing.length > 0) {
        const found = differing.map((name) => `${name}: ${counts[name]} instead of ${manifest.counts[name]}`).join(', ');
        throw new BackupError(`The restored shop does not hold what ${file} lists (${found}); ${where} was emptied again.`);
      }
    } catch (error) {
      await emptyExceptLock(dataDir);
      throw error;
    }
  } catch (error) {
    release();
    if (created) await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  release();
  try {
    const database = await openDatabase({ dataDir });
    await database.close();
  } catch (error) {
    await emptyExceptLock(dataDir);
    if (created) await rm(dataDir, { recursive: true, force: true });
    throw new BackupError(`The database restored from ${file} could not be opened and brought up to this version (${(error as Error).message}); ${where} was emptied again.`);
  }
  await keepPrivate(dataDir);
  return { manifest, counts };
}

async function unpack(file: string, dataDir: string): Promise<RestoreResult['counts']> {
  await removeStaging(dataDir);
  const staging = await mkdtemp(path.join(dataDir, STAGING_PREFIX));
  try {
    await extractBackup(file, staging);
    if (!existsSync(path.join(staging, DATABASE_FILE))) throw new BackupError(`${file} holds no ${DATABASE_FILE}.`);
    let counts: Omit<BackupCounts, 'imageFiles'>;
    try {
      // The extension the migrations create (for the e-mail search index) must be there when the database starts.
      const client = await PGlite.create(path.join(dataDir, 'db'), { loadDataDir: await openAsBlob(path.join(staging, DATABASE_FILE)), extensions: { pg_trgm } });
      try {
        counts = await readCounts(client);
      } finally {
        await client.close();
      }
    } catch (error) {
      throw new BackupError(`The database in ${file} could not be loaded (${(error as Error).message}); it is damaged or not a shop backup.`);
    }
    for (const folder of SHOP_FOLDERS) {
      if (existsSync(path.join(staging, folder))) await rename(path.join(staging, folder), path.join(dataDir, folder));
    }
    return { orders: counts.orders, products: counts.products, productPhotos: counts.productPhotos, imageFiles: await countFiles(path.join(dataDir, 'images')) };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

async function countFiles(folder: string): Promise<number> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).length;
}

async function emptyExceptLock(dataDir: string): Promise<void> {
  for (const name of await readdir(dataDir)) {
    if (!LOCK_FILES.has(name)) await rm(path.join(dataDir, name), { recursive: true, force: true });
  }
}
