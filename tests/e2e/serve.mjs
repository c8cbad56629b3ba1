// Serves the production build on a fresh embedded database for the end-to-end tests.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const port = process.env.PORT ?? '4180';
process.env.NODE_ENV = 'production';
process.env.HOST = '127.0.0.1';
process.env.PUBLIC_URL = `http://127.0.0.1:${port}`;
process.env.DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'shop-e2e-'));
process.env.LOG_LEVEL ??= 'warn';

if (process.env.E2E_CLIENT_DIR) {
  // A copy of the built app that a test changes as a new deployment would (offline.spec.ts).
  const { startServer } = await import('../../dist/node/server/start-server.js');
  const { builtPages } = await import('../../dist/node/server/pages.js');
  await startServer(async () => builtPages(process.env.E2E_CLIENT_DIR));
} else {
  await import('../../dist/node/server/main.js');
}
