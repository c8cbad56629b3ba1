import { createWriteStream } from 'node:fs';
import { copyFile, link, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream } from 'node:stream/web';
import * as tar from 'tar';
import type { PgliteExecutor } from '#server/db/pglite-worker-client.js';
import { projectPath } from '#server/project-path.js';

/**
 * A backup of a shop on the embedded database is one gzipped tar file:
 *
 *   manifest.json   what it holds (BackupManifest), first, so that it can be read without the rest
 *   database.tar    PGlite's data directory, as dumpDataDir writes it and loadDataDir reads it
 *   images/ legal/ mail-texts/   the shop's own files in DATA_DIR, as they are there
 *
 * The development outbox is left out: it is not the shop's data.
 */
const BACKUP_FORMAT = 1;
export const SHOP_FOLDERS = ['images', 'legal', 'mail-texts'] as const;
const MANIFEST_FILE = 'manifest.json';
export const DATABASE_FILE = 'database.tar';
/** Work folders inside DATA_DIR (on its file system, so that files can be linked rather than copied). */
export const STAGING_PREFIX = '.backup-';

export interface BackupCounts {
  orders: number;
  products: number;
  productPhotos: number;
  customers: number;
  /** Files under images/, every width of every photo. */
  imageFiles: number;
}

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  /** The shop's version (package.json) that wrote it. */
  appVersion: string;
  /** PostgreSQL's version inside PGlite: a data directory opens only with the same major version. */
  postgresVersion: string;
  /** How many of the schema's migrations the database had; a shop that knows fewer cannot read it. */
  migrations: number;
  createdAt: string;
  /** The currency of the catalogue's prices, as the database records it. */
  currency: string | null;
  counts: BackupCounts;
}

export class BackupError extends Error {}

async function appVersion(): Promise<string> {
  return (JSON.parse(await readFile(projectPath('package.json'), 'utf8')) as { version: string }).version;
}

/** How many migrations this version of the shop has. */
export async function knownMigrations(): Promise<number> {
  const journal = JSON.parse(await readFile(projectPath('src/server/db/migrations/meta/_journal.json'), 'utf8')) as { entries: unknown[] };
  return journal.entries.length;
}

interface DatabaseFacts {
  orders: number;
  products: number;
  product_photos: number;
  customers: number;
  migrations: number;
  currency: string | null;
  postgres_version: string;
}

// Plain SQL over the whole database: a backup reads every module's tables, and must also read a
// database whose schema is older than this version's (it is not migrated to be backed up).
const FACTS = `
  select (select count(*) from orders)::int as orders,
         (select count(*) from products)::int as products,
         (select count(*) from product_photos)::int as product_photos,
         (select count(*) from users)::int as customers,
         (select count(*) from drizzle.__drizzle_migrations)::int as migrations,
         (select value from shop_state where key = 'catalogue_currency') as currency,
         current_setting('server_version') as postgres_version`;

/** The numbers a restored database must show again; read from the restored one by the same query. */
export async function readCounts(client: Pick<PgliteExecutor, 'query'>): Promise<Omit<BackupCounts, 'imageFiles'>> {
  const facts = (await client.query<DatabaseFacts>(FACTS)).rows[0]!;
  return { orders: facts.orders, products: facts.products, productPhotos: facts.product_photos, customers: facts.customers };
}

export interface PreparedBackup {
  manifest: BackupManifest;
  /** The archive, gzipped, made from the prepared files as it is read. */
  archive(): Readable;
  /** Removes the prepared files; call it once the archive has been read, or will not be. */
  discard(): Promise<void>;
}

/** The embedded database, in the server's thread of it or opened here by `npm run backup`. */
interface BackupSource {
  transaction<T>(work: (tx: PgliteExecutor) => Promise<T>): Promise<T>;
  dumpDataDir(compression: 'none'): Promise<Blob>;
}

/**
 * Takes a consistent copy of the shop: the database and the files of DATA_DIR at one moment. A
 * photo's files are written before its row is committed and removed only after its removal is, both
 * in transactions; holding PGlite's transaction lock while the files are linked and the database
 * dumped therefore leaves every photo the dump names with its files. Linking takes milliseconds for
 * thousands of files, so checkouts wait no longer than that; the archive is then written from the
 * links, which later changes to DATA_DIR do not touch.
 */
