import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminOrderDetail, AdminOrderPage } from '#shared/admin.js';
import { SIGN_IN_RATE_LIMIT, type SessionResponse } from '#shared/auth.js';
import type { CartOperationsResponse, CartResponse } from '#shared/cart.js';
import type { CatalogueResponse } from '#shared/catalog.js';
import { priceLines } from '#shared/pricing.js';
import type { Order } from '#shared/orders.js';
import { openEventStream, type EventStreamReader } from '../support/event-stream.js';
import { startRoundRobinProxy, SERVED_BY_HEADER, type RoundRobinProxy } from '../support/round-robin-proxy.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { startSmtpInbox, type SmtpInbox } from '../support/smtp-inbox.js';
import { sofia } from './sample-data.js';
import { tokenOf } from './sign-in.js';
import { eventually, operationKey } from './shopper.js';
import { createPostgresDatabase, TEST_INDEX_HTML } from './test-app.js';

// Several processes share nothing but the database here, so only PostgreSQL can hold them together.
const NEEDS_POSTGRES = 'needs a PostgreSQL server: set TEST_DATABASE_URL';
const PROCESSES = 3;
const ADMIN = 'owner@shop.test';
const CUSTOMER = 'journey@example.com';

interface Answer<T> {
  status: number;
  body: T;
  /** The index of the process that served the request, as the proxy marked it. */
  servedBy: number;
  setCookie: string[];
}

