// Serves the production build on a fresh database for the end-to-end tests: a new database on
// TEST_DATABASE_URL's PostgreSQL server when that is set (CI), else a new embedded one. A test that
// names its own DATA_DIR (to import into it, or to start a shop again on it) or DATABASE_URL keeps it.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { dropLeftoverDatabases } from '../support/leftover-databases.mjs';

const port = process.env.PORT ?? '4180';
process.env.NODE_ENV = 'production';
process.env.HOST = '127.0.0.1';
process.env.PUBLIC_URL = `http://127.0.0.1:${port}`;
process.env.LOG_LEVEL ??= 'warn';
// On PostgreSQL the browser suite's shops used two fifths of the CPU they used on the embedded
// database, which runs its queries in the server's own process; the embedded database is tested on
// every path by the API tests, and here by the tests that bring their own DATA_DIR.
if (process.env.TEST_DATABASE_URL && !process.env.DATA_DIR && !process.env.DATABASE_URL) {
  process.env.DATABASE_URL = await newPostgresDatabase(process.env.TEST_DATABASE_URL);
}
process.env.DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'shop-e2e-'));

if (process.env.E2E_CLIENT_DIR) {
  // A copy of the built app that a test changes as a new deployment would (offline.spec.ts).
  const { startServer } = await import('../../dist/node/server/start-server.js');
  await startServer(async () => (await import('../../dist/node/server/pages.js')).builtPages(process.env.E2E_CLIENT_DIR));
} else {
  await import('../../dist/node/server/main.js');
}

/**
 * Makes an empty database on the server and returns its address. It is named as the API tests name
 * theirs, after this process, so that a later run drops it once the process is gone, as this one
 * drops those of earlier runs.
 */
async function newPostgresDatabase(serverUrl) {
  await dropLeftoverDatabases(serverUrl);
  const name = `shop_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
