import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminOrderDetail } from '#shared/admin.js';
import type { OrderMail } from '#shared/order-mails.js';
import { addAdmin } from '#server/auth/roles.js';
import { mailQueue, products } from '#server/db/schema.js';
import { queueMails } from '#server/mail/mail-queue.js';
import { freePort } from '../support/free-port.js';
import { startSmtpInbox, type ReceivedMail, type SmtpInbox } from '../support/smtp-inbox.js';
import { eventually, fillCart, placeOrder, signInThroughInbox } from './shopper.js';
import { createPostgresDatabase, createTestApp, databaseTargets, type TestApp } from './test-app.js';
import { testProduct } from './test-products.js';

async function addProducts(testApp: TestApp): Promise<[string, string]> {
  const rows = await testApp.database.db
    .insert(products)
    .values([testProduct({ name: 'Pearl Set', nameBg: 'Перлен комплект', priceMinor: 1999 }), testProduct({ name: 'Gold Foil', priceMinor: 1000 })])
    .returning({ id: products.id });
  return rows.map((row) => row.id) as [string, string];
}

const mailsOf = (testApp: TestApp, orderId: string) => testApp.database.db.select().from(mailQueue).where(eq(mailQueue.orderId, orderId));

/** Waits until every message of the order has left the queue (sent, failed or replaced). */
const settled = (testApp: TestApp, orderId: string) =>
  eventually(async () => {
    const rows = await mailsOf(testApp, orderId);
    return rows.length > 0 && rows.every((row) => !['queued', 'sending'].includes(row.state)) && rows;
  }, 15_000, `the e-mails of ${orderId}`);

/**
 * Proves that nothing more is on its way without guessing how long it would take: queues one more
 * message through the same queue, after everything else, and waits until it arrives. A worker sends
 * one message at a time, so a message sent twice would have arrived before it. Returns the messages
 * that arrived before the marker, the marker left out.
 */
async function receivedBeforeMarker(testApps: TestApp[], inbox: SmtpInbox, orderId: string): Promise<ReceivedMail[]> {
  const recipients = testApps.map((_, index) => `marker-${index}-${Date.now()}@shop.test`);
  await queueMails(
    testApps[0]!.database.db,
    recipients.map((recipient) => ({ orderId, kind: 'order_placed' as const, recipient, language: 'en' as const })),
  );
  for (const testApp of testApps) testApp.app.mailWorker.wake();
  const markers = await Promise.all(recipients.map((recipient) => inbox.waitForMail(recipient, 15_000)));
  // The marker's row too is marked sent, as the rest are, once the mail server has taken it.
  await settled(testApps[0]!, orderId);
  const last = Math.max(...markers.map((marker) => inbox.messages.indexOf(marker)));
  return inbox.messages.slice(0, last + 1).filter((mail) => !markers.includes(mail));
}

/** Makes the waiting status messages due now, as if their delay had passed, and lets the worker send them. */
async function skipStatusDelay(testApp: TestApp) {
  await testApp.database.db.update(mailQueue).set({ nextAttemptAt: sql`now()` }).where(eq(mailQueue.state, 'queued'));
  testApp.app.mailWorker.wake();
}

