import type { Order } from '../../shared/orders.js';

/**
 * What an order's payment page may offer. Only a pending order can be paid (the server refuses the
 * rest with order_not_payable); a paid one shows the success view; a cancelled one says so, and one
 * the shop moved on without a payment (say, sent by the admin) needs none.
 */
export type PaymentState = 'payable' | 'paid' | 'cancelled' | 'noPaymentNeeded';

export function paymentStateOf(order: Pick<Order, 'status' | 'payment'>): PaymentState {
  if (order.status === 'cancelled') return 'cancelled';
  if (order.payment !== null || order.status === 'paid') return 'paid';
  return order.status === 'pending' ? 'payable' : 'noPaymentNeeded';
}
