import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { inject } from 'vitest';
import { projectPath } from '#server/project-path.js';
import { freePort } from './free-port.js';
import { serverModule, serverNodeArguments } from './server-code.js';

/**
 * Gives a new embedded database folder the run's migrated empty database (database-templates.ts), as
 * the server itself does from the one `npm run build` saves (db/client.ts). Without it each process
 * ran PGlite's initdb and every migration itself: tens of seconds of CPU that, on a busy machine, went
 * past the start's deadline. A folder that holds a database already is left alone.
 */
export async function seedDataDir(dataDir: string, snapshotFolder: string = inject('pgliteSnapshotFolder')): Promise<void> {
  const databaseDir = path.join(dataDir, 'db');
  if (existsSync(databaseDir)) return;
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  cpSync(snapshotFolder, databaseDir, { recursive: true, preserveTimestamps: true });
}

// A real server process (compiled or from the sources: server-code.ts), serving the single-page app from TEST_CLIENT_DIR.
const SERVER = `
const { startServer } = await import(process.env.START_MODULE);
await startServer(async () => (await import(process.env.PAGES_MODULE)).builtPages(process.env.TEST_CLIENT_DIR));
`;

export interface ServerProcess {
  /** Where this process listens, for requests that must reach it and no other. */
  url: string;
  child: ChildProcess;
  /** What the process has logged so far (its standard output; nothing unless LOG_LEVEL is set). */
  log(): string;
  /** Ends the process as an operator would (SIGTERM), or kills it when it does not end in time. */
  stop(): Promise<void>;
}

const exited = (child: ChildProcess) => new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

/**
 * Starts `startServer` in a new Node process (the build's or the sources', server-code.ts) with the
 * given environment on top of quiet test defaults, and resolves once it answers /api/health. A
 * process that exits while starting rejects at once, with its exit code. `beforeStart` is code run in
 * the process before the server starts (a test's way to make a fault happen there): it runs first
 * because the server answers /api/health before `startServer` resolves, so code run after it could
 * miss a signal the test sends as soon as the server answers.
 */
export async function startServerProcess(clientDir: string, environment: Record<string, string>, startTimeoutMs = 60_000, beforeStart = ''): Promise<ServerProcess> {
  if (environment.DATA_DIR && !environment.DATABASE_URL) await seedDataDir(environment.DATA_DIR);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...serverNodeArguments(), '--input-type=module', '-e', beforeStart + SERVER], {
    cwd: projectPath(),
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      SEED_DEMO: 'false',
      // As in the API tests' apps: a busy machine holds the event loop up, which is no overload to shed.
      MAX_EVENT_LOOP_DELAY_MS: '0',
      PORT: String(port),
      PUBLIC_URL: url,
      START_MODULE: serverModule('start-server.ts'),
      PAGES_MODULE: serverModule('pages.ts'),
      TEST_CLIENT_DIR: clientDir,
      ...environment,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let logged = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (logged += chunk));
  const log = () => logged;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited(child);
    clearTimeout(killer);
  };

  const deadline = Date.now() + startTimeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`The server process exited while starting (${child.exitCode ?? child.signalCode})`);
    const healthy = await fetch(`${url}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) return { url, child, log, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`The server process did not start within ${startTimeoutMs} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
