import { and, asc, count, desc, eq, inArray, like, or, type SQL } from 'drizzle-orm';
import type { Country } from '../../shared/addresses.js';
import { MAX_ADMIN_PAGE_SIZE, type AdminOrderPage } from '../../shared/admin.js';
import type { Currency } from '../../shared/money.js';
import { normalizeOrderStatus, orderStatusRank, ORDER_STATUSES, storedValuesOf, type OrderStatus } from '../../shared/order-status.js';
import type { Order, OrderStatusChange, PaymentMethod } from '../../shared/orders.js';
import type { Database, Executor } from '../db/client.js';
import { orderItems, orders, orderStatusChanges, payments } from '../db/schema.js';
import { HttpError } from '../http/errors.js';

// Reading orders: an order's rows as the API shows them, the customer's orders and the admin's pages.

export type OrderRow = typeof orders.$inferSelect;
type OrderItemRow = typeof orderItems.$inferSelect;
type PaymentRow = typeof payments.$inferSelect;
export type StatusChangeRow = typeof orderStatusChanges.$inferSelect;

/** The column holding the first time an order entered each status (every time is in order_status_changes). */
export const STATUS_TIME_COLUMNS = {
  pending: 'pendingAt',
  paid: 'paidAt',
  preparing: 'preparingAt',
  ready: 'readyAt',
  sent: 'sentAt',
  delivered: 'deliveredAt',
  cancelled: 'cancelledAt',
} as const satisfies Record<OrderStatus, keyof OrderRow>;

export function toOrder(row: OrderRow, items: OrderItemRow[], payment: PaymentRow | undefined, history: StatusChangeRow[]): Order {
  const statusTimes: Order['statusTimes'] = { pending: row.createdAt.toISOString() };
  for (const status of ORDER_STATUSES) {
    const time = row[STATUS_TIME_COLUMNS[status]];
    if (time) statusTimes[status] = time.toISOString();
  }
  return {
    orderId: row.id,
    customerEmail: row.customerEmail,
    status: normalizeOrderStatus(row.status),
    createdAt: row.createdAt.toISOString(),
    orderedAt: row.orderedAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    statusTimes,
    statusHistory: history
      .sort((a, b) => a.position - b.position)
      .map((change): OrderStatusChange => ({ status: normalizeOrderStatus(change.status), at: change.changedAt.toISOString() })),
    items: items
      .sort((a, b) => a.position - b.position)
      .map((item) => ({ productId: item.productId, name: { en: item.nameEn, bg: item.nameBg }, priceMinor: item.priceMinor, quantity: item.quantity, addedAt: item.addedAt?.toISOString() ?? null })),
    currency: row.currency as Currency,
    pricing: {
      subtotal: row.subtotalMinor,
      tax: row.taxMinor,
      shipping: row.shippingMinor,
      fee: row.feeMinor,
      total: row.totalMinor,
      taxIncluded: row.taxIncluded,
      taxRateBasisPoints: row.taxRateBasisPoints,
    },
    itemSummary: { count: row.itemCount, description: row.itemDescription },
    shippingAddress: {
      fullName: row.shippingFullName,
      streetAddress: row.shippingStreetAddress,
      apartment: row.shippingApartment ?? '',
      city: row.shippingCity,
      state: row.shippingState,
      postalCode: row.shippingPostalCode,
      country: row.shippingCountry as Country,
      phone: row.shippingPhone,
    },
    paymentMethod: row.paymentMethod as PaymentMethod,
    checkoutUrl: row.checkoutUrl,
    paymentReference: row.paymentReference,
    payment: payment
      ? {
          paymentId: payment.paymentId,
          method: payment.method as PaymentMethod,
          amountMinor: payment.amountMinor,
          processedAt: payment.processedAt.toISOString(),
          ...(payment.cardLast4 ? { cardLast4: payment.cardLast4 } : {}),
        }
      : null,
  };
}

