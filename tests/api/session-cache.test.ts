import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { eq, type Logger } from 'drizzle-orm';
import pg from 'pg';
import { expect, it } from 'vitest';
import { addAdmin, removeAdmin } from '#server/auth/roles.js';
import { hashSecret } from '#server/auth/session.js';
import { SESSION_CACHE_SECONDS } from '#server/auth/session-cache.js';
import { admins, products, sessions } from '#server/db/schema.js';
import { projectPath } from '#server/project-path.js';
import { openEventStream } from '../support/event-stream.js';
import { operationKey } from './shopper.js';
import { signIn } from './sign-in.js';
import { createTestApp, describeEachDatabase, type TestApp } from './test-app.js';
import { testProduct } from './test-products.js';

/** Every notice below must take effect well within the cache's time limit. */
const CACHE_TTL_MS = SESSION_CACHE_SECONDS * 1000;
/** How long a notice may take to reach another process here: a small part of the time limit. */
const NOTICE_DEADLINE_MS = 3000;

/**
 * Records the SQL of every statement the app's database runs from now on, through Drizzle's logger
 * (openDatabase sets none), in transactions too; returns the list and a function that stops recording.
 */
function recordQueries(testApp: TestApp): { statements: string[]; stop(): void } {
  const session = (testApp.database.db as unknown as { session: { logger: Logger; options: { logger?: Logger } } }).session;
  const statements: string[] = [];
  const previous = { logger: session.logger, optionsLogger: session.options.logger };
  const recorder: Logger = { logQuery: (query) => statements.push(query) };
  session.logger = recorder;
  session.options.logger = recorder;
  return {
    statements,
    stop() {
      session.logger = previous.logger;
      session.options.logger = previous.optionsLogger;
    },
  };
}

const readsSessionOrRole = (statement: string) => /"sessions"|"admins"/.test(statement);

const cart = (testApp: TestApp, cookie: string) => testApp.app.inject({ method: 'GET', url: '/api/cart', headers: { cookie } });
const adminOrders = (testApp: TestApp, cookie: string) => testApp.app.inject({ method: 'GET', url: '/api/admin/orders', headers: { cookie } });

