import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataDirInUseError, identityOf, lockDataDir, startTimeFromStat } from './data-dir-lock.js';

const projectRoot = fileURLToPath(new URL('../../..', import.meta.url));
const lockModule = new URL('./data-dir-lock.ts', import.meta.url).href;
/** Without /proc (macOS) only the PID can be compared, and the tests of the identity do not apply. */
const hasProc = identityOf(process.pid) !== undefined;

/**
 * A server in miniature. A line with a time in ms makes it take the lock at that time and say how it
 * went; waiting for a time rather than for the line makes several start at the same moment.
 * The line "release" makes it release the lock.
 */
const LOCKER = `
const { createInterface } = await import('node:readline');
const { lockDataDir, DataDirInUseError } = await import(process.env.LOCK_MODULE);
let release;
console.log('ready');
for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'release') {
    release?.();
    console.log('released');
    continue;
  }
  while (Date.now() < Number(line));
  try {
    release = lockDataDir(process.env.LOCK_DIR);
    console.log('locked');
  } catch (error) {
    console.log(error instanceof DataDirInUseError ? 'in use: ' + error.message : 'failed: ' + error);
  }
}
`;

let dataDir: string;
let lockPath: string;
const children: ChildProcess[] = [];

beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'data-dir-lock-'));
  lockPath = path.join(dataDir, 'pglite.lock');
});

afterEach(async () => {
  await Promise.all(children.splice(0).map(stop));
  rmSync(dataDir, { recursive: true, force: true });
});

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill();
  await exited;
}

function spawnSleep(): ChildProcess {
  const child = spawn('sleep', ['30'], { stdio: 'ignore' });
  children.push(child);
  return child;
}

/** The identity of a process that has exited, as a server that crashed would leave it. */
async function identityOfDeadProcess() {
  const child = spawnSleep();
  const identity = identityOf(child.pid!) ?? { pid: child.pid! };
  await stop(child);
  return identity;
}

async function spawnLocker() {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', LOCKER], {
    cwd: projectRoot,
    env: { ...process.env, LOCK_MODULE: lockModule, LOCK_DIR: dataDir },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  children.push(child);
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const ask = async (line: string) => {
    child.stdin!.write(`${line}\n`);
    return String((await lines.next()).value);
  };
  expect(String((await lines.next()).value)).toBe('ready');
  return {
    pid: child.pid!,
    lock: (startAt = Date.now()) => ask(String(startAt)),
    release: () => ask('release'),
  };
}

function writeLock(content: unknown): void {
  writeFileSync(lockPath, typeof content === 'string' ? content : JSON.stringify(content));
}

function lockContent(): unknown {
  return JSON.parse(readFileSync(lockPath, 'utf8'));
}

function expectLockOfThisProcess(): void {
  expect(lockContent()).toEqual(identityOf(process.pid) ?? { pid: process.pid });
}