/** Full orders for the given rows, with their items, payments and status histories fetched in three queries. */
export async function withDetails(db: Executor, rows: OrderRow[]): Promise<Order[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  // One after another: inside a transaction (a repeated checkout's) the executor is one connection,
  // which must not be handed a query while it runs another (pg deprecates it, and pg 9 refuses it).
  const items = await db.select().from(orderItems).where(inArray(orderItems.orderId, ids));
  const paid = await db.select().from(payments).where(inArray(payments.orderId, ids));
  const history = await db.select().from(orderStatusChanges).where(inArray(orderStatusChanges.orderId, ids)).orderBy(asc(orderStatusChanges.position));
  return rows.map((row) =>
    toOrder(
      row,
      items.filter((item) => item.orderId === row.id),
      paid.find((payment) => payment.orderId === row.id),
      history.filter((change) => change.orderId === row.id),
    ),
  );
}

async function findOrderRow(db: Executor, orderId: string): Promise<OrderRow | undefined> {
  const [row] = await db.select().from(orders).where(eq(orders.id, orderId));
  return row;
}

/** A customer's order; someone else's order is refused without showing any of it. */
export async function getCustomerOrder(db: Executor, userId: string, orderId: string): Promise<Order> {
  const row = await findOrderRow(db, orderId);
  if (!row) throw new HttpError(404, 'not_found', `Order ${orderId} not found`);
  if (row.userId !== userId) throw new HttpError(403, 'forbidden', "You don't have permission to view this order.");
  const [order] = await withDetails(db, [row]);
  return order!;
}

/** The customer's newest orders, open ones first in the order statuses progress, then newest first. */
export async function listCustomerOrders(db: Executor, email: string, limit = 100): Promise<Order[]> {
  const rows = await db.select().from(orders).where(eq(orders.customerEmail, email)).orderBy(desc(orders.createdAt)).limit(limit);
  const list = await withDetails(db, rows);
  return list.sort((a, b) => orderStatusRank(a.status) - orderStatusRank(b.status) || b.createdAt.localeCompare(a.createdAt));
}

export interface OrderQuery {
  status?: OrderStatus;
  /** Any part of a customer e-mail, or the beginning of an order id. */
  search?: string;
  page: number;
  pageSize: number;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

/**
 * One page of orders, newest first, filtered in the database: by status (index on status), by any part
 * of the e-mail (trigram index) or by the beginning of the order id (index on id).
 */
export async function searchOrders(db: Database, query: OrderQuery): Promise<AdminOrderPage> {
  const pageSize = Math.min(Math.max(query.pageSize, 1), MAX_ADMIN_PAGE_SIZE);
  const conditions: SQL[] = [];
  if (query.status) conditions.push(inArray(orders.status, storedValuesOf(query.status)));
  const search = query.search?.trim();
  if (search) {
    conditions.push(
      // E-mails are stored lower-cased and order ids upper-cased, so LIKE (which the indexes serve) suffices.
      or(like(orders.customerEmail, `%${escapeLike(search.toLowerCase())}%`), like(orders.id, `${escapeLike(search.toUpperCase())}%`))!,
    );
  }
  const where = conditions.length ? and(...conditions) : undefined;
  const [rows, [counted]] = await Promise.all([
    db
      .select({
        id: orders.id,
        customerEmail: orders.customerEmail,
        status: orders.status,
        createdAt: orders.createdAt,
        totalMinor: orders.totalMinor,
        currency: orders.currency,
        itemCount: orders.itemCount,
        paymentMethod: orders.paymentMethod,
      })
      .from(orders)
      .where(where)
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .limit(pageSize)
      .offset((query.page - 1) * pageSize),
    db.select({ total: count() }).from(orders).where(where),
  ]);
  return {
    orders: rows.map((row) => ({
      orderId: row.id,
      customerEmail: row.customerEmail,
      status: normalizeOrderStatus(row.status),
      createdAt: row.createdAt.toISOString(),
      totalMinor: row.totalMinor,
      currency: row.currency as Currency,
      itemCount: row.itemCount,
      paymentMethod: row.paymentMethod as PaymentMethod,
    })),
    total: counted?.total ?? 0,
    page: query.page,
    pageSize,
  };
}

export async function getOrder(db: Database, orderId: string): Promise<Order> {
  const row = await findOrderRow(db, orderId);
  if (!row) throw new HttpError(404, 'not_found', `Order ${orderId} not found`);
  return (await withDetails(db, [row]))[0]!;
}

