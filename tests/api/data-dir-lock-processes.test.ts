import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectPath } from '#server/project-path.js';
import { TEST_INDEX_HTML, testsEmbeddedDatabase } from './test-app.js';
import { freePort } from '../support/free-port.js';
import { serverModule, serverNodeArguments } from '../support/server-code.js';

// Real server processes, as `npm start` runs them, on one DATA_DIR: src/server/db/data-dir-lock.test.ts
// tests the lock itself; this tests what an operator sees when a second server is started by mistake.

const SERVER = `
const { startServer } = await import(process.env.START_MODULE);
await startServer(async () => (await import(process.env.PAGES_MODULE)).builtPages(process.env.TEST_CLIENT_DIR));
`;

interface Server {
  child: ChildProcess;
  url: string;
  /** Everything the process wrote to stderr so far. */
  stderr(): string;
  exited: Promise<number | null>;
}

let dataDir: string;
let clientDir: string;
const servers: Server[] = [];

async function startServer(): Promise<Server> {
  const port = await freePort();
  const environment: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    START_MODULE: serverModule('start-server.ts'),
    PAGES_MODULE: serverModule('pages.ts'),
    TEST_CLIENT_DIR: clientDir,
  };
  // The embedded database is the point, whatever the test run was given.
  delete environment.DATABASE_URL;
  const child = spawn(process.execPath, [...serverNodeArguments(), '--input-type=module', '-e', SERVER], { cwd: projectPath(), env: environment, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  const server: Server = { child, url: `http://127.0.0.1:${port}`, stderr: () => stderr, exited };
  servers.push(server);
  return server;
}

/** Resolves once the server answers, or rejects with what it said if it exits first. */
async function untilServing(server: Server, timeoutMs = 60_000): Promise<void> {
  let exitCode: number | null | undefined;
  void server.exited.then((code) => (exitCode = code));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exitCode !== undefined) throw new Error(`The server exited with ${exitCode} while starting: ${server.stderr()}`);
    const healthy = await fetch(`${server.url}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) return;
    if (Date.now() > deadline) throw new Error(`The server did not answer within ${timeoutMs} ms: ${server.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A query that reaches the database, so that an answer shows the embedded database still serves. */
const catalogueAnswers = async (server: Server) => (await fetch(`${server.url}/api/products`)).status;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'shop-lock-'));
  clientDir = path.join(dataDir, 'client');
  await mkdir(clientDir);
  await writeFile(path.join(clientDir, 'index.html'), TEST_INDEX_HTML);
});

afterAll(async () => {
  for (const { child } of servers) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await Promise.all(servers.map((server) => server.exited));
  await rm(dataDir, { recursive: true, force: true });
});

describe.skipIf(!testsEmbeddedDatabase)('two server processes on one DATA_DIR', () => {
  it('stops the second with a message naming the first and exit code 1, while the first goes on serving', { timeout: 120_000 }, async () => {
    const first = await startServer();
    await untilServing(first);

    const second = await startServer();
    expect(await second.exited).toBe(1);
    expect(second.stderr().trim()).toBe(
      `The embedded database in ${path.resolve(dataDir)} is in use by process ${first.child.pid}. ` +
        'Stop that server, or give this one another DATA_DIR, or use PostgreSQL through DATABASE_URL to run several servers.',
    );

    expect(first.child.exitCode).toBeNull();
    expect(await catalogueAnswers(first)).toBe(200);
  });

  it('starts over the lock of a server that was killed, and serves from the same database', { timeout: 120_000 }, async () => {
    const killed = servers[0]!;
    const lockPath = path.join(dataDir, 'pglite.lock');
    killed.child.kill('SIGKILL');
    await killed.exited;
    // Killed outright, it could not remove its lock: the file still names it.
    expect(existsSync(lockPath)).toBe(true);
    expect(JSON.parse(await readFile(lockPath, 'utf8'))).toMatchObject({ pid: killed.child.pid });

    const next = await startServer();
    await untilServing(next);
    expect(await catalogueAnswers(next)).toBe(200);
    expect(JSON.parse(await readFile(lockPath, 'utf8'))).toMatchObject({ pid: next.child.pid });
  });
});
