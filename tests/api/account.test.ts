import { and, eq, inArray, ne } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { accountDataFileName, type AccountExport } from '#shared/account.js';
import type { AdminOrderDetail } from '#shared/admin.js';
import type { Address } from '#shared/addresses.js';
import type { CartResponse } from '#shared/cart.js';
import type { Order } from '#shared/orders.js';
import { admins, mailQueue, payments, products, sessions, signInTokens, users } from '#server/db/schema.js';
import { openEventStream, type EventStreamReader } from '../support/event-stream.js';
import { deliverMarker } from './live-marker.js';
import { fillCart, placeOrder } from './shopper.js';
import { requestLink, signIn } from './sign-in.js';
import { describeEachDatabase, type TestApp } from './test-app.js';
import { testProduct } from './test-products.js';

const ADMIN = 'boss@example.com';
const PLACEHOLDER = /^deleted-[0-9a-f]{8}@deleted\.invalid$/;

const get = (testApp: TestApp, url: string, cookie: string) => testApp.app.inject({ method: 'GET', url, headers: { cookie } });
const exportOf = (testApp: TestApp, cookie: string) => get(testApp, '/api/account/export', cookie);
const deleteAccount = (testApp: TestApp, cookie: string, payload: unknown) =>
  testApp.app.inject({ method: 'DELETE', url: '/api/account', headers: { cookie }, payload: payload as object });
const me = async (testApp: TestApp, cookie: string) => (await get(testApp, '/api/auth/me', cookie)).json<{ user: { email: string; isAdmin: boolean } | null }>().user;

/** Pays the order by card through the simulated provider, as the payment page does. */
async function payByCard(testApp: TestApp, cookie: string, orderId: string): Promise<void> {
  const paid = await testApp.app.inject({ method: 'POST', url: `/api/orders/${orderId}/payment`, headers: { cookie }, payload: { method: 'card', cardLast4: '4242' } });
  expect(paid.statusCode, paid.body).toBe(200);
}

