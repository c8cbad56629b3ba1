import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { SIMULATED_COMPLETION_MS, type Order, type PaymentMethod } from '../../shared/orders.js';
import type { Database } from '../db/client.js';
import { payments } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import { getCustomerOrder, lockCustomerOrderRow, setOrderStatus } from '../orders/service.js';

export interface PaymentDetails {
  method: PaymentMethod;
  cardLast4?: string;
}

/**
 * The simulated payment provider, behind the interface a real one would have: it records a payment
 * of the order's own total (never an amount from the browser) and marks the order paid. Recording
 * a payment twice changes nothing.
 */
export async function recordPayment(db: Database, userId: string, orderId: string, details: PaymentDetails): Promise<Order> {
  await db.transaction(async (tx) => {
    const order = await lockCustomerOrderRow(tx, userId, orderId);
    if (!order) throw new HttpError(404, 'not_found', `Order ${orderId} not found`);
    const [existing] = await tx.select({ paymentId: payments.paymentId }).from(payments).where(eq(payments.orderId, orderId));
    if (existing) return;
    await tx.insert(payments).values({
      paymentId: `pay_${randomBytes(12).toString('hex')}`,
      orderId,
      method: details.method,
      amountMinor: order.totalMinor,
      processedAt: new Date(),
      cardLast4: details.method === 'card' ? (details.cardLast4 ?? null) : null,
    });
    await setOrderStatus(tx, orderId, 'paid');
  });
  return getCustomerOrder(db, userId, orderId);
}

/**
 * A customer's order as the payment page polls it. A pay-by-link order left unpaid for more than
 * 30 seconds is paid by the simulated provider, so that the page, the profile and the admin agree.
 */
export async function orderForPaymentPage(db: Database, userId: string, orderId: string): Promise<Order> {
  const order = await getCustomerOrder(db, userId, orderId);
  const overdue = Date.now() - Date.parse(order.createdAt) > SIMULATED_COMPLETION_MS;
  if (order.status === 'pending' && !order.payment && order.paymentMethod === 'pay_by_link' && overdue) {
    return recordPayment(db, userId, orderId, { method: 'pay_by_link' });
  }
  return order;
}
