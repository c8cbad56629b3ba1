import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, inject } from 'vitest';
import { buildApp, type AppParts } from '#server/app.js';
import { loadConfig, type Config } from '#server/config.js';
import { openDatabase, type DatabaseHandle } from '#server/db/client.js';
import { productImagesFor, type ProductImages } from '#server/images/product-images.js';
import { builtPages } from '#server/pages.js';

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  database: DatabaseHandle;
  images: ProductImages;
  dataDir: string;
  /** The PostgreSQL database the app runs on; undefined on PGlite. */
  databaseUrl?: string;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /**
   * Runs on this PostgreSQL database instead of a fresh one, as a second server process of the same
   * shop would; it is left in place on close, for the app that created it to drop.
   */
  databaseUrl?: string;
  /** How often event streams are kept alive and check their session. */
  liveHeartbeatMs?: number;
  /** The most visitors' event streams the app holds at once. */
  liveMaxVisitorStreams?: number;
  /** Files of the built app besides index.html, by path (the service worker, say). */
  clientFiles?: Record<string, string>;
  /** The wait before a failed e-mail is tried again. */
  mailRetryBaseMs?: number;
  /** Serves this open database (another app's, an embedded one included), left open on close. */
  database?: DatabaseHandle;
  /** How long the server waits for clients. */
  timeouts?: AppParts['timeouts'];
  /** How often the event loop's delay is measured for load shedding. */
  pressureSampleMs?: number;
  /** Lets the courier jobs run by themselves, as in a real server (tests otherwise run their rounds). */
  courierJobsRunning?: boolean;
  /** How long a catalogue state read stays current on PostgreSQL without a change notice (1 s in the shop). */
  catalogueMaxStalenessMs?: number;
}

type DatabaseTarget = 'pglite' | 'postgres';

/**
 * PGlite always; PostgreSQL too when TEST_DATABASE_URL names a server (CI sets it). TEST_DATABASE_TARGETS
 * narrows that to the targets it lists: CI's two Vitest passes each take one (scripts/test-unit.mjs).
 */
export const databaseTargets: DatabaseTarget[] = (() => {
  const available: DatabaseTarget[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
  const chosen = process.env.TEST_DATABASE_TARGETS?.split(',');
  return chosen ? available.filter((target) => chosen.includes(target)) : available;
})();

/**
 * The tests of the embedded database's own features (a server process on its DATA_DIR, backups,
 * restores, its lock and memory) and those of the log run where PGlite is a target: once in CI, in
 * the pass on PGlite, rather than on both Node versions.
 */
export const testsEmbeddedDatabase = databaseTargets.includes('pglite');

/** The development mailbox's key in tests; a real server makes a random one at every start. */
export const TEST_MAILBOX_KEY = 'test-mailbox-key-0123456789';

export const TEST_INDEX_HTML = '<!doctype html><html lang="en"><head><!--page-head--><!--shop-settings--></head><body><div id="root"></div></body></html>';

/**
 * A fresh PostgreSQL database on the test server, dropped again on close: empty, or a copy of the
 * named template database (tests/support/database-templates.ts makes a migrated one per run).
 */
export async function createPostgresDatabase(template?: string): Promise<{ url: string; drop(): Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL!;
  const name = `shop_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(template ? `create database ${name} template ${template}` : `create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

let pgliteSnapshot: Promise<Blob | undefined> | undefined;

/** The migrated PGlite data directory that the run's global setup saved, read once per test file; undefined without that setup. */
function migratedPgliteSnapshot(): Promise<Blob | undefined> {
  const file = inject('pgliteSnapshot');
  return (pgliteSnapshot ??= file ? readFile(file).then((content) => new Blob([content])) : Promise.resolve(undefined));
}

/** A new database of the kind, migrated: a copy of the run's template when there is one. */
export async function openMigratedDatabase(databaseUrl?: string): Promise<DatabaseHandle> {
  return openDatabase(databaseUrl ? { databaseUrl } : { inMemory: true, snapshot: await migratedPgliteSnapshot() });
}

export async function createTestApp(target: DatabaseTarget, environment: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'shop-test-'));
  const clientDir = path.join(dataDir, 'client');
  await mkdir(clientDir);
  await writeFile(path.join(clientDir, 'index.html'), TEST_INDEX_HTML);
  for (const [file, content] of Object.entries(options.clientFiles ?? {})) {
    await mkdir(path.dirname(path.join(clientDir, file)), { recursive: true });
    await writeFile(path.join(clientDir, file), content);
  }
  const postgres = target === 'postgres' && !options.databaseUrl ? await createPostgresDatabase(inject('postgresTemplate')) : undefined;
  const databaseUrl = target === 'postgres' ? (options.databaseUrl ?? postgres?.url) : undefined;
  // No load shedding unless a test asks for it (off is also the shop's default): PGlite and the test
  // itself share this process's event loop, which a busy machine can hold up past any threshold.
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, PUBLIC_URL: 'http://shop.test', MAX_EVENT_LOOP_DELAY_MS: '0', ...environment });
  const database = options.database ?? (await openMigratedDatabase(databaseUrl));
  const images = productImagesFor(database, dataDir);
  const app = await buildApp({ config, database, images, pages: builtPages(clientDir), devMailboxKey: TEST_MAILBOX_KEY, liveHeartbeatMs: options.liveHeartbeatMs, liveMaxVisitorStreams: options.liveMaxVisitorStreams, mailRetryBaseMs: options.mailRetryBaseMs, timeouts: options.timeouts, pressureSampleMs: options.pressureSampleMs, courierJobsRunning: options.courierJobsRunning ?? false, catalogueMaxStalenessMs: options.catalogueMaxStalenessMs });
  await app.ready();
  return {
    app,
    config,
    database,
    images,
    dataDir,
    databaseUrl,
    async close() {
      await app.close();
      if (!options.database) await database.close();
      await postgres?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs a suite once per database target, each on a fresh database and app. */
export function describeEachDatabase(
  title: string,
  suite: (context: () => TestApp) => void,
  environment: Record<string, string> = {},
  options: TestAppOptions = {},
): void {
  for (const target of databaseTargets) {
    describe(`${title} [${target}]`, () => {
      let testApp: TestApp | undefined;
      beforeAll(async () => {
        testApp = await createTestApp(target, environment, options);
      });
      afterAll(async () => {
        await testApp?.close();
      });
      suite(() => {
        if (!testApp) throw new Error('The test app failed to start');
        return testApp;
      });
    });
  }
}
