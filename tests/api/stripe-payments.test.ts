import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AdminOrderDetail } from '#shared/admin.js';
import type { Order } from '#shared/orders.js';
import type { PaymentStart } from '#shared/payments.js';
import { admins, mailQueue, orderStatusChanges, paymentAttempts, paymentNotices, payments, products, refunds } from '#server/db/schema.js';
import { startStripeTestServer, TEST_STRIPE_KEY, TEST_STRIPE_WEBHOOK_SECRET, type SignedEvent } from '../support/stripe-test-server.js';
import { fillCart, placeOrder } from './shopper.js';
import { signIn } from './sign-in.js';
import { describeEachDatabase, type TestApp } from './test-app.js';
import { testProduct } from './test-products.js';

// A euro shop taking cards through Stripe, against a local server that answers as Stripe's API does:
// the browser never says an order is paid; only a webhook whose signature is right does, once, for
// the order's own amount; every notification is kept; refunds go through Stripe, never more than paid.

const stripe = await startStripeTestServer();
afterAll(() => stripe.close());

const STRIPE_SHOP = {
  SHOP_CURRENCY: 'EUR',
  PAYMENT_PROVIDER: 'stripe',
  PAYMENT_METHODS: 'card',
  STRIPE_SECRET_KEY: TEST_STRIPE_KEY,
  STRIPE_WEBHOOK_SECRET: TEST_STRIPE_WEBHOOK_SECRET,
  STRIPE_API_URL: stripe.url,
};