export async function prepareBackup(client: BackupSource, dataDir: string): Promise<PreparedBackup> {
  await removeStaging(dataDir);
  const staging = await mkdtemp(path.join(dataDir, STAGING_PREFIX));
  try {
    const { dump, facts, imageFiles } = await client.transaction(async (tx) => {
      let imageFiles = 0;
      for (const folder of SHOP_FOLDERS) {
        const linked = await linkTree(path.join(dataDir, folder), path.join(staging, folder));
        if (folder === 'images') imageFiles = linked;
      }
      const facts = (await tx.query<DatabaseFacts>(FACTS)).rows[0]!;
      // Written out now, the data files hold everything committed, and a restore starts without replaying the log.
      await tx.exec('checkpoint');
      return { dump: await client.dumpDataDir('none'), facts, imageFiles };
    });
    await pipeline(Readable.fromWeb(dump.stream() as ReadableStream<Uint8Array>), createWriteStream(path.join(staging, DATABASE_FILE)));
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      appVersion: await appVersion(),
      postgresVersion: facts.postgres_version,
      migrations: facts.migrations,
      createdAt: new Date().toISOString(),
      currency: facts.currency,
      counts: { orders: facts.orders, products: facts.products, productPhotos: facts.product_photos, customers: facts.customers, imageFiles },
    };
    await writeFile(path.join(staging, MANIFEST_FILE), JSON.stringify(manifest, null, 2));
    const entries = [MANIFEST_FILE, DATABASE_FILE, ...(await readdir(staging)).filter((name) => (SHOP_FOLDERS as readonly string[]).includes(name))];
    return {
      manifest,
      archive: () => Readable.from(tar.create({ gzip: true, cwd: staging, portable: true }, entries)),
      discard: () => rm(staging, { recursive: true, force: true }),
    };
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}

/** Work folders left by a backup or restore that was cut off; only one runs at a time on a DATA_DIR. */
export async function removeStaging(dataDir: string): Promise<void> {
  const names = await readdir(dataDir).catch(() => [] as string[]);
  await Promise.all(names.filter((name) => name.startsWith(STAGING_PREFIX)).map((name) => rm(path.join(dataDir, name), { recursive: true, force: true })));
}

/** Links every file under `from` into `to` (copies it where DATA_DIR spans file systems); returns how many. */
async function linkTree(from: string, to: string): Promise<number> {
  let entries;
  try {
    entries = await readdir(from, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  await mkdir(to, { recursive: true });
  let count = 0;
  for (const entry of entries) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) {
      count += await linkTree(source, target);
    } else if (entry.isFile()) {
      await link(source, target).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EXDEV') throw error;
        return copyFile(source, target);
      });
      count++;
    }
  }
  return count;
}

/** Reads the manifest of a backup file, which also shows that the file is a backup at all. */
export async function readManifest(file: string): Promise<BackupManifest> {
  let text: string | undefined;
  try {
    await tar.list({
      file,
      strict: true,
      filter: (entryPath) => entryPath === MANIFEST_FILE,
      onReadEntry: (entry) => {
        const chunks: Buffer[] = [];
        entry.on('data', (chunk: Buffer) => chunks.push(chunk));
        entry.on('end', () => (text = Buffer.concat(chunks).toString('utf8')));
      },
    });
  } catch (error) {
    throw new BackupError(`${file} is not a readable shop backup: ${(error as Error).message}`);
  }
  if (text === undefined) throw new BackupError(`${file} is not a shop backup: it holds no ${MANIFEST_FILE}.`);
  let manifest: Partial<BackupManifest> | null;
  try {
    manifest = JSON.parse(text) as Partial<BackupManifest> | null;
  } catch (error) {
    throw new BackupError(`${file} is not a sound shop backup: its ${MANIFEST_FILE} is not JSON (${(error as Error).message}).`);
  }
  if (manifest?.format !== BACKUP_FORMAT) throw new BackupError(`${file} is a backup of format ${String(manifest?.format)}; this version of the shop reads format ${BACKUP_FORMAT}.`);
  const counts = manifest.counts as Partial<Record<keyof BackupCounts, unknown>> | undefined;
  const whole = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0;
  const missing = [
    ...(['appVersion', 'createdAt'] as const).filter((name) => typeof manifest[name] !== 'string'),
    ...(whole(manifest.migrations) ? [] : ['migrations']),
    ...(['orders', 'products', 'productPhotos', 'imageFiles'] as const).filter((name) => !whole(counts?.[name])).map((name) => `counts.${name}`),
  ];
  if (missing.length > 0) throw new BackupError(`${file} is not a sound shop backup: its ${MANIFEST_FILE} lacks ${missing.join(', ')}.`);
  return manifest as BackupManifest;
}

