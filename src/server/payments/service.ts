import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { TextLanguage } from '#shared/catalog.js';
import { normalizeOrderStatus } from '#shared/order-status.js';
import { paymentStateOf, SIMULATED_COMPLETION_MS, type Order, type PaymentMethod, type PaymentState } from '#shared/orders.js';
import type { Database, Executor } from '#server/db/client.js';
import { orders, payments } from '#server/db/schema.js';
import { inTransaction } from '#server/db/transaction.js';
import { HttpError } from '#server/http/errors.js';
import { issuePaymentDocuments, type DocumentSettings } from '#server/invoices/issue-documents.js';
import type { PaymentOutcome, ShopMetrics } from '#server/metrics/shop-metrics.js';
import { queuePaymentMail, queueStatusMail, type OrderMailSettings } from '#server/orders/order-mails.js';
import { getCustomerOrder } from '#server/orders/order-queries.js';
import { lockCustomerOrderRow, setOrderStatus } from '#server/orders/status-changes.js';
import { issueSoldGiftCards } from '#server/promotions/gift-cards.js';

type OrderRow = typeof orders.$inferSelect;
type PaymentRow = typeof payments.$inferSelect;

const newPaymentId = () => `pay_${randomBytes(12).toString('hex')}`;

/** What the buyer pays by the order's own method: the total less what a gift card paid at checkout. */
export const moneyDue = (order: Pick<OrderRow, 'totalMinor' | 'giftCardMinor'>) => order.totalMinor - order.giftCardMinor;

/** What the order's row (held by the caller) and its recorded payment, if any, allow to be paid. */
export async function paymentStateOfRow(tx: Executor, order: OrderRow): Promise<PaymentState> {
  const [existing] = await tx.select({ paymentId: payments.paymentId }).from(payments).where(eq(payments.orderId, order.id));
  return paymentStateOf({ status: normalizeOrderStatus(order.status), payment: existing, paymentMethod: order.paymentMethod });
}

export interface PaymentDetails {
  method: PaymentMethod;
  cardLast4?: string;
}

/** A refusal is an answer in the 4xx range (the request or the order did not allow the payment); anything else is a fault. */
const outcomeOf = (error: unknown): PaymentOutcome => (error instanceof HttpError && error.statusCode < 500 ? 'refused' : 'failed');

/**
 * Makes a payment that a customer or the admin asked for (once their session or role is checked),
 * and counts it by its method and outcome. The simulated provider's own completions are no request
 * and are not counted.
 */
export async function countedPayment<T>(metrics: ShopMetrics, method: PaymentMethod | 'unknown', pay: () => Promise<T>): Promise<T> {
  let result: T;
  try {
    result = await pay();
  } catch (error) {
    metrics.countPayment(method, outcomeOf(error));
    throw error;
  }
  metrics.countPayment(method, 'succeeded');
  return result;
}

/**
 * Records a simulated payment: one the shop's mock payment page reports, or an overdue pay-by-link
 * order's (orderForPaymentPage). A real provider confirms its payments itself (online-payments.ts),
 * never through the customer's browser. The payment is of what the order leaves due after a gift
 * card (moneyDue; never an amount from the browser) by the order's own method (another is refused); it marks the order paid and queues
 * the customer's receipt. Only a pending order can be paid: any other (paid, sent, cancelled...)
 * answers 409, so a late payment never moves an order's status backwards.
 */
export async function recordPayment(db: Database, userId: string, orderId: string, details: PaymentDetails, documents: DocumentSettings): Promise<Order> {
  await inTransaction(db, async (tx) => {
    const order = await lockCustomerOrderRow(tx, userId, orderId);
    if (!order) throw new HttpError(404, 'not_found', `Order ${orderId} not found`);
    const state = await paymentStateOfRow(tx, order);
    if (state !== 'payable') throw new HttpError(409, 'order_not_payable', `Order ${orderId} cannot be paid: ${state}.`);
    // A payment is made by the order's own method: a customer could otherwise report an online order
    // paid "in cash on delivery", which only the admin records once the courier brings the money.
    if (details.method !== order.paymentMethod) {
      throw new HttpError(400, 'payment_method_mismatch', `Order ${orderId} is paid by ${order.paymentMethod}, not ${details.method}.`);
    }
    await settlePayment(tx, order, { method: details.method, cardLast4: details.method === 'card' ? (details.cardLast4 ?? null) : null }, documents);
  });
  return getCustomerOrder(db, userId, orderId);
}

/**
 * Records the payment of a pending order's whole due amount, in the caller's transaction, which holds
 * the order's row and has checked that it is payable: the order becomes paid, its documents and sold
 * gift cards are issued, and the customer's receipt is queued.
 */
