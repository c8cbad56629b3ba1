import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import type { Order } from '#shared/orders.js';
import type { PaymentStart } from '#shared/payments.js';
import { admins, paymentAttempts, paymentNotices, payments, products, refunds } from '#server/db/schema.js';
import { fillCart, placeOrder } from './shopper.js';
import { signIn } from './sign-in.js';
import { describeEachDatabase } from './test-app.js';
import { testProduct } from './test-products.js';

// A leva shop taking payments through ePay.bg: the signed request the buyer's browser posts to ePay,
// and ePay's notifications, checked by their checksum and answered per invoice as ePay expects.

const SECRET = 'EPAYTESTSECRET0123456789ABCDEFGH';
const EPAY_SHOP = { PAYMENT_PROVIDER: 'epay', PAYMENT_METHODS: 'card,pay_by_link', EPAY_MIN: 'D123456789', EPAY_SECRET: SECRET, EPAY_URL: 'https://demo.epay.bg/' };

const checksum = (encoded: string, secret = SECRET) => createHmac('sha1', secret).update(encoded).digest('hex');

/** A notification as ePay's server posts it: the lines base64-encoded, signed, form-encoded. */
function notification(lines: string[], secret = SECRET): string {
  const encoded = Buffer.from(lines.join('\n') + '\n').toString('base64');
  return new URLSearchParams({ encoded, checksum: checksum(encoded, secret) }).toString();
}

