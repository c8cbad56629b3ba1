import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#server/db/client.js';
import { products } from '#server/db/schema.js';
import { dropListeners } from '../support/drop-listeners.js';
import { openEventStream, type EventStreamReader } from '../support/event-stream.js';
import { eventually } from './shopper.js';
import { signIn } from './sign-in.js';
import { createTestApp, databaseTargets, type TestApp } from './test-app.js';
import { testProduct } from './test-products.js';

const notify = (database: DatabaseHandle, channel: string, payload: string) => database.db.execute(sql`select pg_notify(${channel}, ${payload})`);

/** Rejects when the promise has not settled in time, so that a reconnection that never comes fails with a clear message. */
function within<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`Timed out waiting for ${what}`)), timeoutMs)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

// PGlite runs inside the server process: its LISTEN has no connection that could drop, so there is
// nothing to reconnect, and these tests need the PostgreSQL server that TEST_DATABASE_URL names.
describe.skipIf(!databaseTargets.includes('postgres'))('LISTEN on PostgreSQL when its connection drops', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await createTestApp('postgres');
  });
  afterAll(async () => {
    await testApp?.close();
  });

  it('listens again, runs onReconnect once, and hears the notifications sent after that', async () => {
    const { database, databaseUrl } = testApp;
    const heard: string[] = [];
    let reconnects = 0;
    let reconnected!: () => void;
    const reconnection = new Promise<void>((resolve) => (reconnected = resolve));
    const stop = await database.listen(
      'reconnect_probe',
      (payload) => heard.push(payload),
      () => {
        reconnects++;
        reconnected();
      },
    );
    try {
      await notify(database, 'reconnect_probe', 'before');
      await eventually(async () => heard.includes('before'), 5000, 'the first notification');

      expect(await dropListeners(databaseUrl!, 'reconnect_probe')).toBe(1);
      await within(reconnection, 10_000, 'onReconnect');
      await notify(database, 'reconnect_probe', 'after');
      await eventually(async () => heard.includes('after'), 5000, 'a notification after the reconnection');
      expect(heard).toEqual(['before', 'after']);
      expect(reconnects).toBe(1);
    } finally {
      await stop();
    }
  });

  it('tells every open page to fetch everything again, since changes may have been missed, and then passes changes on as before', async () => {
    const address = await testApp.app.listen({ port: 0, host: '127.0.0.1' });
    const [product] = await testApp.database.db.insert(products).values(testProduct({ name: 'Reconnect Roses', priceMinor: 1500 })).returning({ id: products.id });
    const cookie = await signIn(testApp, 'reconnect@example.com');
    const streams: EventStreamReader[] = [];
    try {
      const page = await openEventStream(`${address}/api/events`, cookie);
      const visitor = await openEventStream(`${address}/api/events`, null);
      streams.push(page, visitor);
      await page.waitFor('ready');
      await visitor.waitFor('ready');

      expect(await dropListeners(testApp.databaseUrl!)).toBeGreaterThanOrEqual(1);
      // The pause before the first new attempt is a second; the wait allows for a slow machine.
      await page.waitFor('resync', 10_000);
      await visitor.waitFor('resync', 10_000);
      expect([page.ended, visitor.ended]).toEqual([false, false]);

      const added = await testApp.app.inject({
        method: 'POST',
        url: '/api/cart/operations',
        headers: { cookie },
        payload: { operations: [{ id: randomUUID().replace(/-/g, ''), type: 'add', productId: product!.id }] },
      });
      expect(added.statusCode, added.body).toBe(200);
      await page.waitFor('cart', 5000);
      expect(page.events).toEqual(['ready', 'resync', 'cart']);
    } finally {
      for (const stream of streams) stream.close();
    }
  });
});
