import { and, desc, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { TextLanguage } from '#shared/catalog.js';
import type { Currency } from '#shared/money.js';
import { normalizeOrderStatus } from '#shared/order-status.js';
import type { PaymentMethod } from '#shared/orders.js';
import { ONLINE_PAYMENT_METHODS, type PaymentProviderName } from '#shared/payment-methods.js';
import type { NoticeOutcome, PaymentNotice, PaymentStart } from '#shared/payments.js';
import { paymentReturnPath } from '#shared/routes.js';
import type { Database, Executor } from '#server/db/client.js';
import { orders, paymentAttempts, paymentNotices, payments } from '#server/db/schema.js';
import { inTransaction } from '#server/db/transaction.js';
import { HttpError } from '#server/http/errors.js';
import { UUID } from '#server/http/validation.js';
import type { DocumentSettings } from '#server/invoices/issue-documents.js';
import type { ShopMetrics } from '#server/metrics/shop-metrics.js';
import { lockCustomerOrderRow } from '#server/orders/status-changes.js';
import type { AttemptKey, EventAnswer, NotificationAnswer, PaymentEvent, PaymentProvider, ReceivedNotification } from './payment-provider.js';
import { recordRefundReported } from '#server/returns/service.js';
import { moneyDue, paymentStateOfRow, settlePayment } from './service.js';

type OrderRow = typeof orders.$inferSelect;
type AttemptRow = typeof paymentAttempts.$inferSelect;

/** A notification's body as kept for the admin: enough to read it, not enough to fill the disk. */
const KEPT_BODY_CHARS = 64 * 1024;

/**
 * Starts a payment of a customer's pending order with the provider: an attempt of the amount due now
 * is written first (its id and number name it to the provider), then the provider is asked. When the
 * provider cannot be reached, the attempt is marked failed and the order stays payable.
 */
export async function startOnlinePayment(db: Database, provider: PaymentProvider, publicUrl: string, userId: string, orderId: string): Promise<PaymentStart> {
  const { order, attempt } = await inTransaction(db, async (tx) => {
    const order = await lockCustomerOrderRow(tx, userId, orderId);
    if (!order) throw new HttpError(404, 'not_found', `Order ${orderId} not found`);
    const state = await paymentStateOfRow(tx, order);
    if (state !== 'payable' || !ONLINE_PAYMENT_METHODS.includes(order.paymentMethod as PaymentMethod)) {
      throw new HttpError(409, 'order_not_payable', `Order ${orderId} cannot be paid online: ${state}.`);
    }
    if (!provider.currencies.includes(order.currency as Currency)) {
      throw new HttpError(409, 'conflict', `${provider.name} takes no payments in ${order.currency}.`, { messageKey: 'payment.currencyNotTaken' });
    }
    const [attempt] = await tx
      .insert(paymentAttempts)
      .values({ orderId, provider: provider.name, amountMinor: moneyDue(order), currency: order.currency })
      .returning();
    return { order, attempt: attempt! };
  });
  try {
    const started = await provider.startPayment({
      attemptId: attempt.id,
      invoice: attempt.invoice,
      orderId,
      method: order.paymentMethod as PaymentMethod,
      amountMinor: attempt.amountMinor,
      currency: attempt.currency as Currency,
      language: order.language as TextLanguage,
      customerEmail: order.customerEmail,
      returnUrl: `${publicUrl}${paymentReturnPath(orderId, 'back')}`,
      cancelUrl: `${publicUrl}${paymentReturnPath(orderId, 'cancelled')}`,
    });
    await db.update(paymentAttempts).set({ providerReference: started.providerReference }).where(eq(paymentAttempts.id, attempt.id));
    return started.start;
  } catch (error) {
    await db.update(paymentAttempts).set({ state: 'failed' }).where(eq(paymentAttempts.id, attempt.id));
    // The provider's own words go to the log (through the cause), not to the buyer.
    throw Object.assign(new HttpError(503, 'unavailable', 'The payment service cannot be reached just now; the order is kept and can be paid later.', { messageKey: 'payment.providerUnavailable' }), { cause: error });
  }
}

async function findAttempt(tx: Executor, provider: PaymentProviderName, key: AttemptKey): Promise<AttemptRow | undefined> {
  const match = 'attemptId' in key ? eq(paymentAttempts.id, key.attemptId) : eq(paymentAttempts.invoice, key.invoice);
  if ('attemptId' in key && !UUID.test(key.attemptId)) return undefined;
  if ('invoice' in key && !(Number.isSafeInteger(key.invoice) && key.invoice <= 2_147_483_647)) return undefined;
  const [row] = await tx.select().from(paymentAttempts).where(and(match, eq(paymentAttempts.provider, provider)));
  return row;
}

/**
 * A paid event, with the order's row held: the payment is recorded once, of the amount and currency
 * the attempt asked, while the order still waits for it. Anything else is kept for the admin.
 */
async function takePayment(tx: Executor, order: OrderRow, attempt: AttemptRow, event: PaymentEvent, provider: PaymentProviderName, documents: DocumentSettings): Promise<NoticeOutcome> {
  const [existing] = await tx.select().from(payments).where(eq(payments.orderId, order.id));
  if (existing) return existing.provider === provider && existing.providerReference === event.paymentReference ? 'duplicate' : 'paid_twice';
  const amountMinor = event.amountMinor ?? attempt.amountMinor;
  const currency = event.currency ?? attempt.currency;
  if (amountMinor !== attempt.amountMinor || currency !== attempt.currency || amountMinor !== moneyDue(order) || currency !== order.currency) return 'amount_mismatch';
  if (normalizeOrderStatus(order.status) !== 'pending') return 'order_not_payable';
  await settlePayment(tx, order, { method: order.paymentMethod as PaymentMethod, provider, providerReference: event.paymentReference }, documents);
  await tx.update(paymentAttempts).set({ state: 'paid' }).where(eq(paymentAttempts.id, attempt.id));
  return 'recorded';
}

/**
 * One verified event, in one transaction that holds the order's row: so a notice delivered twice, or
 * two notices of one payment at once (Stripe sends the session's and the PaymentIntent's), record one
 * payment, one status change and one receipt. The notice is kept with what was made of it.
 */
async function applyEvent(db: Database, provider: PaymentProviderName, event: PaymentEvent, body: string, documents: DocumentSettings): Promise<{ outcome: NoticeOutcome; method?: PaymentMethod }> {
  return inTransaction(db, async (tx) => {
    if (event.kind === 'refunded') return takeRefundReport(tx, provider, event, body);
    const attempt = event.attempt ? await findAttempt(tx, provider, event.attempt) : undefined;
    const notice = noticeOf(provider, event, body);
    if (!attempt) {
      await tx.insert(paymentNotices).values({ ...notice, orderId: await existingOrderId(tx, event.orderId), outcome: 'unknown_attempt' });
      return { outcome: 'unknown_attempt' };
    }
    if (event.orderId !== null && event.orderId !== attempt.orderId) {
      await tx.insert(paymentNotices).values({ ...notice, orderId: attempt.orderId, outcome: 'order_mismatch' });
      return { outcome: 'order_mismatch' };
    }
    const [order] = await tx.select().from(orders).where(eq(orders.id, attempt.orderId)).for('update');
    let outcome: NoticeOutcome;
    if (event.kind === 'paid') {
      outcome = await takePayment(tx, order!, attempt, event, provider, documents);
    } else if (event.kind === 'denied' || event.kind === 'expired') {
      const ended = await tx
        .update(paymentAttempts)
        .set({ state: event.kind })
        .where(and(eq(paymentAttempts.id, attempt.id), eq(paymentAttempts.state, 'started')))
        .returning({ id: paymentAttempts.id });
      outcome = ended.length > 0 ? 'recorded' : 'duplicate';
    } else {
      outcome = 'noted';
    }
    await tx.insert(paymentNotices).values({ ...notice, orderId: attempt.orderId, outcome });
    return { outcome, method: order!.paymentMethod as PaymentMethod };
  });
}

/** What a notice is kept as, besides its order and outcome. */
const noticeOf = (provider: PaymentProviderName, event: PaymentEvent, body: string) => ({
  provider,
  verified: true,
  eventId: event.eventId.slice(0, 200),
  eventType: event.eventType.slice(0, 100),
  amountMinor: event.amountMinor,
  currency: event.currency?.slice(0, 3) ?? null,
  body: body.slice(0, KEPT_BODY_CHARS),
});

/**
 * A provider's report of how much of a payment has been refunded in all: the payment it names gives
 * the order, whose row is held while what the shop has not recorded yet is recorded (a refund made in
 * the provider's dashboard). The shop's own refunds are recorded as they are made, so their reports
 * find nothing missing.
 */
async function takeRefundReport(tx: Executor, provider: PaymentProviderName, event: PaymentEvent, body: string): Promise<{ outcome: NoticeOutcome }> {
  const [payment] = event.paymentReference
    ? await tx.select().from(payments).where(and(eq(payments.provider, provider), eq(payments.providerReference, event.paymentReference)))
    : [];
  if (!payment || event.amountMinor === null) {
    await tx.insert(paymentNotices).values({ ...noticeOf(provider, event, body), orderId: null, outcome: 'unknown_attempt' });
    return { outcome: 'unknown_attempt' };
  }
  const [order] = await tx.select().from(orders).where(eq(orders.id, payment.orderId)).for('update');
  const recorded =
    event.currency === order!.currency && (await recordRefundReported(tx, order!, event.amountMinor, `${provider}-refunded-${event.paymentReference}-${event.amountMinor}`, null));
  const outcome: NoticeOutcome = event.currency !== order!.currency ? 'amount_mismatch' : recorded ? 'recorded' : 'noted';
  await tx.insert(paymentNotices).values({ ...noticeOf(provider, event, body), orderId: order!.id, outcome });
  return { outcome };
}

/** The order a notice names, when there is such an order: a refused notice may name anything. */
async function existingOrderId(tx: Executor, orderId: string | null): Promise<string | null> {
  if (!orderId) return null;
  const [row] = await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, orderId));
  return row?.id ?? null;
}