describeEachDatabase(
  'payments through ePay.bg',
  (context) => {
    let product: string;
    let admin: string;
    beforeAll(async () => {
      const testApp = context();
      [{ id: product }] = (await testApp.database.db.insert(products).values(testProduct({ name: 'Foil Set', priceMinor: 2280, stock: 1000 })).returning({ id: products.id })) as [{ id: string }];
      await testApp.database.db.insert(admins).values({ id: 'owner@epay.test' }).onConflictDoNothing();
      admin = await signIn(testApp, 'owner@epay.test');
    });

    const notify = (body: string) =>
      context().app.inject({ method: 'POST', url: '/api/payments/epay/notify', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: body });

    async function startedOrder(email: string, paymentMethod = 'card'): Promise<{ order: Order; cookie: string; invoice: number; fields: Record<string, string> }> {
      const testApp = context();
      const cookie = await signIn(testApp, email);
      await fillCart(testApp, cookie, [product]);
      const order = await placeOrder(testApp, cookie, { paymentMethod });
      const response = await testApp.app.inject({ method: 'POST', url: `/api/orders/${order.orderId}/payment-session`, headers: { cookie } });
      const { start } = response.json<{ start: PaymentStart }>();
      if (start.kind !== 'form') throw new Error(`ePay takes a posted form: ${response.body}`);
      expect(start.action).toBe('https://demo.epay.bg/');
      const [attempt] = await testApp.database.db.select().from(paymentAttempts).where(eq(paymentAttempts.orderId, order.orderId));
      return { order, cookie, invoice: attempt!.invoice, fields: start.fields };
    }

    const orderOf = async (orderId: string, cookie: string) =>
      (await context().app.inject({ method: 'GET', url: `/api/orders/${orderId}`, headers: { cookie } })).json<{ order: Order }>().order;

    it('sends the buyer to ePay with a signed request of the order’s amount, under the attempt’s invoice number', async () => {
      const { order, invoice, fields } = await startedOrder('request@epay.test');
      expect(fields).toMatchObject({ PAGE: 'credit_paydirect', LANG: 'en', URL_OK: `http://shop.test/checkout/payment/${order.orderId}?returned=back`, URL_CANCEL: `http://shop.test/checkout/payment/${order.orderId}?returned=cancelled` });
      expect(fields.CHECKSUM).toBe(checksum(fields.ENCODED!));
      const lines = Buffer.from(fields.ENCODED!, 'base64').toString('utf8').split('\n');
      const total = order.pricing.total;
      expect(lines).toEqual(
        expect.arrayContaining(['MIN=D123456789', `INVOICE=${invoice}`, `AMOUNT=${Math.trunc(total / 100)}.${String(total % 100).padStart(2, '0')}`, 'CURRENCY=BGN', `DESCR=Order #${order.orderId}`, 'ENCODING=utf-8']),
      );
      expect(lines.find((line) => line.startsWith('EXP_TIME='))).toMatch(/^EXP_TIME=\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}:\d{2}$/);
      // A payment link lets the buyer log in to ePay too.
      expect((await startedOrder('link@epay.test', 'pay_by_link')).fields.PAGE).toBe('paylogin');
    });

    it('records a PAID notice once, answers every invoice line, and leaves denied and unknown ones unpaid', async () => {
      const testApp = context();
      const paid = await startedOrder('paid@epay.test');
      const denied = await startedOrder('denied@epay.test');
      const body = notification([
        `INVOICE=${paid.invoice}:STATUS=PAID:PAY_TIME=20261127103000:STAN=012345:BCODE=A1B2C3`,
        `INVOICE=${denied.invoice}:STATUS=DENIED`,
        'INVOICE=99999999:STATUS=PAID:PAY_TIME=20261127103000:STAN=054321:BCODE=ZZZ999',
      ]);
      for (const attempt of [1, 2]) {
        const answer = await notify(body);
        expect(answer.statusCode, `delivery ${attempt}`).toBe(200);
        expect(answer.headers['content-type']).toMatch(/^text\/plain/);
        expect(answer.body).toBe(`INVOICE=${paid.invoice}:STATUS=OK\nINVOICE=${denied.invoice}:STATUS=OK\nINVOICE=99999999:STATUS=NO\n`);
      }
      expect(await orderOf(paid.order.orderId, paid.cookie)).toMatchObject({ status: 'paid', payment: { method: 'card', amountMinor: paid.order.pricing.total } });
      const recorded = await testApp.database.db.select().from(payments).where(eq(payments.orderId, paid.order.orderId));
      expect(recorded).toEqual([expect.objectContaining({ provider: 'epay', providerReference: `${paid.invoice}/012345` })]);
      expect((await orderOf(denied.order.orderId, denied.cookie)).status).toBe('pending');
      const [deniedAttempt] = await testApp.database.db.select().from(paymentAttempts).where(eq(paymentAttempts.orderId, denied.order.orderId));
      expect(deniedAttempt!.state).toBe('denied');
      const outcomes = (await testApp.database.db.select().from(paymentNotices).where(eq(paymentNotices.orderId, paid.order.orderId))).map((notice) => notice.outcome).sort();
      expect(outcomes).toEqual(['duplicate', 'recorded']);
    });

    it('refuses a notification whose checksum is not the merchant’s, changing nothing', async () => {
      const { order, cookie, invoice } = await startedOrder('forged@epay.test');
      const forged = notification([`INVOICE=${invoice}:STATUS=PAID:PAY_TIME=20261127103000:STAN=000001:BCODE=FAKE01`], 'not-the-secret');
      const answer = await notify(forged);
      expect(answer.statusCode).toBe(400);
      expect(answer.body).toBe('ERR=Not valid CHECKSUM\n');
      expect((await notify('encoded=&checksum=')).statusCode).toBe(400);
      expect((await orderOf(order.orderId, cookie)).status).toBe('pending');
      const [kept] = await context().database.db.select().from(paymentNotices).where(eq(paymentNotices.verified, false));
      expect(kept).toMatchObject({ provider: 'epay', outcome: 'refused' });
    });

    it('records the admin’s refund of an ePay payment, made in ePay’s own dashboard, up to what was paid', async () => {
      const testApp = context();
      const { order, invoice } = await startedOrder('refund@epay.test');
      await notify(notification([`INVOICE=${invoice}:STATUS=PAID:PAY_TIME=20261127103000:STAN=777777:BCODE=OK7777`]));
      const refund = (amountMinor: number, requestId: string) =>
        testApp.app.inject({ method: 'POST', url: `/api/admin/orders/${order.orderId}/refunds`, headers: { cookie: admin }, payload: { requestId, amountMinor, reason: 'a part' } });
      expect((await refund(500, `epay-refund-${order.orderId}-1`)).statusCode).toBe(201);
      expect((await refund(order.pricing.total, `epay-refund-${order.orderId}-2`)).statusCode).toBe(409);
      const made = await testApp.database.db.select().from(refunds).where(eq(refunds.orderId, order.orderId));
      expect(made).toEqual([expect.objectContaining({ amountMinor: 500, method: 'provider', providerReference: null })]);
    });
  },
  EPAY_SHOP,
);
