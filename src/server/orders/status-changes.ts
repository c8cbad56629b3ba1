import { and, eq, isNotNull, sql, type Placeholder } from 'drizzle-orm';
import type { TextLanguage } from '#shared/catalog.js';
import { normalizeOrderStatus, type OrderStatus } from '#shared/order-status.js';
import type { Order } from '#shared/orders.js';
import type { Database, Executor } from '#server/db/client.js';
import { orderItems, orders, orderStatusChanges } from '#server/db/schema.js';
import { inTransaction } from '#server/db/transaction.js';
import { HttpError } from '#server/http/errors.js';
import { announceChange } from '#server/notices/live-hub.js';
import { cancelSoldGiftCards, giveBackGiftCardPayment, retakeGiftCardPayment } from '#server/promotions/gift-cards.js';
import { combinationCountKey, readCombinationStockForOrder, readStockForOrder, returnStock, takeStock } from '#server/stock/service.js';
import { queueStatusMail, scheduleReviewRequest, type OrderMailSettings } from './order-mails.js';
import { getOrder, STATUS_TIME_COLUMNS, type OrderRow, type StatusChangeRow } from './order-queries.js';

// Status changes, from the admin or a payment, and what follows each: the history, the customer's
// live pages, the status mail and the stock.

/** A customer's order row, locked inside the caller's transaction while it is being paid. */
export async function lockCustomerOrderRow(tx: Executor, userId: string, orderId: string): Promise<OrderRow | undefined> {
  const [row] = await tx
    .select()
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.userId, userId)))
    .for('update');
  return row;
}

/**
 * Adds a status to the end of an order's history. Callers hold the order's row (a new order, or one
 * they updated or locked), so two changes of one order cannot take the same position.
 */
async function recordStatusChange(tx: Executor, orderId: string, status: OrderStatus, at: Date): Promise<StatusChangeRow> {
  const [change] = await tx
    .insert(orderStatusChanges)
    .values({
      orderId,
      status,
      changedAt: at,
      position: sql`(select coalesce(max(position) + 1, 0) from order_status_changes where order_id = ${orderId})`,
    })
    .returning();
  return change!;
}

/**
 * The first entry of a new order's history, the status it was placed in (pending, or accepted for
 * cash on delivery) since the order's creation, as an insert not yet run: the checkout runs it within
 * its own statement. now() is the transaction's start, the moment the order's created_at records, and
 * the order has no other entry yet, so its position is 0.
 */
export function firstStatusChange(tx: Executor, orderId: Placeholder, status: OrderStatus) {
  return tx.insert(orderStatusChanges).values({ orderId, status, position: 0, changedAt: sql`now()` });
}

/**
 * Sets a status inside the caller's transaction (spec section 4: the status, updatedAt and the time
 * named after the status) and adds it to the order's history. The time named after the status keeps
 * the first time the order entered it, so setting Paid again leaves the time of the payment.
 */
export async function setOrderStatus(tx: Executor, orderId: string, status: OrderStatus, now = new Date()): Promise<OrderRow | undefined> {
  const column = STATUS_TIME_COLUMNS[status];
  const [row] = await tx
    .update(orders)
    .set({ status, updatedAt: now, [column]: sql`coalesce(${orders[column]}, ${now.toISOString()}::timestamptz)` })
    .where(eq(orders.id, orderId))
    .returning();
  if (!row) return undefined;
  await recordStatusChange(tx, orderId, status, now);
  await announceChange(tx, row.userId, 'orders');
  return row;
}

/**
 * Any status from any status (spec section 4); the customer's open pages hear of it. Setting the
 * status the order already has (a repeated click, two admins at once) changes and announces nothing.
 * The customer is told of the change by e-mail (see queueStatusMail), and asked for a review some
 * days after delivery (scheduleReviewRequest). Cancelling puts the order's
 * pieces back in stock; reopening a cancelled order takes them again, and is refused with
 * stock_short (changing nothing) when they are no longer there.
 */
export async function changeOrderStatus(db: Database, orderId: string, status: OrderStatus, mailSettings: OrderMailSettings): Promise<Order> {
  const found = await inTransaction(db, async (tx) => {
    const [row] = await tx
      .select({ status: orders.status, customerEmail: orders.customerEmail, language: orders.language })
      .from(orders)
      .where(eq(orders.id, orderId))
      .for('update');
    if (!row) return false;
    const before = normalizeOrderStatus(row.status);
    if (before === status) return true;
    if (status === 'cancelled') {
      await giveBackOnCancellation(tx, orderId);
    } else if (before === 'cancelled') {
      await retakeStock(db, tx, orderId);
      await retakeGiftCardPayment(tx, orderId);
    }
    await setOrderStatus(tx, orderId, status);
    const addressee = { orderId, customerEmail: row.customerEmail, language: row.language as TextLanguage };
    await queueStatusMail(tx, mailSettings, addressee, status);
    await scheduleReviewRequest(tx, mailSettings, addressee, status);
    return true;
  });
  if (!found) throw new HttpError(404, 'not_found', `Order ${orderId} not found`);
  return getOrder(db, orderId);
}

/**
 * What cancelling an order gives back, in the caller's transaction, whoever cancels it: its pieces to
 * stock, what a gift card paid of it to the card, and what is left on the cards it bought (void now).
 */
export async function giveBackOnCancellation(tx: Executor, orderId: string): Promise<void> {
  await returnStock(tx, orderId);
  await giveBackGiftCardPayment(tx, orderId);
  await cancelSoldGiftCards(tx, orderId);
}

/**
 * Takes again the pieces of a cancelled order that is being reopened, in the caller's transaction,
 * each from the count it was taken from. A line whose product or combination no longer exists takes
 * nothing, as there is nothing left to take it from.
 */
async function retakeStock(db: Database, tx: Executor, orderId: string): Promise<void> {
  const items = await tx
    .select({ productId: orderItems.productId, nameEn: orderItems.nameEn, nameBg: orderItems.nameBg, quantity: orderItems.quantity, combinationKey: orderItems.combinationKey })
    .from(orderItems)
    .where(and(eq(orderItems.orderId, orderId), isNotNull(orderItems.productId)));
  const counts = await readStockForOrder(
    tx,
    items.map((item) => item.productId!),
  );
  const combinations = await readCombinationStockForOrder(
    tx,
    items.flatMap((item) => (item.combinationKey === null ? [] : [{ productId: item.productId!, key: item.combinationKey }])),
  );
  const lines = items.flatMap((item) => {
    const name = { en: item.nameEn, bg: item.nameBg };
    if (item.combinationKey !== null) {
      const key = combinationCountKey(item.productId!, item.combinationKey);
      return combinations.has(key) ? [{ productId: item.productId!, name, quantity: item.quantity, stock: combinations.get(key)!, combinationKey: item.combinationKey }] : [];
    }
    return counts.has(item.productId!) ? [{ productId: item.productId!, name, quantity: item.quantity, stock: counts.get(item.productId!)! }] : [];
  });
  await takeStock(db, tx, orderId, lines, 'retaken');
}