const ANSWERS: Record<NoticeOutcome, EventAnswer> = {
  recorded: 'ok',
  duplicate: 'ok',
  amount_mismatch: 'ok',
  order_not_payable: 'ok',
  paid_twice: 'ok',
  noted: 'ok',
  unknown_attempt: 'unknown',
  order_mismatch: 'unknown',
  refused: 'unknown',
};

/**
 * A provider's notification as it arrived: checked first, on the raw body; refused unread (and kept)
 * when its signature is not right; else each event taken in its own transaction, and answered as
 * the provider expects. An event that fails is answered as an error, so that the provider sends it again.
 */
export async function takeNotification(
  db: Database,
  provider: PaymentProvider,
  notification: ReceivedNotification,
  context: { documents: DocumentSettings; metrics: ShopMetrics; log: FastifyBaseLogger },
): Promise<NotificationAnswer> {
  const reading = await provider.readNotification(notification);
  const body = notification.body.slice(0, KEPT_BODY_CHARS);
  if (!reading.verified) {
    context.log.warn({ provider: provider.name, reason: reading.reason }, 'Payment notification refused');
    await db.insert(paymentNotices).values({ provider: provider.name, verified: false, orderId: await existingOrderId(db, reading.claimedOrderId), outcome: 'refused', body });
    return provider.refusedNotificationAnswer(reading.reason);
  }
  const results: Array<{ event: PaymentEvent; answer: EventAnswer }> = [];
  for (const event of reading.events) {
    try {
      const { outcome, method } = await applyEvent(db, provider.name, event, body, context.documents);
      if (outcome === 'recorded' && event.kind === 'paid' && method) context.metrics.countPayment(method, 'succeeded');
      if (outcome !== 'recorded' && outcome !== 'duplicate' && outcome !== 'noted') context.log.warn({ provider: provider.name, event: event.eventId, outcome }, 'Payment notification kept for the admin');
      results.push({ event, answer: ANSWERS[outcome] });
    } catch (error) {
      context.log.error({ err: error, provider: provider.name, event: event.eventId }, 'Payment notification not taken; the provider will send it again');
      results.push({ event, answer: 'error' });
    }
  }
  return provider.answerNotification(results);
}

/** The notifications providers sent about an order, newest first, for the admin. */
export async function paymentNoticesOf(db: Executor, orderId: string): Promise<PaymentNotice[]> {
  const rows = await db.select().from(paymentNotices).where(eq(paymentNotices.orderId, orderId)).orderBy(desc(paymentNotices.receivedAt)).limit(100);
  return rows.map((row) => ({
    id: row.id,
    provider: row.provider as PaymentProviderName,
    receivedAt: row.receivedAt.toISOString(),
    verified: row.verified,
    eventType: row.eventType,
    amountMinor: row.amountMinor,
    currency: row.currency,
    outcome: row.outcome as NoticeOutcome,
  }));
}
