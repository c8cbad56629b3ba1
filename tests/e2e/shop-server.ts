import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from '../support/free-port.js';

export interface ShopServer {
  baseURL: string;
  stop(): Promise<void>;
}

/**
 * Starts another shop on the production build and a fresh database, for tests that need their own
 * settings. PORT and DATA_DIR in the environment start it again where an earlier one ran.
 */
export async function startShopServer(environment: Record<string, string>): Promise<ShopServer> {
  const port = environment.PORT ? Number(environment.PORT) : await freePort();
  const child: ChildProcess = spawn(process.execPath, ['tests/e2e/serve.mjs'], {
    env: { ...process.env, ...environment, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const baseURL = `http://127.0.0.1:${port}`;
  // A start on the embedded database compiles PostgreSQL's WebAssembly, slow on a loaded machine. A
  // server that did not start is stopped, so that nothing works on in a data folder the test removes.
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The shop server exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${baseURL}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('The shop server did not start within 120 s');
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    baseURL,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
