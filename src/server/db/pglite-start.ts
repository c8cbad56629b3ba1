import { createHash } from 'node:crypto';
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { keepPrivate } from '#server/private-files.js';
import { projectPath } from '#server/project-path.js';
import { lockDataDir } from './data-dir-lock.js';
import { PgliteWorkerClient } from './pglite-worker-client.js';

/*
 * The first steps of opening a DATA_DIR's embedded database, in a module that imports neither Drizzle
 * nor the server, so that a start can take them before it loads the rest (start-server.ts): PGlite's
 * start in its thread, most of it compiling PostgreSQL's WebAssembly, then runs beside the loading of
 * the server's modules instead of after it. client.ts's openDatabase takes it from there.
 */

export const migrationsFolder = projectPath('src/server/db/migrations');

/** A DATA_DIR's embedded database whose thread is starting, the folder locked for this process. */
export interface StartingPglite {
  /** Whether the folder had no database before this start (it now has a copy of the build's empty one, when the build saved one). */
  isNew: boolean;
  /** Resolves once PostgreSQL is ready in its thread; rejects when it cannot start. */
  client: Promise<PgliteWorkerClient>;
  releaseLock(): void;
}

/** Locks the DATA_DIR, gives a new one the build's empty database and starts the database's thread. */
export async function startPglite(dataDir: string): Promise<StartingPglite> {
  const releaseLock = lockDataDir(dataDir);
  try {
    const databaseDir = path.join(dataDir, 'db');
    const isNew = !existsSync(path.join(databaseDir, 'PG_VERSION'));
    if (isNew) await copyBuiltEmptyDatabase(databaseDir);
    const client = PgliteWorkerClient.open(databaseDir);
    // Whoever opens the database awaits it later; a failure meanwhile is theirs to report, not an unhandled rejection.
    client.catch(() => {});
    return { isNew, client, releaseLock };
  } catch (error) {
    releaseLock();
    throw error;
  }
}

/**
 * Creating a PGlite database (initdb) and migrating it takes seconds; the build saves an empty,
 * migrated one (`saveEmptyDatabase`) for a new DATA_DIR to start from. Its name carries a hash of
 * the migrations and PGlite's version, so a build made from other migrations is never used.
 */
export function emptyDatabaseFolder(): string {
  const journal = readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'));
  const pglitePackage = readFileSync(projectPath('node_modules', '@electric-sql', 'pglite', 'package.json'));
  const hash = createHash('sha256').update(journal).update(pglitePackage).digest('hex').slice(0, 16);
  return projectPath('dist', `empty-database-${hash}`);
}

/**
 * Copies the empty database the build saved, when it did, into a new database folder (else PGlite
 * creates one). It is kept as a folder, not as PGlite's tarball: a copy of its 600 files takes
 * a fifth of the time unpacking them did, and loading the tarball through memory (loadDataDir) would
 * hold its 27 MB for as long as the server runs. It is copied beside the folder and renamed, so a
 * start stopped halfway leaves no half database for the next to open.
 */
async function copyBuiltEmptyDatabase(databaseDir: string): Promise<void> {
  const source = emptyDatabaseFolder();
  // A folder that holds anything but a database is not this function's to replace: PGlite decides.
  if (!existsSync(path.join(source, 'PG_VERSION')) || (await readdir(databaseDir).catch(() => [])).length > 0) return;
  const copying = `${databaseDir}.copying`;
  await rm(copying, { recursive: true, force: true });
  await mkdir(path.dirname(copying), { recursive: true, mode: 0o700 });
  // Synchronous: the server answers nothing yet, and the asynchronous copy took three times as long.
  cpSync(source, copying, { recursive: true, preserveTimestamps: true });
  // The build's files keep the modes its umask gave them; the start would otherwise report each as loosened.
  await keepPrivate(copying);
  // rename replaces an empty folder.
  await rename(copying, databaseDir);
}