describe('three server processes on one PostgreSQL database behind a round-robin proxy', () => {
  let proxy: RoundRobinProxy;
  let inbox: SmtpInbox;
  let processes: ServerProcess[] = [];
  let database: Awaited<ReturnType<typeof createPostgresDatabase>> | undefined;
  let workDir: string | undefined;
  let startupMs = 0;

  beforeAll(async () => {
    if (!process.env.TEST_DATABASE_URL) return;
    workDir = await mkdtemp(path.join(tmpdir(), 'shop-three-'));
    const clientDir = path.join(workDir, 'client');
    await mkdir(clientDir);
    await writeFile(path.join(clientDir, 'index.html'), TEST_INDEX_HTML);
    [proxy, inbox, database] = await Promise.all([startRoundRobinProxy(), startSmtpInbox(), createPostgresDatabase()]);
    const started = Date.now();
    // All three at once on the new database: they migrate it and seed the demo catalogue between them.
    const starting = await Promise.allSettled(
      Array.from({ length: PROCESSES }, async (_, index) => {
        const dataDir = path.join(workDir!, `data-${index}`);
        await mkdir(dataDir);
        return startServerProcess(clientDir, {
          DATABASE_URL: database!.url,
          DATA_DIR: dataDir,
          PUBLIC_URL: proxy.url,
          // Two hops: the test's requests name their client address as an outer proxy would, and the
          // round-robin proxy appends the address it was reached from.
          TRUST_PROXY: '2',
          SMTP_URL: inbox.url,
          ADMIN_EMAILS: ADMIN,
          SEED_DEMO: 'true',
          // The "sent" e-mail goes out at once rather than after a minute, so that the journey can wait for it.
          STATUS_MAIL_DELAY_SECONDS: '0',
        });
      }),
    );
    // Those that did start are stopped after all, even when another failed.
    processes = starting.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    for (const result of starting) if (result.status === 'rejected') throw result.reason;
    startupMs = Date.now() - started;
    proxy.setBackends(processes.map((shop) => shop.url));
  }, 90_000);

  afterAll(async () => {
    await Promise.all(processes.map((shop) => shop.stop()));
    await proxy?.close();
    await inbox?.close();
    await database?.drop();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  /** A request through the proxy, as a browser on the shop's own pages sends it (with its Origin on writes). */
  async function call<T>(method: string, url: string, options: { cookie?: string; body?: object; clientAddress?: string } = {}): Promise<Answer<T>> {
    const response = await fetch(`${proxy.url}${url}`, {
      method,
      headers: {
        ...(method === 'GET' ? {} : { origin: proxy.url }),
        ...(options.cookie ? { cookie: options.cookie } : {}),
        ...(options.body ? { 'content-type': 'application/json' } : {}),
        ...(options.clientAddress ? { 'x-forwarded-for': options.clientAddress } : {}),
      },
      body: options.body ? JSON.stringify(options.body) : undefined,
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T, servedBy: Number(response.headers.get(SERVED_BY_HEADER) ?? NaN), setCookie: response.headers.getSetCookie() };
  }

  /** Signs in with the link the shop mailed, and returns the session cookie. */
  async function signIn(email: string): Promise<{ cookie: string; session: Answer<SessionResponse>; link: Answer<unknown> }> {
    const link = await call('POST', '/api/auth/sign-in-links', { body: { email, language: 'en' } });
    expect(link.status, JSON.stringify(link.body)).toBe(202);
    const mailed = await inbox.waitForSignInLink(email);
    // The link leads to the shop's public address (the proxy), not to the process that sent it.
    expect(mailed.startsWith(`${proxy.url}/?`)).toBe(true);
    const token = tokenOf(mailed);
    const session = await call<SessionResponse>('POST', '/api/auth/sessions', { body: { token, email } });
    expect(session.status, JSON.stringify(session.body)).toBe(200);
    const cookie = session.setCookie.map((header) => header.split(';')[0]!).find((pair) => pair.startsWith('session='));
    expect(cookie).toBeDefined();
    return { cookie: cookie!, session, link };
  }

  it('runs a whole customer journey with each request on another process, and the admin’s change reaches the customer’s stream live', async (test) => {
    if (!database) return test.skip(NEEDS_POSTGRES);
    const journeyStarted = Date.now();
    const firstRequest = proxy.served.length;

    // The three processes seeded the catalogue once between them.
    const catalogue = await call<CatalogueResponse>('GET', '/api/products');
    expect(catalogue.status).toBe(200);
    expect(catalogue.body.total).toBeGreaterThan(0);
    expect(catalogue.body.total).toBeLessThanOrEqual(catalogue.body.pageSize);
    expect(new Set(catalogue.body.products.map((candidate) => candidate.name.en)).size).toBe(catalogue.body.total);
    const product = catalogue.body.products.find((candidate) => candidate.stock !== null && candidate.stock >= 2 && candidate.photos.length > 0)!;
    expect(product).toBeDefined();
    // Its photo, stored by whichever process seeded the catalogue, is served alike by all three (their DATA_DIRs differ).
    const photos = [];
    for (let read = 0; read < PROCESSES; read++) photos.push(await fetch(`${proxy.url}${product.photos[0]!.url}`));
    expect(photos.map((photo) => [photo.status, photo.headers.get('content-type')])).toEqual(Array(PROCESSES).fill([200, 'image/webp']));
    expect(new Set(photos.map((photo) => photo.headers.get('etag'))).size).toBe(1);
    expect(new Set(await Promise.all(photos.map(async (photo) => Buffer.from(await photo.arrayBuffer()).toString('base64')))).size).toBe(1);

    // The customer signs in with the mailed link (asked on one process, completed on the next).
    const customer = await signIn(CUSTOMER);
    expect(customer.session.body.user).toMatchObject({ email: CUSTOMER, isAdmin: false });
    expect(customer.session.servedBy).not.toBe(customer.link.servedBy);
    const { cookie } = customer;
    const me = await call<SessionResponse>('GET', '/api/auth/me', { cookie });
    expect(me.body.user?.email).toBe(CUSTOMER);

    // The customer's page holds an event stream open on one process for the rest of the journey.
    const streamRequest = proxy.served.length;
    const stream: EventStreamReader = await openEventStream(`${proxy.url}/api/events`, cookie);
    const streamProcess = proxy.served[streamRequest]!.backend;
    try {
      await stream.waitFor('ready');
      expect(stream.data[stream.events.indexOf('ready')]).toMatchObject({ signedIn: true });

      const address = await call('POST', '/api/addresses', { cookie, body: sofia });
      expect(address.status, JSON.stringify(address.body)).toBe(201);
      const added = await call<CartOperationsResponse>('POST', '/api/cart/operations', { cookie, body: { operations: [{ id: operationKey(), type: 'add', productId: product.id }] } });
      expect(added.status, JSON.stringify(added.body)).toBe(200);
      expect(added.body.items).toMatchObject([{ productId: product.id, quantity: 1, priceMinor: product.priceMinor }]);
      await stream.waitFor('cart');
      // A browser that resends the operation (its answer was lost) reaches another process, which knows it was applied.
      const resent = await call<CartOperationsResponse>('POST', '/api/cart/operations', { cookie, body: { operations: [{ id: added.body.outcomes[0]!.id, type: 'add', productId: product.id }] } });
      expect(resent.servedBy).not.toBe(added.servedBy);
      expect(resent.body.outcomes).toEqual([{ id: added.body.outcomes[0]!.id, outcome: 'duplicate' }]);

      // Checkout reads the cart on another process than the one that filled it, and places the order on a third.
      const cart = await call<CartResponse>('GET', '/api/cart', { cookie });
      expect(cart.body.items).toMatchObject([{ productId: product.id, quantity: 1 }]);
      expect(cart.servedBy).not.toBe(added.servedBy);
      const total = priceLines(cart.body.items).total;
      const checkout = { idempotencyKey: operationKey(), acceptTerms: true, expectedTotalMinor: total, paymentMethod: 'card' };
      const placed = await call<{ order: Order }>('POST', '/api/orders', { cookie, body: checkout });
      expect(placed.status, JSON.stringify(placed.body)).toBe(201);
      const { order } = placed.body;
      expect(order).toMatchObject({ customerEmail: CUSTOMER, status: 'pending', paymentMethod: 'card', payment: null, pricing: { total } });
      expect(order.checkoutUrl).toBe(`${proxy.url}/mock-payment/${order.orderId}?method=card`);
      await stream.waitFor('orders');
      // A repeated checkout (a double click, a retry) reaches another process and answers with the same order.
      const repeated = await call<{ order: Order }>('POST', '/api/orders', { cookie, body: checkout });
      expect(repeated.servedBy).not.toBe(placed.servedBy);
      expect(repeated.status, JSON.stringify(repeated.body)).toBe(200);
      expect(repeated.body.order.orderId).toBe(order.orderId);
      expect((await call<CartResponse>('GET', '/api/cart', { cookie })).body.items).toEqual([]);

      // The simulated card payment.
      const paid = await call<{ order: Order }>('POST', `/api/orders/${order.orderId}/payment`, { cookie, body: { method: 'card', cardLast4: '4242' } });
      expect(paid.status, JSON.stringify(paid.body)).toBe(200);
      expect(paid.body.order).toMatchObject({ status: 'paid', payment: { method: 'card', amountMinor: total, cardLast4: '4242' } });
      await stream.waitFor('orders');

      // The admin signs in the same way and marks the order sent.
      const admin = await signIn(ADMIN);
      expect(admin.session.body.user).toMatchObject({ email: ADMIN, isAdmin: true });
      const listed = await call<AdminOrderPage>('GET', '/api/admin/orders', { cookie: admin.cookie });
      expect(listed.body.orders.map((found) => [found.orderId, found.status])).toEqual([[order.orderId, 'paid']]);
      // The proxy's turn decides where the change lands; the admin's page reads the order (again) until it
      // would land on another process than the one holding the customer's stream, the case at stake here.
      do {
        const seenByAdmin = await call<AdminOrderDetail>('GET', `/api/admin/orders/${order.orderId}`, { cookie: admin.cookie });
        expect(seenByAdmin.body.order.status).toBe('paid');
      } while (proxy.nextBackend === streamProcess);
      const ordersEventsBefore = stream.events.filter((event) => event === 'orders').length;
      const heard = stream.waitFor('orders');
      const changed = await call<AdminOrderDetail>('PATCH', `/api/admin/orders/${order.orderId}/status`, { cookie: admin.cookie, body: { status: 'sent' } });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      expect(changed.body.order.status).toBe('sent');
      // The change was made on another process than the one holding the customer's stream, which heard of it through PostgreSQL.
      expect(changed.servedBy).not.toBe(streamProcess);
      // From the moment the change was asked for.
      const liveMs = await heard;
      expect(stream.events.filter((event) => event === 'orders')).toHaveLength(ordersEventsBefore + 1);
      expect(stream.ended).toBe(false);
      // The page refetches on the event, wherever that request lands, and shows the order sent.
      const refetched = await call<{ order: Order }>('GET', `/api/orders/${order.orderId}`, { cookie });
      expect(refetched.body.order.status).toBe('sent');
      expect(refetched.body.order.statusHistory.map((change) => change.status)).toEqual(['pending', 'paid', 'sent']);

      // Every request went to another process than the one before it, and each process served some.
      const journey = proxy.served.slice(firstRequest);
      for (let index = 1; index < journey.length; index++) expect(journey[index]!.backend, `${journey[index]!.method} ${journey[index]!.path}`).not.toBe(journey[index - 1]!.backend);
      expect(new Set(journey.map((request) => request.backend))).toEqual(new Set([0, 1, 2]));

      // Each e-mail of the order arrives, and once: every process's worker heard of it, one sent it.
      const subjects = [
        [CUSTOMER, `We received your order #${order.orderId}`],
        [CUSTOMER, `Payment received for order #${order.orderId}`],
        [CUSTOMER, `Your order #${order.orderId} is on its way`],
        [ADMIN, `New order #${order.orderId}`],
      ] as const;
      for (const [to, subject] of subjects) await inbox.waitForMail(to, 15_000, (mail) => mail.subject.startsWith(subject));
      const mails = await eventually(async () => {
        const detail = await call<AdminOrderDetail>('GET', `/api/admin/orders/${order.orderId}`, { cookie: admin.cookie });
        return detail.body.mails.length === subjects.length && detail.body.mails.every((mail) => mail.state !== 'queued') && detail.body.mails;
      }, 10_000, 'every e-mail of the order to be settled');
      expect(mails.map((mail) => [mail.kind, mail.recipient, mail.state, mail.attempts])).toEqual([
        ['order_placed', CUSTOMER, 'sent', 1],
        ['new_order', ADMIN, 'sent', 1],
        ['payment_received', CUSTOMER, 'sent', 1],
        ['status_changed', CUSTOMER, 'sent', 1],
      ]);
      for (const [to, subject] of subjects) {
        expect(inbox.messages.filter((mail) => mail.to.includes(to) && mail.subject.startsWith(subject)), subject).toHaveLength(1);
      }

      // The order, and the stock it took, read the same through each process.
      const finalReads = await Promise.all(
        processes.map(async (shop) => {
          const response = await fetch(`${shop.url}/api/orders/${order.orderId}`, { headers: { cookie } });
          return (await response.json()) as { order: Order };
        }),
      );
      const throughProxy: Array<Answer<{ order: Order }>> = [];
      for (let read = 0; read < PROCESSES; read++) throughProxy.push(await call<{ order: Order }>('GET', `/api/orders/${order.orderId}`, { cookie }));
      expect(new Set(throughProxy.map((answer) => answer.servedBy))).toEqual(new Set([0, 1, 2]));
      for (const read of [...finalReads, ...throughProxy.map((answer) => answer.body)]) expect(read).toEqual(finalReads[0]);
      expect(finalReads[0]!.order).toMatchObject({ status: 'sent', payment: { method: 'card', amountMinor: total } });
      const customerOrders = await call<{ orders: Order[] }>('GET', '/api/orders', { cookie });
      expect(customerOrders.body.orders.map((listed) => listed.orderId)).toEqual([order.orderId]);
      for (let read = 0; read < PROCESSES; read++) {
        const stock = await call<CatalogueResponse>('GET', '/api/products');
        expect(stock.body.products.find((candidate) => candidate.id === product.id)?.stock).toBe(product.stock! - 1);
      }

      await test.annotate(
        `processes started in parallel in ${startupMs} ms; journey of ${journey.length} requests in ${Date.now() - journeyStarted} ms; ` +
          `stream on process ${streamProcess}, status changed on process ${changed.servedBy}, heard live after ${liveMs} ms; ` +
          `served: ${journey.map((request) => `${request.method} ${request.path.split('?')[0]}→${request.backend}`).join(', ')}`,
      );
    } finally {
      stream.close();
    }
  });

  it('counts sign-in link requests to different processes together', async (test) => {
    if (!database) return test.skip(NEEDS_POSTGRES);
    const { perEmail, perClient } = SIGN_IN_RATE_LIMIT;

    // One address asked for from many clients at once, the requests spread over the three processes.
    const firstRequest = proxy.served.length;
    const sameEmail = await Promise.all(
      Array.from({ length: perEmail * 2 }, (_, index) => call('POST', '/api/auth/sign-in-links', { body: { email: 'limited@example.com', language: 'en' }, clientAddress: `10.40.0.${index + 1}` })),
    );
    expect(new Set(proxy.served.slice(firstRequest).map((request) => request.backend))).toEqual(new Set([0, 1, 2]));
    expect(sameEmail.filter((answer) => answer.status === 202)).toHaveLength(perEmail);
    expect(sameEmail.filter((answer) => answer.status === 429)).toHaveLength(perEmail);

    // One client asking for many addresses at once.
    const sameClient = await Promise.all(
      Array.from({ length: perClient + 2 }, (_, index) => call('POST', '/api/auth/sign-in-links', { body: { email: `crowd${index}@example.com`, language: 'en' }, clientAddress: '10.40.1.1' })),
    );
    expect(new Set(sameClient.filter((answer) => answer.status === 202).map((answer) => answer.servedBy))).toEqual(new Set([0, 1, 2]));
    expect(sameClient.filter((answer) => answer.status === 202)).toHaveLength(perClient);
    expect(sameClient.filter((answer) => answer.status === 429)).toHaveLength(2);
    for (const refused of [...sameEmail, ...sameClient].filter((answer) => answer.status === 429)) expect(refused.body).toMatchObject({ error: { code: 'rate_limited' } });
    // And only the links that were granted were mailed.
    expect(inbox.messages.filter((mail) => mail.to.includes('limited@example.com'))).toHaveLength(perEmail);
    expect(inbox.messages.filter((mail) => mail.to.some((to) => to.startsWith('crowd')))).toHaveLength(perClient);
  });
});