for (const target of databaseTargets) {
  describe(`order e-mails [${target}]`, () => {
    let inbox: SmtpInbox;
    let testApp: TestApp;
    let pearl: string;
    let foil: string;
    let admin: string;
    beforeAll(async () => {
      inbox = await startSmtpInbox({ refuse: (address) => address.startsWith('bounce') });
      // Status messages wait an hour here, so that the tests decide when their time has come.
      testApp = await createTestApp(target, { SMTP_URL: inbox.url, STATUS_MAIL_DELAY_SECONDS: '3600', SUPPORT_EMAIL: 'help@shop.test' });
      [pearl, foil] = await addProducts(testApp);
      await addAdmin(testApp.database.db, 'owner@shop.test');
      admin = await signInThroughInbox(testApp, inbox, 'owner@shop.test');
    });
    afterAll(async () => {
      await testApp?.close();
      await inbox?.close();
    });

    it('confirms an order in the language it was placed in, with its lines, totals, address and payment link, and tells the owner', async () => {
      const cookie = await signInThroughInbox(testApp, inbox, 'maria@example.com');
      await fillCart(testApp, cookie, [pearl, pearl, foil]);
      const order = await placeOrder(testApp, cookie, { language: 'bg', paymentMethod: 'pay_by_link' });
      expect(order.pricing).toMatchObject({ subtotal: 4998, tax: 250, shipping: 599, total: 5847 });

      const confirmation = await inbox.waitForMail('maria@example.com');
      expect(confirmation.subject).toBe(`Получихме поръчката ви № ${order.orderId}`);
      expect(confirmation.raw).toMatch(/content-type: text\/plain/i);
      expect(confirmation.raw).toMatch(/content-type: text\/html/i);
      expect(confirmation.raw).toContain(`Message-ID: <`);
      // Both parts decoded: the text for mail clients that show text, the HTML for the others.
      expect(confirmation.text).toContain(`Платете сега: http://shop.test/checkout/payment/${order.orderId}`);
      expect(confirmation.text).not.toMatch(/<\/?[a-z]+[\s>]/i);
      expect(confirmation.html).toContain(`http://shop.test/checkout/payment/${order.orderId}`);
      expect(confirmation.html).toMatch(/<a [^>]*href="http:\/\/shop\.test\/checkout\/payment\//);
      for (const text of [
        'Здравейте,',
        // Quantity × unit price = line total; a single piece is its price.
        'Перлен комплект: 2 × BGN 19,99 = BGN 39,98',
        // No Bulgarian name: the English one stands in.
        'Gold Foil: BGN 10,00',
        'Междинна сума: BGN 49,98',
        'Данък (5%): BGN 2,50',
        'Доставка: BGN 5,99',
        'Общо: BGN 58,47',
        '12 Vitosha Blvd, ap. 4',
        '1000 Sofia Sofia City',
        'България',
        'Начин на плащане: Плащане чрез линк',
        `Платете сега: http://shop.test/checkout/payment/${order.orderId}`,
        `Вижте поръчката си: http://shop.test/profile?order=${order.orderId}`,
        'help@shop.test',
      ]) {
        expect(confirmation.body.replace(/\u00a0/g, ' ')).toContain(text);
      }
      // The stored name is the recipient's full name (perhaps a gift's), so a Bulgarian e-mail greets without it.
      expect(confirmation.body).toMatch(/^Здравейте,$/m);

      const notice = await inbox.waitForMail('owner@shop.test');
      expect(notice.subject).toBe(`New order #${order.orderId}: BGN 58.47`);
      expect(notice.body).toContain(`maria@example.com placed order #${order.orderId} for BGN 58.47.`);
      expect(notice.body).toContain(`http://shop.test/admin?tab=orders&order=${order.orderId}`);
      expect(notice.body).toContain('Payment: Pay by link, not paid yet.');

      const rows = await settled(testApp, order.orderId);
      expect(rows.map((row) => [row.kind, row.recipient, row.language, row.state, row.attempts]).sort()).toEqual([
        ['new_order', 'owner@shop.test', 'en', 'sent', 1],
        ['order_placed', 'maria@example.com', 'bg', 'sent', 1],
      ]);
      expect(inbox.messages.filter((message) => message.to.includes('maria@example.com') && message.subject.includes(order.orderId))).toHaveLength(1);
    });

    it('sends a receipt of a card payment with the amount and only the last four digits', async () => {
      const cookie = await signInThroughInbox(testApp, inbox, 'card@example.com');
      await fillCart(testApp, cookie, [foil]);
      const order = await placeOrder(testApp, cookie, { language: 'en', paymentMethod: 'card' });
      await inbox.waitForMail('card@example.com');
      const paid = await testApp.app.inject({ method: 'POST', url: `/api/orders/${order.orderId}/payment`, headers: { cookie }, payload: { method: 'card', cardLast4: '4242' } });
      expect(paid.statusCode).toBe(200);

      const receipt = await inbox.waitForMail('card@example.com');
      expect(receipt.subject).toBe(`Payment received for order #${order.orderId}`);
      expect(receipt.body).toContain(`We received your payment of BGN 16.49 for order #${order.orderId}.`);
      expect(receipt.body).toContain('Paid by: Card ending in 4242');
      expect(receipt.body).toContain('Amount: BGN 16.49');
      expect(receipt.body).toMatch(/Payment ID: pay_[0-9a-f]{24}/);
      const rows = await settled(testApp, order.orderId);
      expect(rows.filter((row) => row.kind === 'payment_received')).toHaveLength(1);
      // No status message for the payment: the receipt says it.
      expect(rows.filter((row) => row.kind === 'status_changed')).toHaveLength(0);
    });

    it('tells the customer of a status change once, and only of the latest when the admin changes it again before it is sent', async () => {
      const cookie = await signInThroughInbox(testApp, inbox, 'status@example.com');
      await fillCart(testApp, cookie, [foil]);
      const order = await placeOrder(testApp, cookie, { language: 'bg' });
      expect((await inbox.waitForMail('status@example.com')).subject).toBe(`Получихме поръчката ви № ${order.orderId}`);
      await settled(testApp, order.orderId);
      const change = (status: string) =>
        testApp.app.inject({ method: 'PATCH', url: `/api/admin/orders/${order.orderId}/status`, headers: { cookie: admin }, payload: { status } });

      // A slip: sent, then back to preparing, then sent again, all before the first message was due.
      for (const status of ['sent', 'preparing', 'sent']) expect((await change(status)).statusCode).toBe(200);
      const waiting = await mailsOf(testApp, order.orderId);
      expect(waiting.filter((row) => row.kind === 'status_changed').map((row) => [row.orderStatus, row.state])).toEqual([
        ['sent', 'superseded'],
        ['preparing', 'superseded'],
        ['sent', 'queued'],
      ]);
      await skipStatusDelay(testApp);
      const sent = await inbox.waitForMail('status@example.com');
      expect(sent.subject).toBe(`Поръчката ви № ${order.orderId} е на път`);
      expect(sent.body).toContain('12 Vitosha Blvd, ap. 4');
      await settled(testApp, order.orderId);

      // Back and forth around the status already told: nothing new is sent.
      await change('preparing');
      await change('sent');
      await skipStatusDelay(testApp);
      await settled(testApp, order.orderId);
      // Paid and pending have no message of their own, but a change to them replaces one waiting.
      await change('delivered');
      await change('paid');
      await skipStatusDelay(testApp);
      const rows = await settled(testApp, order.orderId);
      expect(rows.filter((row) => row.kind === 'status_changed' && row.state === 'sent').map((row) => row.orderStatus)).toEqual(['sent']);

      await change('cancelled');
      await skipStatusDelay(testApp);
      expect((await inbox.waitForMail('status@example.com')).subject).toBe(`Поръчката ви № ${order.orderId} е отменена`);
      await settled(testApp, order.orderId);
      // The confirmation, "sent" and "cancelled".
      expect(inbox.messages.filter((message) => message.to.includes('status@example.com') && message.subject.includes(order.orderId))).toHaveLength(3);
    });

    it('marks a message refused by the mail server as failed with the reason, shows the admin every message, and resends one', async () => {
      const cookie = await signInThroughInbox(testApp, inbox, 'bounce@example.com').catch(() => undefined);
      // The refused address cannot even sign in by e-mail; its session is made by another address's order here.
      expect(cookie).toBeUndefined();
      const buyer = await signInThroughInbox(testApp, inbox, 'resend@example.com');
      await fillCart(testApp, buyer, [foil]);
      const order = await placeOrder(testApp, buyer);
      await settled(testApp, order.orderId);
      // The owner's notice goes to an address the mail server refuses.
      await testApp.database.db.update(mailQueue).set({ recipient: 'bounce@shop.test', state: 'queued', attempts: 0 }).where(and(eq(mailQueue.orderId, order.orderId), eq(mailQueue.kind, 'new_order')));
      testApp.app.mailWorker.wake();
      const rows = await eventually(async () => {
        const found = await mailsOf(testApp, order.orderId);
        return found.find((row) => row.kind === 'new_order')?.state === 'failed' && found;
      });
      const failed = rows.find((row) => row.kind === 'new_order')!;
      // A permanent refusal is not tried again.
      expect(failed.attempts).toBe(1);
      expect(failed.lastError).toContain('Mailbox unavailable');

      const detail = (await testApp.app.inject({ method: 'GET', url: `/api/admin/orders/${order.orderId}`, headers: { cookie: admin } })).json<AdminOrderDetail>();
      expect(detail.mails.map((mail: OrderMail) => [mail.kind, mail.recipient, mail.state])).toEqual([
        ['order_placed', 'resend@example.com', 'sent'],
        ['new_order', 'bounce@shop.test', 'failed'],
      ]);
      const confirmation = detail.mails[0]!;
      const resend = await testApp.app.inject({ method: 'POST', url: `/api/admin/orders/${order.orderId}/mails/${confirmation.id}/resend`, headers: { cookie: admin } });
      expect(resend.statusCode).toBe(200);
      expect(resend.json<AdminOrderDetail>().mails.map((mail) => [mail.kind, mail.state])).toEqual([
        ['order_placed', 'sent'],
        ['new_order', 'failed'],
        ['order_placed', 'queued'],
      ]);
      await inbox.waitForMail('resend@example.com');
      const again = await inbox.waitForMail('resend@example.com');
      expect(again.subject).toBe(`We received your order #${order.orderId}`);
      await settled(testApp, order.orderId);

      const customer = await testApp.app.inject({ method: 'POST', url: `/api/admin/orders/${order.orderId}/mails/${confirmation.id}/resend`, headers: { cookie: buyer } });
      expect(customer.statusCode).toBe(403);
      const foreign = await testApp.app.inject({ method: 'POST', url: `/api/admin/orders/${order.orderId}/mails/00000000-0000-4000-8000-000000000000/resend`, headers: { cookie: admin } });
      expect(foreign.statusCode).toBe(404);
      const badId = await testApp.app.inject({ method: 'POST', url: `/api/admin/orders/${order.orderId}/mails/not-an-id/resend`, headers: { cookie: admin } });
      expect(badId.statusCode).toBe(400);
    });
  });

  describe(`the owner's notices and sending again [${target}]`, () => {
    let inbox: SmtpInbox;
    let testApp: TestApp;
    let foil: string;
    let owner: string;
    /** While set, the mail server takes messages to the customer only when it is resolved. */
    let holdCustomerMail: { released: Promise<void>; release(): void } | undefined;
    beforeAll(async () => {
      inbox = await startSmtpInbox({ acceptWhen: (to) => (to.includes('twice@example.com') ? holdCustomerMail?.released : undefined) });
      testApp = await createTestApp(target, { SMTP_URL: inbox.url });
      [, foil] = await addProducts(testApp);
      await addAdmin(testApp.database.db, 'owner@shop.test');
      await addAdmin(testApp.database.db, 'helper@shop.test');
      owner = await signInThroughInbox(testApp, inbox, 'owner@shop.test');
    });
    afterAll(async () => {
      await testApp?.close();
      await inbox?.close();
    });

    const useDashboardIn = (cookie: string, language: unknown) =>
      testApp.app.inject({ method: 'PUT', url: '/api/admin/language', headers: { cookie }, payload: { language } });
    /** A second app of the same shop and mail server, with settings of its own. */
    const sameShop = (settings: Record<string, string>) =>
      createTestApp(target, { SMTP_URL: inbox.url, ...settings }, target === 'postgres' ? { databaseUrl: testApp.databaseUrl } : { database: testApp.database });

    it('tells each admin of a new order in the language they last used the dashboard in, English for one who never opened it', async () => {
      expect((await useDashboardIn(owner, 'bg')).statusCode).toBe(204);
      expect((await useDashboardIn(owner, 'de')).statusCode).toBe(400);
      const customer = await signInThroughInbox(testApp, inbox, 'shopper@example.com');
      expect((await useDashboardIn(customer, 'bg')).statusCode).toBe(403);

      await fillCart(testApp, customer, [foil]);
      const order = await placeOrder(testApp, customer, { language: 'en' });
      expect((await inbox.waitForMail('owner@shop.test')).subject).toBe(`Нова поръчка № ${order.orderId}: BGN 16,49`);
      expect((await inbox.waitForMail('helper@shop.test')).subject).toBe(`New order #${order.orderId}: BGN 16.49`);
      expect((await inbox.waitForMail('shopper@example.com')).subject).toBe(`We received your order #${order.orderId}`);

      // Back to English in the dashboard: the next notice follows.
      expect((await useDashboardIn(owner, 'en')).statusCode).toBe(204);
      await fillCart(testApp, customer, [foil]);
      const next = await placeOrder(testApp, customer, { language: 'bg' });
      expect((await inbox.waitForMail('owner@shop.test')).subject).toBe(`New order #${next.orderId}: BGN 16.49`);
      await settled(testApp, next.orderId);
    });

    it('lets ORDER_NOTIFY_LANGUAGE decide for every admin', async () => {
      await useDashboardIn(owner, 'bg');
      const english = await sameShop({ ORDER_NOTIFY_LANGUAGE: 'en' });
      try {
        const customer = await signInThroughInbox(english, inbox, 'override@example.com');
        await fillCart(english, customer, [foil]);
        const order = await placeOrder(english, customer, { language: 'bg' });
        const rows = await settled(english, order.orderId);
        expect(rows.filter((row) => row.kind === 'new_order').map((row) => [row.recipient, row.language]).sort()).toEqual([
          ['helper@shop.test', 'en'],
          ['owner@shop.test', 'en'],
        ]);
        expect((await inbox.waitForMail('owner@shop.test')).subject).toBe(`New order #${order.orderId}: BGN 16.49`);
      } finally {
        await english.close();
      }
    });

    it('tells the addresses ORDER_NOTIFY_EMAILS lists, an admin among them in the language of her dashboard and any other in English', async () => {
      await useDashboardIn(owner, 'bg');
      const listed = await sameShop({ ORDER_NOTIFY_EMAILS: 'owner@shop.test, packing@shop.test' });
      try {
        const customer = await signInThroughInbox(listed, inbox, 'listed@example.com');
        await fillCart(listed, customer, [foil]);
        const order = await placeOrder(listed, customer, { language: 'en' });
        const rows = await settled(listed, order.orderId);
        expect(rows.filter((row) => row.kind === 'new_order').map((row) => [row.recipient, row.language]).sort()).toEqual([
          ['owner@shop.test', 'bg'],
          ['packing@shop.test', 'en'],
        ]);
        expect(rows.filter((row) => row.kind === 'order_placed').map((row) => [row.recipient, row.language])).toEqual([['listed@example.com', 'en']]);
        expect((await inbox.waitForMail('packing@shop.test')).subject).toBe(`New order #${order.orderId}: BGN 16.49`);
      } finally {
        await listed.close();
      }
    });

    it('queues one copy for thirty clicks of Send again at once, and another once that copy has gone', async () => {
      const customer = await signInThroughInbox(testApp, inbox, 'twice@example.com');
      await fillCart(testApp, customer, [foil]);
      const order = await placeOrder(testApp, customer);
      await inbox.waitForMail('twice@example.com');
      const [confirmation] = (await settled(testApp, order.orderId)).filter((row) => row.kind === 'order_placed');
      const subject = `We received your order #${order.orderId}`;
      const delivered = () => inbox.messages.filter((message) => message.to.includes('twice@example.com') && message.subject === subject).length;
      expect(delivered()).toBe(1);

      // The mail server holds the copy until every click is answered, so that it is still waiting for all of them.
      let release!: () => void;
      holdCustomerMail = { released: new Promise<void>((resolve) => (release = resolve)), release };
      const resend = () => testApp.app.inject({ method: 'POST', url: `/api/admin/orders/${order.orderId}/mails/${confirmation!.id}/resend`, headers: { cookie: owner } });
      const answers = await Promise.all(Array.from({ length: 30 }, resend));
      const statuses = answers.map((answer) => answer.statusCode);
      expect(statuses.filter((status) => status === 200)).toHaveLength(1);
      expect(statuses.filter((status) => status === 409)).toHaveLength(29);
      expect(answers.find((answer) => answer.statusCode === 409)!.json()).toMatchObject({ error: { code: 'mail_waiting' } });
      expect((await mailsOf(testApp, order.orderId)).filter((row) => row.kind === 'order_placed')).toHaveLength(2);
      holdCustomerMail.release();
      holdCustomerMail = undefined;
      await inbox.waitForMail('twice@example.com');
      await settled(testApp, order.orderId);
      expect(delivered()).toBe(2);

      // Sent, the message may be sent again.
      expect((await resend()).statusCode).toBe(200);
      await inbox.waitForMail('twice@example.com');
      const rows = await settled(testApp, order.orderId);
      expect(rows.filter((row) => row.kind === 'order_placed').map((row) => row.state)).toEqual(['sent', 'sent', 'sent']);
      expect(delivered()).toBe(3);
    });
  });

  describe(`order e-mails while the mail server is down [${target}]`, () => {
    let inbox: SmtpInbox | undefined;
    let testApp: TestApp;
    let port: number;
    beforeAll(async () => {
      port = await freePort();
      inbox = await startSmtpInbox({ port });
      testApp = await createTestApp(
        target,
        { SMTP_URL: inbox.url, ORDER_NOTIFY_EMAILS: 'shop@shop.test, maker@shop.test', ORDER_NOTIFY_LANGUAGE: 'bg' },
        { mailRetryBaseMs: 200 },
      );
    });
    afterAll(async () => {
      await testApp?.close();
      await inbox?.close();
    });

    it('takes the order at once, keeps the messages while the server is down, and sends each once when it is back', async () => {
      const [, foil] = await addProducts(testApp);
      const cookie = await signInThroughInbox(testApp, inbox!, 'patient@example.com');
      await fillCart(testApp, cookie, [foil]);
      await inbox!.close();
      inbox = undefined;

      const started = Date.now();
      const order = await placeOrder(testApp, cookie);
      expect(Date.now() - started).toBeLessThan(2_000);
      const waiting = await eventually(async () => {
        const rows = await mailsOf(testApp, order.orderId);
        return rows.length === 3 && rows.every((row) => row.state === 'queued' && row.attempts >= 2) && rows;
      });
      expect(waiting.every((row) => /ECONNREFUSED/.test(row.lastError ?? ''))).toBe(true);

      inbox = await startSmtpInbox({ port });
      const confirmation = await inbox.waitForMail('patient@example.com', 15_000);
      expect(confirmation.subject).toBe(`We received your order #${order.orderId}`);
      expect((await inbox.waitForMail('maker@shop.test')).subject).toBe(`Нова поръчка № ${order.orderId}: BGN 16,49`);
      expect((await inbox.waitForMail('shop@shop.test')).subject).toBe(`Нова поръчка № ${order.orderId}: BGN 16,49`);
      const rows = await settled(testApp, order.orderId);
      expect(rows.every((row) => row.state === 'sent' && row.lastError === null)).toBe(true);
      // Nothing more arrives: each message was sent once.
      expect(await receivedBeforeMarker([testApp], inbox, order.orderId)).toHaveLength(3);
      expect(inbox.messages).toHaveLength(4);
    });
  });
}

describe.runIf(databaseTargets.includes('postgres'))('order e-mails from two server processes on one PostgreSQL database', () => {
  let inbox: SmtpInbox;
  let first: TestApp;
  let second: TestApp;
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  beforeAll(async () => {
    inbox = await startSmtpInbox();
    database = await createPostgresDatabase();
    first = await createTestApp('postgres', { SMTP_URL: inbox.url, ORDER_NOTIFY_EMAILS: 'owner@shop.test' }, { databaseUrl: database.url });
    second = await createTestApp('postgres', { SMTP_URL: inbox.url, ORDER_NOTIFY_EMAILS: 'owner@shop.test' }, { databaseUrl: database.url });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await database?.drop();
    await inbox?.close();
  });

  it('sends each message once, whichever process queued it and however many are woken', async () => {
    const [, foil] = await addProducts(first);
    const buyers = Array.from({ length: 12 }, (_, index) => `buyer${index}@example.com`);
    const cookies = await Promise.all(buyers.map((email, index) => signInThroughInbox(index % 2 ? second : first, inbox, email)));
    await Promise.all(cookies.map((cookie, index) => fillCart(index % 2 ? second : first, cookie, [foil])));
    const before = inbox.messages.length;
    const orders = await Promise.all(cookies.map((cookie, index) => placeOrder(index % 2 ? second : first, cookie)));

    await Promise.all(orders.map((order) => settled(first, order.orderId)));
    // One marker for each process's worker, queued after all; every message sent twice would have come before them.
    const orderMails = (await receivedBeforeMarker([first, second], inbox, orders[0]!.orderId)).slice(before);
    expect(orderMails).toHaveLength(24);
    const messageIds = orderMails.map((mail) => /^message-id:\s*(\S+)/im.exec(mail.raw)?.[1]);
    expect(new Set(messageIds).size).toBe(24);
    for (const [index, order] of orders.entries()) {
      expect(orderMails.filter((mail) => mail.to.includes(buyers[index]!))).toHaveLength(1);
      expect(orderMails.filter((mail) => mail.to.includes('owner@shop.test') && mail.subject.includes(order.orderId))).toHaveLength(1);
    }
    const rows = await first.database.db.select().from(mailQueue);
    expect(rows.every((row) => row.state === 'sent' && row.attempts === 1)).toBe(true);
  });
});