describeEachDatabase(
  'a customer’s data: the copy and the deletion of the account',
  (context) => {
    let ring: string;
    let oil: string;
    let admin: string;
    beforeAll(async () => {
      const rows = await context()
        .database.db.insert(products)
        .values([testProduct({ name: 'Account Ring', priceMinor: 1999 }), testProduct({ name: 'Account Oil', priceMinor: 850 })])
        .returning({ id: products.id });
      [ring, oil] = rows.map((row) => row.id) as [string, string];
      await context().database.db.insert(admins).values({ id: ADMIN, email: ADMIN });
      admin = await signIn(context(), ADMIN);
    });

    it('refuses a visitor both ways', async () => {
      const testApp = context();
      expect((await testApp.app.inject({ method: 'GET', url: '/api/account/export' })).statusCode).toBe(401);
      expect((await testApp.app.inject({ method: 'DELETE', url: '/api/account', payload: { email: 'x@example.com' } })).statusCode).toBe(401);
    });

    it('gives the customer a file of their own account, addresses, cart, orders, sessions and e-mails, and nobody else’s', async () => {
      const testApp = context();
      const maria = await signIn(testApp, 'maria@example.com');
      const mariaPhone = await signIn(testApp, 'maria@example.com');
      const ivan = await signIn(testApp, 'ivan@example.com');
      await fillCart(testApp, ivan, [oil]);
      const ivansOrder = await placeOrder(testApp, ivan);
      await fillCart(testApp, maria, [ring]);
      const order = await placeOrder(testApp, maria, { paymentMethod: 'card' });
      await payByCard(testApp, maria, order.orderId);
      await fillCart(testApp, maria, [oil]);

      const response = await exportOf(testApp, maria);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      const data = response.json<AccountExport>();
      expect(response.headers['content-disposition']).toBe(`attachment; filename="${accountDataFileName(data.exportedAt)}"`);
      expect(response.headers['content-disposition']).toMatch(/^attachment; filename="nail-art-atelier-data-\d{4}-\d{2}-\d{2}\.json"$/);

      expect(data.account).toMatchObject({ email: 'maria@example.com', lastSignOutAt: null });
      expect(Date.parse(data.account.createdAt)).not.toBeNaN();
      expect(Date.parse(data.account.lastSignInAt!)).not.toBeNaN();
      // fillCart saved the Sofia address twice, once before each order.
      expect(data.addresses.map((address) => address.fullName)).toEqual(['Maria Ivanova', 'Maria Ivanova']);
      expect(data.cart.map((line) => [line.productId, line.quantity])).toEqual([[oil, 1]]);
      expect(data.orders).toHaveLength(1);
      expect(data.orders[0]).toMatchObject({
        orderId: order.orderId,
        customerEmail: 'maria@example.com',
        status: 'paid',
        items: [{ productId: ring, quantity: 1 }],
        payment: { method: 'card', cardLast4: '4242' },
        shippingAddress: { fullName: 'Maria Ivanova', phone: '+359 88 812 3456' },
      });
      expect(data.orders[0]!.statusHistory.map((change) => change.status)).toEqual(['pending', 'paid']);
      expect(data.sessions).toHaveLength(2);
      expect(data.sessions.filter((session) => session.current)).toHaveLength(1);
      for (const session of data.sessions) expect(Object.keys(session).sort()).toEqual(['createdAt', 'current', 'expiresAt', 'lastSeenAt']);
      expect(data.emails.length).toBeGreaterThanOrEqual(2);
      expect(new Set(data.emails.map((mail) => mail.orderId))).toEqual(new Set([order.orderId]));
      expect(data.emails.map((mail) => mail.kind)).toEqual(expect.arrayContaining(['order_placed', 'payment_received']));

      // Neither session id, nor its hash, nor anyone else's data.
      const text = response.body;
      const sessionRows = await testApp.database.db.select({ idHash: sessions.idHash }).from(sessions);
      for (const cookie of [maria, mariaPhone, ivan]) expect(text).not.toContain(cookie.slice(cookie.indexOf('=') + 1));
      for (const { idHash } of sessionRows) expect(text).not.toContain(idHash);
      expect(text).not.toContain('ivan@example.com');
      expect(text).not.toContain(ADMIN);
      expect(text).not.toContain(ivansOrder.orderId);
    });

    it('refuses a deletion whose e-mail does not match with 400 and its message key, and changes nothing', async () => {
      const testApp = context();
      const petya = await signIn(testApp, 'petya@example.com');
      await fillCart(testApp, petya, [ring]);
      await placeOrder(testApp, petya);
      await fillCart(testApp, petya, [oil]);
      // The parts that nothing but the customer changes (the e-mails' states move as the worker sends them).
      const stable = async () => {
        const { account, addresses, cart, orders, sessions: held, emails } = (await exportOf(testApp, petya)).json<AccountExport>();
        return { account, addresses, cart, orders, sessions: held.length, emails: emails.map((mail) => [mail.orderId, mail.kind]) };
      };
      const before = await stable();

      for (const payload of [{ email: 'someone@example.com' }, { email: '' }, {}, undefined, { email: 42 }, { email: 'petya@example.co' }]) {
        const refused = await deleteAccount(testApp, petya, payload);
        expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
        // The error names the text the app shows (its messageKey) and the field when there is one.
        const messageKey = 'accountData.errors.emailMismatch';
        expect(refused.json()).toEqual({
          error: payload ? { code: 'bad_request', message: `email: ${messageKey}`, field: 'email', messageKey } : { code: 'bad_request', message: messageKey, messageKey },
        });
        expect(refused.cookies).toEqual([]);
      }
      expect(await stable()).toEqual(before);
      expect(await me(testApp, petya)).toMatchObject({ email: 'petya@example.com' });
    });

    it('deletes the account: anonymised orders, no addresses, cart, sessions or links, and the e-mail can sign up again as a new customer', async () => {
      const testApp = context();
      const { db } = testApp.database;
      const laptop = await signIn(testApp, 'elena@example.com');
      const phone = await signIn(testApp, 'elena@example.com');
      await fillCart(testApp, laptop, [ring]);
      const paidOrder = await placeOrder(testApp, laptop, { paymentMethod: 'card' });
      await payByCard(testApp, laptop, paidOrder.orderId);
      await fillCart(testApp, laptop, [oil]);
      const openOrder = await placeOrder(testApp, laptop);
      await fillCart(testApp, laptop, [ring]);
      // A status message waits a minute before it is sent: it is still queued when the account goes.
      const preparing = await testApp.app.inject({ method: 'PATCH', url: `/api/admin/orders/${paidOrder.orderId}/status`, headers: { cookie: admin }, payload: { status: 'preparing' } });
      expect(preparing.statusCode, preparing.body).toBe(200);
      await requestLink(testApp, 'elena@example.com');
      // A message that the mail server refused names the address in its error, as the admin sees it.
      const refusal = '550 5.1.1 <Elena@Example.COM>: Recipient address rejected: elena@example.com unknown';
      await db.update(mailQueue).set({ state: 'failed', lastError: refusal }).where(and(eq(mailQueue.orderId, paidOrder.orderId), ne(mailQueue.kind, 'status_changed')));
      const [{ id: userId }] = (await db.select({ id: users.id }).from(users).where(eq(users.email, 'elena@example.com'))) as [{ id: string }];

      const deleted = await deleteAccount(testApp, laptop, { email: ' Elena@Example.com ' });
      expect(deleted.statusCode, deleted.body).toBe(204);
      expect(deleted.body).toBe('');
      expect(deleted.cookies.find((cookie) => cookie.name === 'session')).toMatchObject({ value: '', path: '/' });

      // Signed out everywhere.
      for (const cookie of [laptop, phone]) {
        expect(await me(testApp, cookie)).toBeNull();
        expect((await get(testApp, '/api/cart', cookie)).statusCode).toBe(401);
        expect((await exportOf(testApp, cookie)).statusCode).toBe(401);
      }
      expect(await db.select().from(sessions).where(eq(sessions.userId, userId))).toEqual([]);
      expect(await db.select().from(signInTokens).where(eq(signInTokens.email, 'elena@example.com'))).toEqual([]);

      // The row stays under the placeholder, which the orders and their e-mails carry too.
      const [row] = await db.select().from(users).where(eq(users.id, userId));
      expect(row!.email).toMatch(PLACEHOLDER);
      expect(row).toMatchObject({ lastLoginAt: null, lastLogoutAt: null });
      const placeholder = row!.email;

      for (const original of [paidOrder, openOrder]) {
        const detail = await get(testApp, `/api/admin/orders/${original.orderId}`, admin);
        expect(detail.statusCode).toBe(200);
        const { order, mails } = detail.json<AdminOrderDetail>();
        expect(order.customerEmail).toBe(placeholder);
        expect(order.shippingAddress).toEqual({ fullName: '', streetAddress: '', apartment: '', city: '', state: '', postalCode: '', country: 'BG', phone: '' });
        // What the shop's accounts need stays as it was.
        expect(order).toMatchObject({ status: original.orderId === paidOrder.orderId ? 'preparing' : 'pending', pricing: original.pricing, items: original.items, createdAt: original.createdAt });
        const text = detail.body.toLowerCase();
        for (const personal of ['elena@example.com', 'Maria Ivanova', 'Vitosha', 'Sofia', '812 3456', 'ap. 4']) expect(text, personal).not.toContain(personal.toLowerCase());
        expect(mails.length).toBeGreaterThan(0);
        for (const mail of mails.filter((candidate) => candidate.kind !== 'new_order')) expect(mail.recipient).toBe(placeholder);
        expect(mails.filter((mail) => mail.state === 'queued')).toEqual([]);
      }
      const paid = await get(testApp, `/api/admin/orders/${paidOrder.orderId}`, admin);
      expect(paid.json<AdminOrderDetail>().order.payment).toMatchObject({ method: 'card', amountMinor: paidOrder.pricing.total });
      expect(paid.json<AdminOrderDetail>().order.payment).not.toHaveProperty('cardLast4');
      const [payment] = await db.select().from(payments).where(eq(payments.orderId, paidOrder.orderId));
      expect(payment!.cardLast4).toBeNull();
      const statusMails = await db.select().from(mailQueue).where(eq(mailQueue.orderId, paidOrder.orderId));
      // The rest of the mail server's answer stays, for the shop to see why it failed.
      expect(statusMails.filter((mail) => mail.state === 'failed').map((mail) => mail.lastError)).toContain(`550 5.1.1 <${placeholder}>: Recipient address rejected: ${placeholder} unknown`);
      expect(statusMails.find((mail) => mail.kind === 'status_changed')).toMatchObject({ state: 'superseded', recipient: placeholder });
      const search = await get(testApp, '/api/admin/orders?q=elena', admin);
      expect(search.json<{ total: number }>().total).toBe(0);

      // The same e-mail signs up again: a new account with nothing in it.
      const again = await signIn(testApp, 'elena@example.com');
      expect(await me(testApp, again)).toMatchObject({ email: 'elena@example.com', isAdmin: false });
      expect((await get(testApp, '/api/orders', again)).json<{ orders: Order[] }>().orders).toEqual([]);
      expect((await get(testApp, '/api/addresses', again)).json<{ addresses: Address[] }>().addresses).toEqual([]);
      expect((await get(testApp, '/api/cart', again)).json<CartResponse>().items).toEqual([]);
      const fresh = (await exportOf(testApp, again)).json<AccountExport>();
      expect(fresh).toMatchObject({ account: { email: 'elena@example.com' }, addresses: [], cart: [], orders: [], emails: [] });
      const [newRow] = await db.select().from(users).where(eq(users.email, 'elena@example.com'));
      expect(newRow!.id).not.toBe(userId);
    });

    it('takes the admin rights of an admin who deletes their account', async () => {
      const testApp = context();
      await testApp.database.db.insert(admins).values({ id: 'helper@example.com', email: 'helper@example.com' });
      const helper = await signIn(testApp, 'helper@example.com');
      expect(await me(testApp, helper)).toMatchObject({ isAdmin: true });
      expect((await deleteAccount(testApp, helper, { email: 'helper@example.com' })).statusCode).toBe(204);
      expect(await testApp.database.db.select().from(admins).where(inArray(admins.id, ['helper@example.com']))).toEqual([]);
      const again = await signIn(testApp, 'helper@example.com');
      expect(await me(testApp, again)).toMatchObject({ isAdmin: false });
      expect((await get(testApp, '/api/admin/orders', again)).statusCode).toBe(403);
    });

    it('deletes once when asked twice at once; the second request finds itself signed out', async () => {
      const testApp = context();
      const cookie = await signIn(testApp, 'twice@example.com');
      await fillCart(testApp, cookie, [ring]);
      await placeOrder(testApp, cookie);
      const answers = await Promise.all([deleteAccount(testApp, cookie, { email: 'twice@example.com' }), deleteAccount(testApp, cookie, { email: 'twice@example.com' })]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([204, 401]);
      const rows = await testApp.database.db.select().from(users).where(inArray(users.email, ['twice@example.com']));
      expect(rows).toEqual([]);
    });

    it('ends the open event streams of every session of the account', async () => {
      const testApp = context();
      const address = await testApp.app.listen({ port: 0, host: '127.0.0.1' });
      const laptop = await signIn(testApp, 'streams@example.com');
      const phone = await signIn(testApp, 'streams@example.com');
      const other = await signIn(testApp, 'bystander@example.com');
      const streams = await Promise.all([laptop, phone, other].map((cookie) => openEventStream(`${address}/api/events`, cookie)));
      try {
        await Promise.all(streams.map((stream) => stream.waitFor('ready')));
        const [laptopStream, phoneStream, otherStream] = streams as [EventStreamReader, EventStreamReader, EventStreamReader];
        expect((await deleteAccount(testApp, laptop, { email: 'streams@example.com' })).statusCode).toBe(204);
        expect(await phoneStream.waitForEnd(1000)).toBeLessThan(1000);
        expect(await laptopStream.waitForEnd(1000)).toBeLessThan(1000);
        await deliverMarker(testApp.database, [otherStream]);
        expect(otherStream.ended).toBe(false);
      } finally {
        for (const stream of streams) stream.close();
      }
    });
  },
);
