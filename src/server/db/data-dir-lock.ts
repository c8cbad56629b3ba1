import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE } from '#server/private-files.js';

export class DataDirInUseError extends Error {}

/**
 * The process named in the lock file. A PID alone can be reused by an unrelated process after a
 * crash; its start time and the boot id cannot. They are missing where /proc is not available
 * (macOS), and in lock files of earlier versions, which held the PID alone.
 */
interface Holder {
  pid: number;
  startTime?: string;
  bootId?: string;
}

/**
 * A guard or lock file this young may belong to a live process between creating and finishing it;
 * older, its writer is taken to have died there. The steps it covers take milliseconds.
 */
const STALE_AFTER_MS = 10_000;
const RETRY_MS = 50;

/**
 * PGlite serves one process. A second server on the same DATA_DIR would corrupt the files,
 * so it stops with a clear message instead.
 *
 * A lock left by a process that is gone is taken over. Reading it, judging it stale and removing
 * it are separate steps, so two servers starting at once could both judge the same stale lock and
 * the slower one remove the lock the faster one has just created. The removal therefore happens
 * only while holding an exclusive guard file, after judging the lock again; creating the lock
 * itself is atomic ('wx'), so of the servers that then try, exactly one wins.
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  const lockPath = path.join(dataDir, 'pglite.lock');
  const own = JSON.stringify(identityOf(process.pid) ?? { pid: process.pid });
  // Waiting ends on its own once a dead writer's files count as stale; this only bounds the loop.
  const giveUpAt = Date.now() + 3 * STALE_AFTER_MS;
  while (Date.now() < giveUpAt) {
    if (createExclusive(lockPath, own)) return () => releaseLock(lockPath, own);
    const lock = readLock(lockPath);
    if (!lock) continue; // released since
    if (isStale(lock)) removeStaleLock(lockPath);
    else if (lock.holder) throw inUseError(dataDir, lockPath, lock.holder);
    else sleep(RETRY_MS); // its writer is about to fill it in
  }
  throw new DataDirInUseError(`Could not lock ${lockPath}.`);
}

interface LockFile {
  text: string;
  holder: Holder | undefined;
  ageMs: number;
}

function readLock(lockPath: string): LockFile | undefined {
  try {
    const text = readFileSync(lockPath, 'utf8');
    return { text, holder: parseHolder(text), ageMs: ageMs(lockPath) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function isStale(lock: LockFile): boolean {
  // A lock file is created empty and written a moment later; one left empty by a crash goes stale.
  return lock.holder ? !isHeld(lock.holder) : lock.ageMs >= STALE_AFTER_MS;
}

function removeStaleLock(lockPath: string): void {
  const guardPath = `${lockPath}.takeover`;
  if (!createExclusive(guardPath, String(process.pid))) {
    // A guard left by a server that died inside it would block every later start. Two servers
    // breaking the same dead guard at once could still both get in; that needs a crash within
    // these few milliseconds followed by a simultaneous start, and is accepted.
    if (ageMs(guardPath) >= STALE_AFTER_MS) rmSync(guardPath, { force: true });
    else sleep(RETRY_MS);
    return;
  }
  try {
    // The lock may have been replaced by a live server's since it was judged, and that one must stay.
    const lock = readLock(lockPath);
    if (lock && isStale(lock)) rmSync(lockPath, { force: true });
  } finally {
    rmSync(guardPath, { force: true });
  }
}

function releaseLock(lockPath: string, own: string): void {
  // The file may have been removed by hand and taken by another server meanwhile; that lock is not ours to remove.
  if (readLock(lockPath)?.text === own) rmSync(lockPath, { force: true });
}

function isHeld(holder: Holder): boolean {
  if (!isProcessAlive(holder.pid)) return false;
  // With the PID alone, a lock naming this process can only be left by an earlier run reusing the
  // PID, as a restarted container's server often does (PID 1 again).
  if (holder.startTime === undefined || holder.bootId === undefined) return holder.pid !== process.pid;
  const current = identityOf(holder.pid);
  // Where /proc hides other users' processes (hidepid), a live PID has to be taken at its word.
  if (!current) return true;
  return current.startTime === holder.startTime && current.bootId === holder.bootId;
}

function parseHolder(text: string): Holder | undefined {
  if (/^\s*[1-9]\d*\s*$/.test(text)) return { pid: Number(text) };
  try {
    const { pid, startTime, bootId } = JSON.parse(text) as Record<string, unknown>;
    if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0) return undefined;
    return {
      pid,
      startTime: typeof startTime === 'string' ? startTime : undefined,
      bootId: typeof bootId === 'string' ? bootId : undefined,
    };
  } catch {
    return undefined;
  }
}

/** The identity of a live process, or undefined where /proc cannot tell it. */
export function identityOf(pid: number): Required<Holder> | undefined {
  try {
    const startTime = startTimeFromStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    const bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    return startTime && bootId ? { pid, startTime, bootId } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Field 22 of /proc/<pid>/stat, the start time in clock ticks since boot. Field 2 is the command
 * in parentheses and may itself hold spaces and parentheses, so fields are counted from the last ')'.
 * See https://man7.org/linux/man-pages/man5/proc_pid_stat.5.html
 */
export function startTimeFromStat(stat: string): string | undefined {
  const commandEnd = stat.lastIndexOf(')');
  if (commandEnd < 0) return undefined;
  const startTime = stat.slice(commandEnd + 1).trim().split(/\s+/)[22 - 3];
  return startTime && /^\d+$/.test(startTime) ? startTime : undefined;
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function inUseError(dataDir: string, lockPath: string, holder: Holder): DataDirInUseError {
  return new DataDirInUseError(
    `The embedded database in ${path.resolve(dataDir)} is in use by process ${holder.pid}. ` +
      'Stop that server, or give this one another DATA_DIR, or use PostgreSQL through DATABASE_URL to run several servers.' +
      // Only the PID was compared, and it may since belong to an unrelated process.
      (holder.startTime ? '' : ` If process ${holder.pid} is not a shop server, delete ${path.resolve(lockPath)}.`),
  );
}

function createExclusive(file: string, text: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'wx', PRIVATE_FILE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  return true;
}

function ageMs(file: string): number {
  try {
    return Date.now() - statSync(file).mtimeMs;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
}

/** Locking runs once at start, before anything else could use the event loop. */
function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