/**
 * Checks every entry of a backup before anything is unpacked: only plain files and folders, each
 * where the format puts it, none twice, none both a file and a folder, and the database there. A
 * hand-made or damaged archive is refused with what is wrong with it, rather than failing halfway.
 */
export async function checkBackupEntries(file: string): Promise<void> {
  const files = new Set<string>();
  const folders = new Set<string>();
  const problems: string[] = [];
  try {
    await tar.list({
      file,
      strict: true,
      onReadEntry: (entry) => {
        const problem = entryProblem(entry.path, entry.type, files, folders);
        if (problem) problems.push(problem);
        entry.resume();
      },
    });
  } catch (error) {
    throw new BackupError(`${file} is not a readable shop backup: ${(error as Error).message}`);
  }
  if (!files.has(DATABASE_FILE)) problems.push(`it holds no ${DATABASE_FILE}`);
  if (problems.length > 0) {
    const shown = problems.slice(0, 5).join('; ') + (problems.length > 5 ? `; and ${problems.length - 5} more` : '');
    throw new BackupError(`${file} is not a sound shop backup: ${shown}. Nothing was restored.`);
  }
}

function entryProblem(rawPath: string, type: string, files: Set<string>, folders: Set<string>): string | undefined {
  const entryPath = rawPath.replace(/\/+$/, '');
  const parts = entryPath.split('/');
  if (rawPath.startsWith('/') || /^[A-Za-z]:/.test(rawPath) || rawPath.includes('\\') || parts.some((part) => part === '..' || part === '.' || part === '')) {
    return `${JSON.stringify(rawPath)} names a place outside the backup's own folders`;
  }
  const top = parts[0]!;
  const isFolder = type === 'Directory';
  if (type !== 'File' && !isFolder) return `${entryPath} is a ${type}, and a backup holds only files and folders`;
  if ((SHOP_FOLDERS as readonly string[]).includes(top)) {
    if (parts.length === 1 && !isFolder) return `${entryPath} is a file where the backup keeps a folder`;
  } else if (entryPath === MANIFEST_FILE || entryPath === DATABASE_FILE) {
    if (isFolder) return `${entryPath} is a folder where the backup keeps a file`;
  } else {
    return `${entryPath} is not part of a shop backup`;
  }
  if (files.has(entryPath) || (!isFolder && folders.has(entryPath))) return `${entryPath} is there twice, or both as a file and as a folder`;
  const fileAbove = parts.slice(1).map((_, index) => parts.slice(0, index + 1).join('/')).find((above) => files.has(above));
  if (fileAbove) return `${entryPath} is inside ${fileAbove}, which the archive also holds as a file`;
  if (isFolder) {
    folders.add(entryPath);
  } else {
    files.add(entryPath);
    for (let index = 1; index < parts.length; index++) folders.add(parts.slice(0, index).join('/'));
  }
  return undefined;
}

/**
 * Unpacks a backup's files into a folder, once checkBackupEntries has found them sound: only plain
 * files and folders, only where the format puts them (the filter stays, should the file change between).
 */
export async function extractBackup(file: string, folder: string): Promise<void> {
  const allowed = (entryPath: string) => {
    const top = entryPath.split('/')[0]!;
    return entryPath === MANIFEST_FILE || entryPath === DATABASE_FILE || (SHOP_FOLDERS as readonly string[]).includes(top);
  };
  try {
    await tar.extract({
      file,
      cwd: folder,
      strict: true,
      filter: (entryPath, entry) => allowed(entryPath) && 'type' in entry && (entry.type === 'File' || entry.type === 'Directory'),
    });
  } catch (error) {
    throw new BackupError(`${file} could not be unpacked (${(error as Error).message}); it is damaged or not a shop backup. Nothing was restored.`);
  }
}
