import { chmod, lstat, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';

/*
 * DATA_DIR holds customers' data (the embedded database, the outbox, the backup key): only the user
 * the shop runs as may read it. The shop creates its files 0600 and folders 0700, whatever the umask.
 * PGlite's file system layer writes the database's files 0666 whatever it is asked, so the folders
 * are what keep them private: a folder of 0700 lets nobody else reach what is inside.
 */
export const PRIVATE_FOLDER_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates a folder (and any missing parent) that only its owner can enter. */
export async function makePrivateFolder(folder: string): Promise<void> {
  await mkdir(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
}

/**
 * Takes from group and others every right on the folder and everything in it (a file of 0666 becomes
 * 0600, a folder of 0755 0700); links are left alone, as is a folder that does not exist. Returns how
 * many it changed.
 */
export async function keepPrivate(folder: string): Promise<number> {
  let stats;
  try {
    stats = await lstat(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  let changed = 0;
  if ((stats.isDirectory() || stats.isFile()) && (stats.mode & 0o077) !== 0) {
    await chmod(folder, stats.mode & 0o7700 & ~0o077);
    changed++;
  }
  if (stats.isDirectory()) {
    for (const name of await readdir(folder)) changed += await keepPrivate(path.join(folder, name));
  }
  return changed;
}