const deliver = (testApp: TestApp, event: Pick<SignedEvent, 'body' | 'signature'>) =>
  testApp.app.inject({ method: 'POST', url: '/api/payments/stripe/webhook', headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': event.signature }, payload: event.body });

describeEachDatabase(
  'payments through Stripe',
  (context) => {
    let product: string;
    let admin: string;
    beforeAll(async () => {
      const testApp = context();
      [{ id: product }] = (await testApp.database.db.insert(products).values(testProduct({ name: 'Pearl Set', priceMinor: 1738, stock: 1000 })).returning({ id: products.id })) as [{ id: string }];
      await testApp.database.db.insert(admins).values({ id: 'owner@stripe.test' }).onConflictDoNothing();
      admin = await signIn(testApp, 'owner@stripe.test');
    });

    async function cardOrder(email: string): Promise<{ order: Order; cookie: string }> {
      const testApp = context();
      const cookie = await signIn(testApp, email);
      await fillCart(testApp, cookie, [product]);
      return { order: await placeOrder(testApp, cookie, { paymentMethod: 'card' }), cookie };
    }

    async function startPayment(orderId: string, cookie: string): Promise<{ sessionId: string; start: PaymentStart }> {
      const response = await context().app.inject({ method: 'POST', url: `/api/orders/${orderId}/payment-session`, headers: { cookie } });
      expect(response.statusCode, response.body).toBe(200);
      const { start } = response.json<{ start: PaymentStart }>();
      if (start.kind !== 'redirect') throw new Error('Stripe sends the buyer to its page');
      return { sessionId: start.url.split('/').pop()!, start };
    }

    const orderOf = async (orderId: string, cookie: string) =>
      (await context().app.inject({ method: 'GET', url: `/api/orders/${orderId}`, headers: { cookie } })).json<{ order: Order }>().order;

    const countRows = async (table: typeof payments | typeof mailQueue | typeof paymentNotices, where: ReturnType<typeof eq>) => {
      const [row] = await context().database.db.select({ count: sql<number>`count(*)::int` }).from(table).where(where);
      return row!.count;
    };

    const receipts = (orderId: string) => countRows(mailQueue, and(eq(mailQueue.orderId, orderId), eq(mailQueue.kind, 'payment_received'))!);

    it('refuses the browser’s word that an order is paid', async () => {
      const testApp = context();
      const { order, cookie } = await cardOrder('browser@stripe.test');
      expect(order.checkoutUrl).toBe(`http://shop.test/checkout/payment/${order.orderId}`);
      const response = await testApp.app.inject({ method: 'POST', url: `/api/orders/${order.orderId}/payment`, headers: { cookie }, payload: { method: 'card', cardLast4: '4242' } });
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toMatchObject({ code: 'forbidden', messageKey: 'payment.confirmedByProvider' });
      expect((await orderOf(order.orderId, cookie)).status).toBe('pending');
      // The page knows the provider, never its secrets.
      const page = await testApp.app.inject({ method: 'GET', url: `/checkout/payment/${order.orderId}` });
      expect(page.body).toContain('"paymentProvider":"stripe"');
      expect(page.body).not.toContain(TEST_STRIPE_KEY);
      expect(page.body).not.toContain(TEST_STRIPE_WEBHOOK_SECRET);
    });

    it('starts a Checkout Session of the order’s amount, naming the order, with an idempotency key per attempt', async () => {
      const { order, cookie } = await cardOrder('start@stripe.test');
      const { sessionId, start } = await startPayment(order.orderId, cookie);
      expect(start).toEqual({ kind: 'redirect', url: `${stripe.url}/c/pay/${sessionId}` });
      const session = stripe.sessions.get(sessionId)!;
      expect(session).toMatchObject({
        amount_total: order.pricing.total,
        currency: 'eur',
        client_reference_id: order.orderId,
        customer_email: 'start@stripe.test',
        metadata: { orderId: order.orderId },
        intentMetadata: { orderId: order.orderId, attemptId: session.metadata.attemptId },
        success_url: `http://shop.test/checkout/payment/${order.orderId}?returned=back`,
        cancel_url: `http://shop.test/checkout/payment/${order.orderId}?returned=cancelled`,
      });
      const request = stripe.requests.find((made) => made.path === '/v1/checkout/sessions' && made.body.client_reference_id === order.orderId)!;
      expect(request.idempotencyKey).toBe(`attempt-${session.metadata.attemptId}`);
      const [attempt] = await context().database.db.select().from(paymentAttempts).where(eq(paymentAttempts.orderId, order.orderId));
      expect(attempt).toMatchObject({ id: session.metadata.attemptId, provider: 'stripe', amountMinor: order.pricing.total, currency: 'EUR', providerReference: sessionId, state: 'started' });
      // A second attempt is a new session under its own key.
      const again = await startPayment(order.orderId, cookie);
      expect(again.sessionId).not.toBe(sessionId);
    });

    it('marks the order paid once from the signed webhooks, however often and however concurrently they come', async () => {
      const testApp = context();
      const { order, cookie } = await cardOrder('paid@stripe.test');
      const { sessionId } = await startPayment(order.orderId, cookie);
      const [completed, succeeded] = stripe.complete(sessionId) as [SignedEvent, SignedEvent];
      // Both events of the payment, each several times, at once.
      const copies = 6;
      const answers = await Promise.all(Array.from({ length: copies }, (_, index) => deliver(testApp, index % 2 === 0 ? completed : succeeded)));
      expect(answers.map((answer) => answer.statusCode)).toEqual(Array(copies).fill(200));
      const paid = await orderOf(order.orderId, cookie);
      expect(paid.status).toBe('paid');
      expect(paid.payment).toMatchObject({ method: 'card', amountMinor: order.pricing.total });
      const [payment] = await testApp.database.db.select().from(payments).where(eq(payments.orderId, order.orderId));
      expect(payment).toMatchObject({ provider: 'stripe', providerReference: stripe.sessions.get(sessionId)!.payment_intent });
      expect(await receipts(order.orderId)).toBe(1);
      expect(await countRows(paymentNotices, eq(paymentNotices.orderId, order.orderId))).toBe(copies);
      const statuses = await testApp.database.db.select().from(orderStatusChanges).where(eq(orderStatusChanges.orderId, order.orderId));
      expect(statuses.map((change) => change.status)).toEqual(['pending', 'paid']);

      // Replayed later: answered, recorded as a repeat, nothing more.
      expect((await deliver(testApp, completed)).statusCode).toBe(200);
      expect(await receipts(order.orderId)).toBe(1);
      expect(await countRows(payments, eq(payments.orderId, order.orderId))).toBe(1);

      // The admin reads every notice on the order.
      const detail = (await testApp.app.inject({ method: 'GET', url: `/api/admin/orders/${order.orderId}`, headers: { cookie: admin } })).json<AdminOrderDetail>();
      expect(detail.paymentNotices).toHaveLength(copies + 1);
      expect(detail.paymentNotices.filter((notice) => notice.outcome === 'recorded')).toHaveLength(1);
      expect(detail.paymentNotices.every((notice) => notice.verified && notice.provider === 'stripe')).toBe(true);
    });

    it('refuses tampered, unsigned, expired and foreign-signed notifications, keeping each for the admin', async () => {
      const testApp = context();
      const { order, cookie } = await cardOrder('forged@stripe.test');
      const { sessionId } = await startPayment(order.orderId, cookie);
      const [completed] = stripe.complete(sessionId) as [SignedEvent];
      const tampered = { body: completed.body.replace(/"amount_total": \d+/, '"amount_total": 1'), signature: completed.signature };
      expect(tampered.body).not.toBe(completed.body);
      const session = stripe.sessions.get(sessionId)!;
      const expired = stripe.signedEvent('checkout.session.completed', session, { timestamp: Math.floor(Date.now() / 1000) - 600 });
      const foreign = stripe.signedEvent('checkout.session.completed', session, { secret: 'whsec_someoneElse' });
      for (const event of [tampered, { body: completed.body, signature: '' }, expired, foreign]) {
        const answer = await deliver(testApp, event);
        expect(answer.statusCode).toBe(400);
      }
      expect((await orderOf(order.orderId, cookie)).status).toBe('pending');
      expect(await countRows(payments, eq(payments.orderId, order.orderId))).toBe(0);
      const kept = await testApp.database.db.select().from(paymentNotices).where(eq(paymentNotices.orderId, order.orderId));
      expect(kept).toHaveLength(4);
      expect(kept.every((notice) => !notice.verified && notice.outcome === 'refused')).toBe(true);
      // The real one still goes through.
      expect((await deliver(testApp, completed)).statusCode).toBe(200);
      expect((await orderOf(order.orderId, cookie)).status).toBe('paid');
    });

    it('never marks paid an amount or currency that is not the order’s, a cancelled order, or an unknown payment', async () => {
      const testApp = context();
      const { order, cookie } = await cardOrder('mismatch@stripe.test');
      const { sessionId } = await startPayment(order.orderId, cookie);
      const session = stripe.sessions.get(sessionId)!;
      const paidSession = { ...session, payment_status: 'paid', status: 'complete', payment_intent: 'pi_test_short' };
      for (const wrong of [{ amount_total: order.pricing.total - 1 }, { currency: 'bgn' }]) {
        expect((await deliver(testApp, stripe.signedEvent('checkout.session.completed', { ...paidSession, ...wrong }))).statusCode).toBe(200);
      }
      const unknown = stripe.signedEvent('checkout.session.completed', { ...paidSession, metadata: { orderId: order.orderId, attemptId: '00000000-0000-4000-8000-000000000000' } });
      expect((await deliver(testApp, unknown)).statusCode).toBe(400);
      const otherOrder = stripe.signedEvent('checkout.session.completed', { ...paidSession, metadata: { ...session.metadata, orderId: 'SOMEONE-ELSES' } });
      expect((await deliver(testApp, otherOrder)).statusCode).toBe(400);
      expect((await orderOf(order.orderId, cookie)).status).toBe('pending');
      const outcomes = (await testApp.database.db.select().from(paymentNotices).where(eq(paymentNotices.orderId, order.orderId))).map((notice) => notice.outcome).sort();
      expect(outcomes).toEqual(['amount_mismatch', 'amount_mismatch', 'order_mismatch', 'unknown_attempt']);

      // Cancelled before the money arrived: the notice is kept, the order stays cancelled and unpaid.
      expect((await testApp.app.inject({ method: 'POST', url: `/api/orders/${order.orderId}/cancel`, headers: { cookie } })).statusCode).toBe(200);
      expect((await deliver(testApp, stripe.complete(sessionId)[0]!)).statusCode).toBe(200);
      const cancelled = await orderOf(order.orderId, cookie);
      expect(cancelled).toMatchObject({ status: 'cancelled', payment: null });
      const [last] = await testApp.database.db.select().from(paymentNotices).where(and(eq(paymentNotices.orderId, order.orderId), eq(paymentNotices.outcome, 'order_not_payable')));
      expect(last).toMatchObject({ verified: true, eventType: 'checkout.session.completed' });
    });

    it('keeps the order payable and says so when Stripe cannot be reached', async () => {
      const testApp = context();
      const { order, cookie } = await cardOrder('outage@stripe.test');
      stripe.down = true;
      try {
        const response = await testApp.app.inject({ method: 'POST', url: `/api/orders/${order.orderId}/payment-session`, headers: { cookie } });
        expect(response.statusCode).toBe(503);
        expect(response.json().error).toMatchObject({ code: 'unavailable', messageKey: 'payment.providerUnavailable' });
        expect(response.body).not.toContain(TEST_STRIPE_KEY);
      } finally {
        stripe.down = false;
      }
      const [attempt] = await testApp.database.db.select().from(paymentAttempts).where(eq(paymentAttempts.orderId, order.orderId));
      expect(attempt!.state).toBe('failed');
      expect((await orderOf(order.orderId, cookie)).status).toBe('pending');
      await startPayment(order.orderId, cookie);
    });

    it('refunds through Stripe, in parts and at once, never more than was paid', async () => {
      const testApp = context();
      const { order, cookie } = await cardOrder('refund@stripe.test');
      const { sessionId } = await startPayment(order.orderId, cookie);
      for (const event of stripe.complete(sessionId)) await deliver(testApp, event);
      const intent = stripe.intents.get(stripe.sessions.get(sessionId)!.payment_intent!)!;
      const part = Math.floor(order.pricing.total / 3);
      const parallel = 5;
      const answers = await Promise.all(
        Array.from({ length: parallel }, (_, index) =>
          testApp.app.inject({
            method: 'POST',
            url: `/api/admin/orders/${order.orderId}/refunds`,
            headers: { cookie: admin },
            payload: { requestId: `stripe-refund-${order.orderId}-${index}`, amountMinor: part, reason: 'in parts' },
          }),
        ),
      );
      expect(answers.filter((answer) => answer.statusCode === 201)).toHaveLength(3);
      expect(answers.filter((answer) => answer.statusCode === 409)).toHaveLength(parallel - 3);
      const made = await testApp.database.db.select().from(refunds).where(eq(refunds.orderId, order.orderId));
      expect(made.map((refund) => refund.amountMinor)).toEqual([part, part, part]);
      expect(made.every((refund) => refund.method === 'provider' && refund.providerReference?.startsWith('re_test_'))).toBe(true);
      // Stripe refunded exactly what the shop recorded.
      expect(intent.refunded).toBe(3 * part);
    });

    it('records a refund made in Stripe’s dashboard from Stripe’s report, once, and nothing more for the shop’s own', async () => {
      const testApp = context();
      const { order, cookie } = await cardOrder('dashboard@stripe.test');
      const { sessionId } = await startPayment(order.orderId, cookie);
      for (const event of stripe.complete(sessionId)) await deliver(testApp, event);
      const intentId = stripe.sessions.get(sessionId)!.payment_intent!;
      const refundedInAll = (amount: number) =>
        stripe.signedEvent('charge.refunded', { id: `ch_for_${intentId}`, object: 'charge', amount: order.pricing.total, amount_refunded: amount, currency: 'eur', payment_intent: intentId, refunded: amount === order.pricing.total });
      const refundRows = () => testApp.database.db.select().from(refunds).where(eq(refunds.orderId, order.orderId));

      // 5.00 refunded in the dashboard, reported twice.
      const report = refundedInAll(500);
      expect((await deliver(testApp, report)).statusCode).toBe(200);
      expect((await deliver(testApp, report)).statusCode).toBe(200);
      expect(await refundRows()).toEqual([expect.objectContaining({ amountMinor: 500, method: 'provider', createdBy: null })]);
      expect((await orderOf(order.orderId, cookie)).afterSale).toMatchObject({ refundedMinor: 500 });

      // The shop's own refund, and Stripe's report of both: nothing more.
      const own = await testApp.app.inject({
        method: 'POST',
        url: `/api/admin/orders/${order.orderId}/refunds`,
        headers: { cookie: admin },
        payload: { requestId: `own-refund-${order.orderId}`, amountMinor: 300, reason: 'a nail broke' },
      });
      expect(own.statusCode).toBe(201);
      expect((await deliver(testApp, refundedInAll(800))).statusCode).toBe(200);
      expect((await refundRows()).map((refund) => refund.amountMinor).sort((a, b) => a - b)).toEqual([300, 500]);
      const outcomes = (await testApp.database.db.select().from(paymentNotices).where(and(eq(paymentNotices.orderId, order.orderId), eq(paymentNotices.eventType, 'charge.refunded')))).map(
        (notice) => notice.outcome,
      );
      expect(outcomes.sort()).toEqual(['noted', 'noted', 'recorded']);
    });
  },
  STRIPE_SHOP,
);