/** Asks until the answer has the status, no longer than the deadline; returns how long that took. */
async function statusWithin(ask: () => Promise<{ statusCode: number }>, status: number, deadlineMs = NOTICE_DEADLINE_MS): Promise<number> {
  const started = Date.now();
  for (;;) {
    const { statusCode } = await ask();
    if (statusCode === status) return Date.now() - started;
    if (Date.now() - started > deadlineMs) throw new Error(`Still ${statusCode}, not ${status}, after ${deadlineMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Answers the request once from the database, then checks that the next one is answered from the cache. */
async function cacheSession(testApp: TestApp, ask: () => Promise<{ statusCode: number }>, status = 200): Promise<void> {
  expect((await ask()).statusCode).toBe(status);
  const recording = recordQueries(testApp);
  try {
    expect((await ask()).statusCode).toBe(status);
  } finally {
    recording.stop();
  }
  expect(recording.statements.filter(readsSessionOrRole)).toEqual([]);
}

describeEachDatabase('the session cache', (context) => {
  it('answers a signed-in customer’s second request without a session or an admin query, and a cart add with the cart’s queries alone', async () => {
    const testApp = context();
    const cookie = await signIn(testApp, 'quick@example.com');
    const [product] = await testApp.database.db.insert(products).values(testProduct({ name: 'Cached Charm', priceMinor: 900 })).returning();
    expect((await cart(testApp, cookie)).statusCode).toBe(200);

    const recording = recordQueries(testApp);
    try {
      const added = await testApp.app.inject({
        method: 'POST',
        url: '/api/cart/operations',
        headers: { cookie },
        payload: { operations: [{ id: operationKey(), type: 'add', productId: product!.id }] },
      });
      expect(added.statusCode, added.body).toBe(200);
    } finally {
      recording.stop();
    }
    expect(recording.statements.length).toBeGreaterThan(0);
    expect(recording.statements.filter(readsSessionOrRole)).toEqual([]);
  });

  it('refuses a signed-out session at once, and every session of a deleted account', async () => {
    const testApp = context();
    const laptop = await signIn(testApp, 'leaving@example.com');
    const phone = await signIn(testApp, 'leaving@example.com');
    const staying = await signIn(testApp, 'staying@example.com');
    for (const cookie of [laptop, phone, staying]) await cacheSession(testApp, () => cart(testApp, cookie));

    expect((await testApp.app.inject({ method: 'DELETE', url: '/api/auth/session', headers: { cookie: laptop } })).statusCode).toBe(204);
    expect((await cart(testApp, laptop)).statusCode).toBe(401);
    expect((await cart(testApp, phone)).statusCode).toBe(200);

    const deleted = await testApp.app.inject({ method: 'DELETE', url: '/api/account', headers: { cookie: phone }, payload: { email: 'leaving@example.com' } });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect((await cart(testApp, phone)).statusCode).toBe(401);
    expect((await cart(testApp, staying)).statusCode).toBe(200);
  });

  it('takes a removed admin’s access away as soon as the removal is announced, and gives it to a new one', async () => {
    const testApp = context();
    await testApp.database.db.insert(admins).values({ id: 'removed@example.com', email: 'removed@example.com' });
    const admin = await signIn(testApp, 'removed@example.com');
    const customer = await signIn(testApp, 'promoted@example.com');
    await cacheSession(testApp, () => adminOrders(testApp, admin));
    await cacheSession(testApp, () => adminOrders(testApp, customer), 403);

    expect(await removeAdmin(testApp.database.db, 'removed@example.com')).toBe(true);
    expect(await statusWithin(() => adminOrders(testApp, admin), 403)).toBeLessThan(CACHE_TTL_MS);
    // Still a signed-in customer.
    expect((await cart(testApp, admin)).statusCode).toBe(200);

    expect(await addAdmin(testApp.database.db, 'promoted@example.com')).toBe(true);
    expect(await statusWithin(() => adminOrders(testApp, customer), 200)).toBeLessThan(CACHE_TTL_MS);
  });
});

describeEachDatabase('the session cache on two server processes', (context) => {
  /** A second server process of the same shop; PGlite serves one process, so only PostgreSQL has one. */
  async function withOtherProcess(test: { skip(): void }, work: (other: TestApp) => Promise<void>): Promise<void> {
    const testApp = context();
    if (testApp.database.kind !== 'postgres') return test.skip();
    const other = await createTestApp('postgres', {}, { databaseUrl: testApp.databaseUrl });
    try {
      await work(other);
    } finally {
      await other.close();
    }
  }

  it('refuses here, within moments, a session signed out on the other process', async (test) => {
    await withOtherProcess(test, async (other) => {
      const testApp = context();
      const cookie = await signIn(testApp, 'roaming@example.com');
      const staying = await signIn(testApp, 'roaming@example.com');
      await cacheSession(testApp, () => cart(testApp, cookie));
      await cacheSession(testApp, () => cart(testApp, staying));

      expect((await other.app.inject({ method: 'DELETE', url: '/api/auth/session', headers: { cookie } })).statusCode).toBe(204);
      expect(await statusWithin(() => cart(testApp, cookie), 401)).toBeLessThan(NOTICE_DEADLINE_MS);
      expect((await cart(testApp, staying)).statusCode).toBe(200);
    });
  });

  it('refuses here every session of an account deleted on the other process', async (test) => {
    await withOtherProcess(test, async (other) => {
      const testApp = context();
      const laptop = await signIn(testApp, 'gone@example.com');
      const phone = await signIn(testApp, 'gone@example.com');
      await cacheSession(testApp, () => cart(testApp, laptop));
      await cacheSession(testApp, () => cart(testApp, phone));

      const deleted = await other.app.inject({ method: 'DELETE', url: '/api/account', headers: { cookie: laptop }, payload: { email: 'gone@example.com' } });
      expect(deleted.statusCode, deleted.body).toBe(204);
      expect(await statusWithin(() => cart(testApp, phone), 401)).toBeLessThan(NOTICE_DEADLINE_MS);
      expect((await cart(testApp, laptop)).statusCode).toBe(401);
    });
  });

  it('forgets every session when the connection that hears notices was lost, since what was announced meanwhile is unknown', async (test) => {
    const testApp = context();
    if (testApp.database.kind !== 'postgres') return test.skip();
    const address = await testApp.app.listen({ port: 0, host: '127.0.0.1' });
    const cookie = await signIn(testApp, 'outage@example.com');
    await cacheSession(testApp, () => cart(testApp, cookie));
    // The row goes without a notice, as one would while nobody listened.
    await testApp.database.db.delete(sessions).where(eq(sessions.idHash, hashSecret(cookie.slice(cookie.indexOf('=') + 1))));
    expect((await cart(testApp, cookie)).statusCode).toBe(200);

    // The hub tells open pages to resync once it listens again, which is when the cache is cleared.
    const visitor = await openEventStream(`${address}/api/events`, null);
    try {
      await visitor.waitFor('ready');
      const client = new pg.Client({ connectionString: testApp.databaseUrl });
      await client.connect();
      try {
        const { rowCount } = await client.query(
          `select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and query = 'LISTEN shop_events'`,
        );
        expect(rowCount).toBeGreaterThan(0);
      } finally {
        await client.end();
      }
      await visitor.waitFor('resync', 15_000);
      expect((await cart(testApp, cookie)).statusCode).toBe(401);
    } finally {
      visitor.close();
    }
  });

  it('takes admin access away here, within moments, when the admin command removes the admin', async (test) => {
    const testApp = context();
    if (testApp.database.kind !== 'postgres') return test.skip();
    await testApp.database.db.insert(admins).values({ id: 'former@example.com', email: 'former@example.com' });
    const admin = await signIn(testApp, 'former@example.com');
    await cacheSession(testApp, () => adminOrders(testApp, admin));

    // The command a shop owner runs, as its own process on the same database.
    const { stderr } = await promisify(execFile)(projectPath('node_modules', '.bin', 'tsx'), [projectPath('src', 'server', 'admin-cli.ts'), 'remove', 'former@example.com'], {
      env: { ...process.env, DATABASE_URL: testApp.databaseUrl, DATA_DIR: testApp.dataDir },
    });
    expect(stderr).toContain('former@example.com is no longer an admin.');
    expect(await statusWithin(() => adminOrders(testApp, admin), 403)).toBeLessThan(NOTICE_DEADLINE_MS);
  });
});
