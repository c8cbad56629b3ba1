import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAdmin } from '#server/auth/roles.js';
import { mailQueue, orders, products } from '#server/db/schema.js';
import { openEventStream } from '../support/event-stream.js';
import { startSmtpInbox, type SmtpInbox } from '../support/smtp-inbox.js';
import { eventually, fillCart, operationKey, placeOrder, signInThroughInbox } from './shopper.js';
import { requestLink, signIn } from './sign-in.js';
import { createTestApp, databaseTargets, describeEachDatabase, type TestApp } from './test-app.js';
import { testProduct } from './test-products.js';

const TOKEN = 'metrics-token-0123456789-abcdefghij';

/** The value of one series in Prometheus text (0 when absent, as for a counter not yet moved). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  return find(text, name, labels) ?? 0;
}

/** The value of one series, or undefined when the text has no such series. */
function find(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, key, value]) => [key!, value!]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return undefined;
}

async function scrape(testApp: TestApp, headers: Record<string, string> = {}): Promise<string> {
  const response = await testApp.app.inject({ method: 'GET', url: '/metrics', headers });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.body;
}

const mailDepth = async (testApp: TestApp) => {
  const text = await scrape(testApp);
  return { queued: sample(text, 'shop_mail_queue_messages', { state: 'queued' }), retrying: sample(text, 'shop_mail_queue_messages', { state: 'retrying' }), sending: sample(text, 'shop_mail_queue_messages', { state: 'sending' }) };
};

