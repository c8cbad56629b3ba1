import { randomBytes } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

/**
 * How `npm run backup` reaches a running server: its address and a secret, in a file inside DATA_DIR
 * that only the server's user can read (mode 0600). Whoever can read it can read DATA_DIR, and so
 * the whole shop, anyway; nobody else can ask for a backup.
 */
export interface BackupAccess {
  /** Where the command finds the server, on this machine. */
  url: string;
  key: string;
  pid: number;
}

const FILE_NAME = 'backup-access.json';

export const backupAccessFile = (dataDir: string) => path.join(dataDir, FILE_NAME);

export const newBackupKey = () => randomBytes(32).toString('base64url');

/** The address to call a server at from the same machine: loopback when it listens on every interface. */
export function localUrl({ address, family, port }: AddressInfo): string {
  const unspecified = address === '0.0.0.0' || address === '::';
  const host = unspecified ? (family === 'IPv6' ? '::1' : '127.0.0.1') : address;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** Written by the server once it listens; a file left by an earlier run is replaced, never reused. */
export async function writeBackupAccess(dataDir: string, access: BackupAccess): Promise<void> {
  const file = backupAccessFile(dataDir);
  // The mode applies only to a file being created, so an old one (with whatever mode) goes first.
  await rm(file, { force: true });
  await writeFile(file, JSON.stringify(access), { mode: 0o600, flag: 'wx' });
}

/** Removed at shutdown, unless another server has written its own since. */
export async function removeBackupAccess(dataDir: string, key: string): Promise<void> {
  const current = await readBackupAccess(dataDir).catch(() => undefined);
  if (current?.key === key) await rm(backupAccessFile(dataDir), { force: true });
}

export async function readBackupAccess(dataDir: string): Promise<BackupAccess> {
  const access = JSON.parse(await readFile(backupAccessFile(dataDir), 'utf8')) as Partial<BackupAccess>;
  if (typeof access.url !== 'string' || typeof access.key !== 'string' || typeof access.pid !== 'number') {
    throw new Error(`${backupAccessFile(dataDir)} is not a backup access file`);
  }
  return access as BackupAccess;
}