describe('lockDataDir', () => {
  it.skipIf(!hasProc).each([
    ['start time', { startTime: '1' }],
    ['boot id, as before a reboot', { bootId: '00000000-0000-0000-0000-000000000000' }],
  ])('takes over a lock whose PID now belongs to an unrelated process with another %s', (_, difference) => {
    const unrelated = spawnSleep();
    writeLock({ ...identityOf(unrelated.pid!), ...difference });

    const release = lockDataDir(dataDir);

    expectLockOfThisProcess();
    release();
  });

  it('refuses a lock held by a live server, and names it', async () => {
    const server = await spawnLocker();
    expect(await server.lock()).toBe('locked');

    expect(() => lockDataDir(dataDir)).toThrow(DataDirInUseError);
    expect(() => lockDataDir(dataDir)).toThrow(
      `The embedded database in ${path.resolve(dataDir)} is in use by process ${server.pid}. ` +
        'Stop that server, or give this one another DATA_DIR, or use PostgreSQL through DATABASE_URL to run several servers.',
    );
    expect(lockContent()).toMatchObject({ pid: server.pid });
  });

  it.skipIf(!hasProc)('refuses a lock that names a live process by its start time and boot id', () => {
    const holder = spawnSleep();
    writeLock(identityOf(holder.pid!));

    expect(() => lockDataDir(dataDir)).toThrow(`is in use by process ${holder.pid}.`);
  });

  it.skipIf(!hasProc)('refuses a second lock in the same process', () => {
    const release = lockDataDir(dataDir);
    expect(() => lockDataDir(dataDir)).toThrow(`is in use by process ${process.pid}.`);
    release();
  });

  it('refuses a lock of an earlier version, the PID alone, of a live process, and says how to clear it if that is not a server', () => {
    const holder = spawnSleep();
    writeLock(String(holder.pid));

    expect(() => lockDataDir(dataDir)).toThrow(
      `is in use by process ${holder.pid}. Stop that server, or give this one another DATA_DIR, or use PostgreSQL through DATABASE_URL to run several servers. ` +
        `If process ${holder.pid} is not a shop server, delete ${path.resolve(lockPath)}.`,
    );
    expect(readFileSync(lockPath, 'utf8')).toBe(String(holder.pid));
  });

  it.each([
    ['with its identity', (identity: { pid: number }) => identity],
    ['of an earlier version, the PID alone', (identity: { pid: number }) => String(identity.pid)],
  ])('takes over a lock of a process that is gone, %s', async (_, format) => {
    writeLock(format(await identityOfDeadProcess()));

    const release = lockDataDir(dataDir);

    expectLockOfThisProcess();
    release();
  });

  it('takes over a lock file left empty long enough ago that its writer must have died', () => {
    writeLock('');
    const longAgo = new Date(Date.now() - 60_000);
    utimesSync(lockPath, longAgo, longAgo);

    const release = lockDataDir(dataDir);

    expectLockOfThisProcess();
    release();
  });

  it('takes over a stale lock past a takeover guard left by a server that died inside it', async () => {
    writeLock(await identityOfDeadProcess());
    const guardPath = `${lockPath}.takeover`;
    writeFileSync(guardPath, '1');
    const longAgo = new Date(Date.now() - 60_000);
    utimesSync(guardPath, longAgo, longAgo);

    const release = lockDataDir(dataDir);

    expectLockOfThisProcess();
    expect(existsSync(guardPath)).toBe(false);
    release();
  });

  it('lets exactly one of several servers starting at once take over a stale lock', async () => {
    const stale = await identityOfDeadProcess();
    const servers = await Promise.all([1, 2, 3, 4].map(() => spawnLocker()));
    // A lost race shows only now and then, so it is run several times.
    for (let round = 0; round < 10; round++) {
      writeLock(stale);
      const startAt = Date.now() + 50;
      const outcomes = await Promise.all(servers.map((server) => server.lock(startAt)));

      expect(outcomes.filter((outcome) => outcome === 'locked')).toHaveLength(1);
      const winner = servers[outcomes.indexOf('locked')]!;
      for (const outcome of outcomes.filter((outcome) => outcome !== 'locked')) {
        expect(outcome).toMatch(new RegExp(`^in use: .* is in use by process ${winner.pid}\\. `));
      }
      expect(lockContent()).toMatchObject({ pid: winner.pid });
      expect(await winner.release()).toBe('released');
    }
  });

  it('removes its lock file on release, and leaves one that is no longer its own', async () => {
    lockDataDir(dataDir)();
    expect(existsSync(lockPath)).toBe(false);

    const release = lockDataDir(dataDir);
    // Removed by hand while this server ran, and taken by another one since.
    rmSync(lockPath);
    const other = await spawnLocker();
    expect(await other.lock()).toBe('locked');
    const othersLock = readFileSync(lockPath, 'utf8');

    release();

    expect(readFileSync(lockPath, 'utf8')).toBe(othersLock);
  });
});

describe('startTimeFromStat', () => {
  const rest = 'S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 4242 20 21';
  it.each([
    ['a plain command', `123 (node) ${rest}`, '4242'],
    ['a command with spaces and parentheses', `123 (a) b (c) d) ${rest}`, '4242'],
    ['a command that looks like fields', `123 (S 1 2 3) ${rest}`, '4242'],
    ['no command at all', '123 node S 1 2', undefined],
    ['too few fields', '123 (node) S 1 2', undefined],
  ])('reads field 22 after %s', (_, stat, startTime) => {
    expect(startTimeFromStat(stat)).toBe(startTime);
  });
});
