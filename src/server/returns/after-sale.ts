import { asc, inArray } from 'drizzle-orm';
import { normalizeOrderStatus } from '#shared/order-status.js';
import type { Order } from '#shared/orders.js';
import { CUSTOMER_CANCELLABLE_STATUSES, refundStateOf, withdrawalDeadline, withdrawalOpen, type OrderAfterSale, type RefundMethod, type WithdrawalState } from '#shared/withdrawals.js';
import type { Executor } from '#server/db/client.js';
import { type orders, refunds, withdrawals } from '#server/db/schema.js';

/**
 * Whether buyers may cancel their own orders before they are prepared (CUSTOMER_CANCELLATION). It is
 * the same for every process of a shop, as it comes from its settings, so it can live in memory.
 */
let customerCancellation = true;
export const setCustomerCancellation = (enabled: boolean) => {
  customerCancellation = enabled;
};
export const customerCancellationEnabled = () => customerCancellation;

type OrderRow = typeof orders.$inferSelect;

/** Adds each order's withdrawals, refunds and withdrawal deadline, in two queries for all of them. */
export async function addAfterSale(db: Executor, list: Order[], rows: readonly OrderRow[], now = new Date()): Promise<Order[]> {
  if (list.length === 0) return list;
  const ids = rows.map((row) => row.id);
  const withdrawn = await db.select().from(withdrawals).where(inArray(withdrawals.orderId, ids)).orderBy(asc(withdrawals.submittedAt));
  const refunded = await db.select().from(refunds).where(inArray(refunds.orderId, ids)).orderBy(asc(refunds.createdAt));
  return list.map((order) => {
    const row = rows.find((candidate) => candidate.id === order.orderId)!;
    const status = normalizeOrderStatus(row.status);
    const ownRefunds = refunded.filter((refund) => refund.orderId === order.orderId);
    // Money paid, which refunds give back; a gift card's part goes back to the card when the order is cancelled.
    const paidMinor = order.payment && order.payment.method !== 'gift_card' ? order.payment.amountMinor : 0;
    const refundedMinor = ownRefunds.reduce((sum, refund) => sum + refund.amountMinor, 0);
    const afterSale: OrderAfterSale = {
      withdrawalOpen: withdrawalOpen({ status, deliveredAt: row.deliveredAt }, now),
      withdrawalDeadline: withdrawalDeadline(row.deliveredAt)?.toISOString() ?? null,
      withdrawals: withdrawn
        .filter((withdrawal) => withdrawal.orderId === order.orderId)
        .map((withdrawal) => ({ id: withdrawal.id, state: withdrawal.state as WithdrawalState, submittedAt: withdrawal.submittedAt.toISOString(), receivedAt: withdrawal.receivedAt?.toISOString() ?? null })),
      paidMinor,
      refundedMinor,
      refundState: refundStateOf(paidMinor, refundedMinor),
      refunds: ownRefunds.map((refund) => ({ amountMinor: refund.amountMinor, createdAt: refund.createdAt.toISOString(), method: refund.method as RefundMethod })),
      cancellable: customerCancellation && CUSTOMER_CANCELLABLE_STATUSES.includes(status),
    };
    return { ...order, afterSale };
  });
}

/**
 * Takes the person out of the withdrawals and refunds of a deleting customer's orders, in the
 * caller's transaction (account/service.ts), as anonymiseCustomerOrders does with the orders: the
 * lines, amounts, dates and states stay for the shop's accounts; the name, the address the
 * acknowledgement went to, the reason in the buyer's own words and the IBAN go.
 */
export async function anonymiseAfterSale(tx: Executor, orderIds: readonly string[], placeholder: string): Promise<void> {
  if (orderIds.length === 0) return;
  await tx.update(withdrawals).set({ fullName: '', acknowledgementEmail: placeholder, reason: null, iban: null }).where(inArray(withdrawals.orderId, [...orderIds]));
  await tx.update(refunds).set({ iban: null }).where(inArray(refunds.orderId, [...orderIds]));
}