describeEachDatabase(
  'metrics without a token',
  (context) => {
    let ring: string;
    let address: string;
    beforeAll(async () => {
      const testApp = context();
      [{ id: ring }] = (await testApp.database.db.insert(products).values(testProduct({ name: 'Metric Ring', priceMinor: 1250 })).returning({ id: products.id })) as [{ id: string }];
      address = await testApp.app.listen({ port: 0, host: '127.0.0.1' });
    });

    it('answers only requests from this host, whatever a proxy or TRUST_PROXY says', async () => {
      const { app } = context();
      const from = (remoteAddress: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers });
      for (const loopback of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '127.0.0.2']) expect((await from(loopback)).statusCode, loopback).toBe(200);
      expect((await from('127.0.0.1', { 'x-forwarded-for': '127.0.0.1' })).statusCode).toBe(200);

      const unknownPath = await app.inject({ method: 'GET', url: '/metrics-nowhere', remoteAddress: '10.0.0.5' });
      for (const [remoteAddress, headers] of [
        ['10.0.0.5', {}],
        ['192.168.1.20', {}],
        // A proxy on this host passing on a client from elsewhere, a forged header being appended to.
        ['127.0.0.1', { 'x-forwarded-for': '203.0.113.9' }],
        ['127.0.0.1', { 'x-forwarded-for': '127.0.0.1, 203.0.113.9' }],
        ['127.0.0.1', { 'x-real-ip': '203.0.113.9' }],
        ['127.0.0.1', { forwarded: 'for=127.0.0.1' }],
        // TRUST_PROXY takes the client's address from the header, but the connection still comes from elsewhere.
        ['10.0.0.5', { 'x-forwarded-for': '127.0.0.1' }],
      ] as const) {
        const refused = await from(remoteAddress, headers);
        expect(refused.statusCode, `${remoteAddress} ${JSON.stringify(headers)}`).toBe(404);
        // Refused just as a path that does not exist, so that nothing says a metrics page is there.
        expect(refused.headers['content-type']).toBe(unknownPath.headers['content-type']);
        expect(refused.body).not.toContain('http_requests_total');
      }
    });

    it('counts a placed order and its payment exactly, under the route’s pattern and never its id', async () => {
      const testApp = context();
      const cookie = await signIn(testApp, 'metrics-buyer@example.com');
      await fillCart(testApp, cookie, [ring]);
      const before = await scrape(testApp);

      const idempotencyKey = operationKey();
      const order = await placeOrder(testApp, cookie, { paymentMethod: 'card', idempotencyKey });
      // The same checkout again answers with the same order (200), which is no new order.
      const repeated = await testApp.app.inject({ method: 'POST', url: '/api/orders', headers: { cookie }, payload: { idempotencyKey, acceptTerms: true, expectedTotalMinor: order.pricing.total, paymentMethod: 'card' } });
      expect(repeated.statusCode, repeated.body).toBe(200);
      const paid = await testApp.app.inject({ method: 'POST', url: `/api/orders/${order.orderId}/payment`, headers: { cookie }, payload: { method: 'card', cardLast4: '4242' } });
      expect(paid.statusCode, paid.body).toBe(200);
      const again = await testApp.app.inject({ method: 'POST', url: `/api/orders/${order.orderId}/payment`, headers: { cookie }, payload: { method: 'card', cardLast4: '4242' } });
      expect(again.statusCode).toBe(409);
      const unmatchedPath = `/api/no-such-thing/${randomUUID()}`;
      expect((await testApp.app.inject({ method: 'GET', url: unmatchedPath })).statusCode).toBe(404);
      const after = await scrape(testApp);

      const moved = (name: string, labels: Record<string, string>) => sample(after, name, labels) - sample(before, name, labels);
      expect(moved('shop_orders_placed_total', { payment_method: 'card' })).toBe(1);
      expect(moved('shop_orders_placed_total', { payment_method: 'pay_by_link' })).toBe(0);
      expect(moved('shop_payments_total', { method: 'card', outcome: 'succeeded' })).toBe(1);
      expect(moved('shop_payments_total', { method: 'card', outcome: 'refused' })).toBe(1);
      expect(moved('http_requests_total', { method: 'POST', route: '/api/orders', status: '201' })).toBe(1);
      expect(moved('http_requests_total', { method: 'POST', route: '/api/orders', status: '200' })).toBe(1);
      expect(moved('http_requests_total', { method: 'POST', route: '/api/orders/:orderId/payment', status: '200' })).toBe(1);
      expect(moved('http_requests_total', { method: 'POST', route: '/api/orders/:orderId/payment', status: '409' })).toBe(1);
      expect(moved('http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
      expect(moved('http_request_duration_seconds_count', { method: 'POST', route: '/api/orders/:orderId/payment' })).toBe(2);
      expect(moved('http_request_duration_seconds_bucket', { method: 'POST', route: '/api/orders', le: '+Inf' })).toBe(2);
      expect(after).not.toContain(order.orderId);
      expect(after).not.toContain(unmatchedPath);
    });

    it('counts the cash an admin records for a cash-on-delivery order', async () => {
      const testApp = context();
      await addAdmin(testApp.database.db, 'metrics-owner@example.com');
      const admin = await signIn(testApp, 'metrics-owner@example.com');
      const cookie = await signIn(testApp, 'metrics-cash@example.com');
      await fillCart(testApp, cookie, [ring]);
      const order = await placeOrder(testApp, cookie, { paymentMethod: 'cash_on_delivery' });
      const before = await scrape(testApp);
      // A customer may not record cash: no payment was asked for, so none is counted.
      expect((await testApp.app.inject({ method: 'POST', url: `/api/admin/orders/${order.orderId}/cash-payment`, headers: { cookie } })).statusCode).toBe(403);
      const recorded = await testApp.app.inject({ method: 'POST', url: `/api/admin/orders/${order.orderId}/cash-payment`, headers: { cookie: admin } });
      expect(recorded.statusCode, recorded.body).toBe(200);
      const after = await scrape(testApp);
      const moved = (outcome: string) => sample(after, 'shop_payments_total', { method: 'cash_on_delivery', outcome }) - sample(before, 'shop_payments_total', { method: 'cash_on_delivery', outcome });
      expect([moved('succeeded'), moved('refused'), moved('failed')]).toEqual([1, 0, 0]);
      expect(sample(after, 'http_requests_total', { method: 'POST', route: '/api/admin/orders/:orderId/cash-payment', status: '403' })).toBe(1);
      expect(sample(after, 'shop_orders_placed_total', { payment_method: 'cash_on_delivery' })).toBeGreaterThanOrEqual(1);
    });

    it('counts a payment refused for its body under the method it names, and no request without a session', async () => {
      const testApp = context();
      const cookie = await signIn(testApp, 'metrics-refused@example.com');
      await fillCart(testApp, cookie, [ring]);
      const order = await placeOrder(testApp, cookie, { paymentMethod: 'card' });
      const pay = (headers: Record<string, string>, payload: string | object, orderId = order.orderId) =>
        testApp.app.inject({ method: 'POST', url: `/api/orders/${orderId}/payment`, headers, payload });
      const before = await scrape(testApp);

      expect((await pay({ cookie }, { method: 'card', cardLast4: '42' })).statusCode).toBe(400);
      expect((await pay({ cookie }, { method: 'bitcoin' })).statusCode).toBe(400);
      expect((await pay({ cookie }, {})).statusCode).toBe(400);
      expect((await pay({ cookie }, { method: 'card', cardLast4: '4242' }, 'NA-NOSUCHORDER')).statusCode).toBe(404);
      // Without a session no payment was asked for, whatever the body holds or however broken it is.
      expect((await pay({}, { method: 'card', cardLast4: '4242' })).statusCode).toBe(401);
      expect((await pay({ 'content-type': 'application/json' }, '{"method": "card"')).statusCode).toBe(400);
      const after = await scrape(testApp);

      const moved = (method: string, outcome: string) => sample(after, 'shop_payments_total', { method, outcome }) - sample(before, 'shop_payments_total', { method, outcome });
      expect({ card: moved('card', 'refused'), unknown: moved('unknown', 'refused') }).toEqual({ card: 2, unknown: 2 });
      expect([moved('card', 'succeeded'), moved('card', 'failed'), moved('unknown', 'succeeded'), moved('unknown', 'failed')]).toEqual([0, 0, 0, 0]);
    });

    it('leaves out a pay-by-link order that the simulated provider completes by itself', async () => {
      const testApp = context();
      const cookie = await signIn(testApp, 'metrics-link@example.com');
      await fillCart(testApp, cookie, [ring]);
      const order = await placeOrder(testApp, cookie, { paymentMethod: 'pay_by_link' });
      // Placed long enough ago that the payment page's next look completes it.
      await testApp.database.db.update(orders).set({ createdAt: new Date(Date.now() - 10 * 60 * 1000) }).where(eq(orders.id, order.orderId));
      const before = await scrape(testApp);
      const polled = await testApp.app.inject({ method: 'GET', url: `/api/orders/${order.orderId}`, headers: { cookie } });
      expect(polled.json<{ order: { status: string } }>().order.status).toBe('paid');
      const after = await scrape(testApp);
      expect(sample(after, 'shop_payments_total', { method: 'pay_by_link', outcome: 'succeeded' })).toBe(sample(before, 'shop_payments_total', { method: 'pay_by_link', outcome: 'succeeded' }));
      expect(sample(after, 'shop_orders_placed_total', { payment_method: 'pay_by_link' })).toBeGreaterThanOrEqual(1);
    });

    it('reports the e-mails still to send, from the database that every process shares', async () => {
      const testApp = context();
      const { db } = testApp.database;
      // The order e-mails of the tests before are sent by now or soon; none of those below is due.
      await eventually(async () => Object.values(await mailDepth(testApp)).every((count) => count === 0), 10_000, 'an empty mail queue');
      const [order] = (await db.select({ id: orders.id }).from(orders).limit(1)) as [{ id: string }];
      const later = new Date(Date.now() + 60 * 60 * 1000);
      const mail = { orderId: order.id, kind: 'order_confirmation', recipient: 'queued@example.com', language: 'en', nextAttemptAt: later };
      const rows = await db
        .insert(mailQueue)
        .values([mail, mail, { ...mail, attempts: 1, lastError: '421 Try again later' }, { ...mail, state: 'sending', attempts: 1, claimedUntil: later }])
        .returning({ id: mailQueue.id });
      expect(await mailDepth(testApp)).toEqual({ queued: 2, retrying: 1, sending: 1 });
      const failedBefore = sample(await scrape(testApp), 'shop_mail_failed_messages');

      await db.update(mailQueue).set({ state: 'sent' }).where(eq(mailQueue.id, rows[0]!.id));
      await db.update(mailQueue).set({ state: 'failed' }).where(eq(mailQueue.id, rows[2]!.id));
      expect(await mailDepth(testApp)).toEqual({ queued: 1, retrying: 0, sending: 1 });
      expect(sample(await scrape(testApp), 'shop_mail_failed_messages')).toBe(failedBefore + 1);
      await db.update(mailQueue).set({ state: 'superseded' }).where(sql`${mailQueue.recipient} = 'queued@example.com' and ${mailQueue.state} in ('queued', 'sending')`);
    });

    it('counts the event streams open while they are open', async () => {
      const testApp = context();
      const streams = async () => {
        const text = await scrape(testApp);
        return { visitor: sample(text, 'shop_event_streams_open', { kind: 'visitor' }), signedIn: sample(text, 'shop_event_streams_open', { kind: 'signed_in' }), ended: sample(text, 'http_requests_total', { method: 'GET', route: '/api/events', status: '200' }) };
      };
      const before = await streams();
      expect(before).toMatchObject({ visitor: 0, signedIn: 0 });
      const cookie = await signIn(testApp, 'metrics-streams@example.com');
      const visitor = await openEventStream(`${address}/api/events`, null);
      const customer = await openEventStream(`${address}/api/events`, cookie);
      try {
        await Promise.all([visitor.waitFor('ready'), customer.waitFor('ready')]);
        expect(await streams()).toEqual({ visitor: 1, signedIn: 1, ended: before.ended });

        // Signing out ends the customer's stream from the server's side, which completes its request.
        expect((await testApp.app.inject({ method: 'DELETE', url: '/api/auth/session', headers: { cookie } })).statusCode).toBe(204);
        await customer.waitForEnd();
        await eventually(async () => (await streams()).signedIn === 0, 5_000, 'the ended stream to leave the count');
        expect(await streams()).toEqual({ visitor: 1, signedIn: 0, ended: before.ended + 1 });
        // A stream's lifetime is no response time, so it stays out of the histogram.
        expect(find(await scrape(testApp), 'http_request_duration_seconds_count', { route: '/api/events' })).toBeUndefined();
      } finally {
        visitor.close();
        customer.close();
      }
      // The server hears of a stream the browser closed a moment later; the gauge itself is the signal.
      await eventually(async () => (await streams()).visitor === 0, 5_000, 'the closed stream to leave the count');
    });

    it('reports the database connections and the process’s own metrics', async () => {
      const testApp = context();
      const text = await scrape(testApp);
      expect(find(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
      expect(find(text, 'nodejs_eventloop_lag_seconds')).toBeDefined();
      if (testApp.database.kind === 'postgres') {
        expect(find(text, 'shop_db_pool_connections_max')).toBe(10);
        expect(find(text, 'shop_db_pool_connections_open')).toBeGreaterThanOrEqual(1);
        expect(find(text, 'shop_db_pool_connections_idle')).toBeGreaterThanOrEqual(0);
        expect(find(text, 'shop_db_pool_queries_waiting')).toBe(0);
      } else {
        expect(find(text, 'shop_db_pool_connections_max')).toBe(1);
        expect(find(text, 'shop_db_pool_connections_open')).toBe(1);
        // PGlite cannot say how many queries wait their turn, so those series are left out rather than made up.
        expect(find(text, 'shop_db_pool_connections_idle')).toBeUndefined();
        expect(find(text, 'shop_db_pool_queries_waiting')).toBeUndefined();
      }
    });
  },
  { TRUST_PROXY: 'true', PAYMENT_METHODS: 'pay_by_link,card,cash_on_delivery', STATUS_MAIL_DELAY_SECONDS: '0' },
);

for (const target of databaseTargets) {
  describe(`metrics with a token [${target}]`, () => {
    let inbox: SmtpInbox;
    let testApp: TestApp;
    beforeAll(async () => {
      inbox = await startSmtpInbox({ refuse: (address) => address.startsWith('bounce') });
      testApp = await createTestApp(target, { METRICS_TOKEN: TOKEN, SMTP_URL: inbox.url });
    });
    afterAll(async () => {
      await testApp?.close();
      await inbox?.close();
    });

    it('answers only a request that brings the token, from this host and from elsewhere alike', async () => {
      const from = (remoteAddress: string, authorization?: string) => testApp.app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers: authorization ? { authorization } : {} });
      for (const [authorization, remoteAddress] of [
        [undefined, '127.0.0.1'],
        [undefined, '10.0.0.5'],
        [`Bearer ${TOKEN.slice(0, -1)}`, '127.0.0.1'],
        [`Bearer ${TOKEN}x`, '10.0.0.5'],
        [`Basic ${Buffer.from(`metrics:${TOKEN}`).toString('base64')}`, '10.0.0.5'],
        [TOKEN, '10.0.0.5'],
      ] as const) {
        const refused = await from(remoteAddress, authorization);
        expect(refused.statusCode, `${authorization} from ${remoteAddress}`).toBe(401);
        expect(refused.headers['www-authenticate']).toBe('Bearer');
        expect(refused.json()).toMatchObject({ error: { code: 'unauthorized' } });
      }
      for (const [authorization, remoteAddress] of [
        [`Bearer ${TOKEN}`, '10.0.0.5'],
        [`bearer ${TOKEN}`, '127.0.0.1'],
      ] as const) {
        const answered = await from(remoteAddress, authorization);
        expect(answered.statusCode).toBe(200);
        expect(answered.headers['cache-control']).toBe('no-store');
        expect(answered.body).toContain('# TYPE http_requests_total counter');
      }
    });

    it('counts each e-mail the mail server refused', async () => {
      const failures = async () => sample(await scrape(testApp, { authorization: `Bearer ${TOKEN}` }), 'shop_mail_send_failures_total');
      const before = await failures();
      expect((await requestLink(testApp, 'bounce@example.com')).statusCode).toBe(502);
      expect(await failures()).toBe(before + 1);
      expect((await requestLink(testApp, 'welcome@example.com')).statusCode).toBe(202);
      await inbox.waitForSignInLink('welcome@example.com');
      expect(await failures()).toBe(before + 1);
    });

    it('counts each queued order e-mail the mail server refused, and the message given up on', async () => {
      const { db } = testApp.database;
      const scraped = () => scrape(testApp, { authorization: `Bearer ${TOKEN}` });
      const cookie = await signInThroughInbox(testApp, inbox, 'metrics-mails@example.com');
      const [{ id: productId }] = (await db.insert(products).values(testProduct({ name: 'Metric Bracelet', priceMinor: 990 })).returning({ id: products.id })) as [{ id: string }];
      await fillCart(testApp, cookie, [productId]);
      const order = await placeOrder(testApp, cookie);
      const orderMailsSent = async () => (await db.select({ state: mailQueue.state }).from(mailQueue).where(eq(mailQueue.orderId, order.orderId))).every((mail) => mail.state === 'sent');
      await eventually(orderMailsSent, 10_000, 'the order e-mails to be sent');
      const before = await scraped();

      const [bounced] = (await db.insert(mailQueue).values({ orderId: order.orderId, kind: 'order_placed', recipient: 'bounce-order@example.com', language: 'en' }).returning({ id: mailQueue.id })) as [{ id: string }];
      testApp.app.mailWorker.wake();
      // A refusal (5xx) is permanent: the message is failed at its first try.
      await eventually(async () => (await db.select({ state: mailQueue.state }).from(mailQueue).where(eq(mailQueue.id, bounced.id)))[0]?.state === 'failed', 10_000, 'the refused e-mail to be failed');
      const after = await scraped();
      expect(sample(after, 'shop_mail_send_failures_total') - sample(before, 'shop_mail_send_failures_total')).toBe(1);
      expect(sample(after, 'shop_mail_failed_messages') - sample(before, 'shop_mail_failed_messages')).toBe(1);
    });
  });
}