export async function settlePayment(
  tx: Executor,
  order: OrderRow,
  payment: { method: PaymentMethod; cardLast4?: string | null; provider?: string | null; providerReference?: string | null },
  documents: DocumentSettings,
): Promise<void> {
  // One moment for the payment, the order's paid time and its history entry, so that all three agree.
  const processedAt = new Date();
  await tx.insert(payments).values({
    paymentId: newPaymentId(),
    orderId: order.id,
    method: payment.method,
    amountMinor: moneyDue(order),
    processedAt,
    cardLast4: payment.cardLast4 ?? null,
    provider: payment.provider ?? null,
    providerReference: payment.providerReference ?? null,
  });
  await setOrderStatus(tx, order.id, 'paid', processedAt);
  await issuePaymentDocuments(tx, order, documents);
  await issueSoldGiftCards(tx, order);
  await queuePaymentMail(tx, { orderId: order.id, customerEmail: order.customerEmail, language: order.language as TextLanguage });
}

/**
 * The payment of an order that a gift card pays whole, in the checkout's transaction that places it
 * (paid already): recorded as the card's, with the documents it calls for and the customer's receipt.
 */
export async function recordGiftCardPayment(tx: Executor, order: OrderRow, documents: DocumentSettings): Promise<PaymentRow> {
  const [payment] = await tx
    .insert(payments)
    .values({ paymentId: newPaymentId(), orderId: order.id, method: 'gift_card', amountMinor: order.giftCardMinor, processedAt: order.createdAt })
    .returning();
  await issuePaymentDocuments(tx, order, documents);
  await queuePaymentMail(tx, { orderId: order.id, customerEmail: order.customerEmail, language: order.language as TextLanguage });
  return payment!;
}

/**
 * The cash a courier collected for a cash-on-delivery order, recorded by the admin: a payment of what
 * the order leaves due after a gift card, by cash on delivery, and the order delivered (if it was not yet). The customer gets
 * the receipt (and the word that it was delivered).
 */
export async function recordCashPayment(db: Database, orderId: string, mailSettings: OrderMailSettings, documents: DocumentSettings): Promise<void> {
  await inTransaction(db, async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
    if (!order) throw new HttpError(404, 'not_found', `Order ${orderId} not found`);
    const state = await paymentStateOfRow(tx, order);
    if (state !== 'cashOnDelivery') throw new HttpError(409, 'order_not_payable', `Order ${orderId} takes no cash payment: ${state}.`);
    const processedAt = new Date();
    await tx.insert(payments).values({ paymentId: newPaymentId(), orderId, method: 'cash_on_delivery', amountMinor: moneyDue(order), processedAt });
    const addressee = { orderId, customerEmail: order.customerEmail, language: order.language as TextLanguage };
    if (normalizeOrderStatus(order.status) !== 'delivered') {
      await setOrderStatus(tx, orderId, 'delivered', processedAt);
      await queueStatusMail(tx, mailSettings, addressee, 'delivered');
    }
    await issuePaymentDocuments(tx, order, documents);
    await issueSoldGiftCards(tx, order);
    await queuePaymentMail(tx, addressee);
  });
}

/**
 * A bank transfer that reached the shop's account, recorded by the admin: the order's due amount paid
 * by transfer, and the order paid (with its documents and the customer's receipt). Only an order that
 * awaits its transfer takes one; recording it again answers 409.
 */
export async function recordBankTransfer(db: Database, orderId: string, documents: DocumentSettings): Promise<void> {
  await inTransaction(db, async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
    if (!order) throw new HttpError(404, 'not_found', `Order ${orderId} not found`);
    const state = await paymentStateOfRow(tx, order);
    if (state !== 'bankTransfer') throw new HttpError(409, 'order_not_payable', `Order ${orderId} awaits no bank transfer: ${state}.`);
    await settlePayment(tx, order, { method: 'bank_transfer' }, documents);
  });
}

/**
 * A customer's order as the payment page polls it. A pay-by-link order left unpaid for more than
 * 30 seconds is paid by the simulated provider (when the shop takes such payments), so that the page,
 * the profile and the admin agree.
 */
export async function orderForPaymentPage(db: Database, userId: string, orderId: string, simulateLinkPayments: boolean, documents: DocumentSettings): Promise<Order> {
  const order = await getCustomerOrder(db, userId, orderId);
  const overdue = Date.now() - Date.parse(order.createdAt) > SIMULATED_COMPLETION_MS;
  if (simulateLinkPayments && order.status === 'pending' && !order.payment && order.paymentMethod === 'pay_by_link' && overdue) {
    try {
      return await recordPayment(db, userId, orderId, { method: 'pay_by_link' }, documents);
    } catch (error) {
      // Cancelled or paid meanwhile: the page shows the order as it now is.
      if (error instanceof HttpError && error.code === 'order_not_payable') return getCustomerOrder(db, userId, orderId);
      throw error;
    }
  }
  return order;
}
