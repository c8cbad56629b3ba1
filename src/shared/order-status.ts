/**
 * Order statuses (spec section 4), plus accepted: a cash-on-delivery order, which waits for no payment
 * before it is prepared (docs/decisions/0016). Nothing else in the code spells a status string.
 */
export const ORDER_STATUSES = ['pending', 'accepted', 'paid', 'preparing', 'ready', 'sent', 'delivered', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

const LEGACY_STATUSES: Readonly<Record<string, OrderStatus>> = {
  ordered: 'pending',
  shipped: 'sent',
  completed: 'delivered',
};

export function isOrderStatus(value: unknown): value is OrderStatus {
  return typeof value === 'string' && (ORDER_STATUSES as readonly string[]).includes(value);
}

/** A status as read from storage: legacy values map to current ones, a missing or unknown one means pending. */
export function normalizeOrderStatus(value: string | null | undefined): OrderStatus {
  if (isOrderStatus(value)) return value;
  return (value && LEGACY_STATUSES[value]) || 'pending';
}

/** The stored values that read as this status, legacy ones included, for filtering in the database. */
export function storedValuesOf(status: OrderStatus): string[] {
  return [status, ...Object.keys(LEGACY_STATUSES).filter((legacy) => LEGACY_STATUSES[legacy] === status)];
}

/** Whether an order with this status is still to be sent: not sent, delivered or cancelled. */
export const isToBeSent = (status: OrderStatus): boolean => status !== 'sent' && status !== 'delivered' && status !== 'cancelled';

/** Position of a status in the customer's order list: open orders first, in the order they progress. */
export function orderStatusRank(status: OrderStatus): number {
  return ORDER_STATUSES.indexOf(status);
}
