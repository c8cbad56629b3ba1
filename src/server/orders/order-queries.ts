import { and, asc, count, desc, eq, inArray, like, or, sql, type SQL } from 'drizzle-orm';
import { union } from 'drizzle-orm/pg-core';
import type { Country } from '#shared/addresses.js';
import { ADMIN_ORDER_COUNT_LIMIT, MAX_ADMIN_PAGE_SIZE, type AdminOrderPage } from '#shared/admin.js';
import type { DeliveryMethod, OrderShipment } from '#shared/delivery.js';
import type { Currency } from '#shared/money.js';
import { normalizeOrderStatus, orderStatusRank, ORDER_STATUSES, storedValuesOf, type OrderStatus } from '#shared/order-status.js';
import { placedOrderStatus, type Order, type OrderStatusChange, type PaymentMethod, type ShippingAddress } from '#shared/orders.js';
import type { Database, Executor } from '#server/db/client.js';
import { orderCustomerEmails, orderItems, orders, orderStatusChanges, payments, products } from '#server/db/schema.js';
import { shipmentsOf } from '#server/couriers/shipment-views.js';
import { addAfterSale } from '#server/returns/after-sale.js';
import { HttpError } from '#server/http/errors.js';

// Reading orders: an order's rows as the API shows them, the customer's orders and the admin's pages.

export type OrderRow = typeof orders.$inferSelect;
export type OrderItemRow = typeof orderItems.$inferSelect;
type PaymentRow = typeof payments.$inferSelect;
export type StatusChangeRow = typeof orderStatusChanges.$inferSelect;

/** The column holding the first time an order entered each status (every time is in order_status_changes). */
export const STATUS_TIME_COLUMNS = {
  pending: 'pendingAt',
  accepted: 'acceptedAt',
  paid: 'paidAt',
  preparing: 'preparingAt',
  ready: 'readyAt',
  sent: 'sentAt',
  delivered: 'deliveredAt',
  cancelled: 'cancelledAt',
} as const satisfies Record<OrderStatus, keyof OrderRow>;

/** Where the order goes, as its row keeps the address it was placed with. */
export const shippingAddressOf = (row: OrderRow): ShippingAddress => ({
  fullName: row.shippingFullName,
  streetAddress: row.shippingStreetAddress,
  apartment: row.shippingApartment ?? '',
  city: row.shippingCity,
  state: row.shippingState,
  postalCode: row.shippingPostalCode,
  country: row.shippingCountry as Country,
  phone: row.shippingPhone,
});

export function toOrder(row: OrderRow, items: OrderItemRow[], payment: PaymentRow | undefined, history: StatusChangeRow[], shipment?: OrderShipment): Order {
  // The status the order was placed in began when it was created, for orders older than its column too.
  const statusTimes: Order['statusTimes'] = { [placedOrderStatus(row.paymentMethod as PaymentMethod)]: row.createdAt.toISOString() };
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
    dispatchBy: row.dispatchBy,
    statusHistory: history
      .sort((a, b) => a.position - b.position)
      .map((change): OrderStatusChange => ({ status: normalizeOrderStatus(change.status), at: change.changedAt.toISOString() })),
    items: items
      .sort((a, b) => a.position - b.position)
      .map((item) => ({
        productId: item.productId,
        name: { en: item.nameEn, bg: item.nameBg },
        priceMinor: item.priceMinor,
        quantity: item.quantity,
        addedAt: item.addedAt?.toISOString() ?? null,
        choices: item.choices,
        dispatchBy: item.dispatchBy,
      })),
    currency: row.currency as Currency,
    pricing: {
      subtotal: row.subtotalMinor,
      tax: row.taxMinor,
      shipping: row.shippingMinor,
      fee: row.feeMinor,
      total: row.totalMinor,
      taxIncluded: row.taxIncluded,
      taxRateBasisPoints: row.taxRateBasisPoints,
      discount: row.discountMinor,
      discountCode: row.discountCode,
    },
    itemSummary: { count: row.itemCount, description: row.itemDescription },
    shippingAddress: shippingAddressOf(row),
    paymentMethod: row.paymentMethod as PaymentMethod,
    checkoutUrl: row.checkoutUrl,
    paymentReference: row.paymentReference,
    invoiceBuyer: row.invoiceBuyer ?? null,
    delivery: { method: row.deliveryMethod as DeliveryMethod, office: row.deliveryOffice ?? null, shipment: shipment ?? null },
    giftCard: row.giftCardEnding !== null && row.giftCardMinor > 0 ? { ending: row.giftCardEnding, paidMinor: row.giftCardMinor } : null,
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

/** Full orders for the given rows, with their items, payments, status histories, shipments and after-sale facts, a few queries for all the rows. */
export async function withDetails(db: Executor, rows: OrderRow[]): Promise<Order[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  // One after another: inside a transaction (a repeated checkout's) the executor is one connection,
  // which must not be handed a query while it runs another (pg deprecates it, and pg 9 refuses it).
  const items = await db.select().from(orderItems).where(inArray(orderItems.orderId, ids));
  const paid = await db.select().from(payments).where(inArray(payments.orderId, ids));
  const history = await db.select().from(orderStatusChanges).where(inArray(orderStatusChanges.orderId, ids)).orderBy(asc(orderStatusChanges.position));
  const sent = await shipmentsOf(db, ids);
  const list = rows.map((row) =>
    toOrder(
      row,
      items.filter((item) => item.orderId === row.id),
      paid.find((payment) => payment.orderId === row.id),
      history.filter((change) => change.orderId === row.id),
      sent.get(row.id),
    ),
  );
  return addAfterSale(db, list, rows);
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
  /** Any part of a customer e-mail or of an order id (of an id, three characters or more). */
  search?: string;
  /** The page of orders older than this cursor (a nextCursor), or newer than it (a previousCursor); neither for the first page. */
  after?: string;
  before?: string;
  pageSize: number;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

/** A row's place in the list: its creation time to the microsecond (UTC, as PostgreSQL keeps it) and its id. */
interface ListPosition {
  createdAt: string;
  id: string;
}

const CURSOR_TIME = /^[1-9]\d{3}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/;

const encodeCursor = (position: ListPosition) => Buffer.from(JSON.stringify([position.createdAt, position.id])).toString('base64url');

function decodeCursor(cursor: string): ListPosition {
  const invalid = new HttpError(400, 'invalid_cursor', 'This list position is not valid; start again from the first page.');
  let decoded: unknown;
  if (cursor.length > 200) throw invalid;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid;
  }
  if (!Array.isArray(decoded) || decoded.length !== 2) throw invalid;
  const [createdAt, id] = decoded as unknown[];
  if (typeof createdAt !== 'string' || typeof id !== 'string' || id.length === 0 || id.length > 64 || !CURSOR_TIME.test(createdAt)) throw invalid;
  // The pattern lets through days that do not exist (February 31), which PostgreSQL would refuse with an error.
  if (new Date(`${createdAt.slice(0, 23)}Z`).toISOString().slice(0, 23) !== createdAt.slice(0, 23)) throw invalid;
  return { createdAt, id };
}

/** created_at as text to the microsecond: a JavaScript Date keeps only milliseconds, and a cursor must match the row exactly. */
const createdAtText = sql<string>`to_char(${orders.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US')`.as('created_at_text');
const positionOf = (position: ListPosition) => sql`(${position.createdAt}::timestamp at time zone 'UTC', ${position.id})`;

const summaryColumns = {
  id: orders.id,
  customerEmail: orders.customerEmail,
  status: orders.status,
  createdAt: orders.createdAt,
  createdAtText,
  totalMinor: orders.totalMinor,
  currency: orders.currency,
  itemCount: orders.itemCount,
  paymentMethod: orders.paymentMethod,
};

/**
 * Up to `limit` rows next to a position: older ones newest first (`older`), or newer ones oldest first.
 * With `walks`, conditions that together select the rows, each is read as its own ordered query and
 * the results merged: each is a walk of one index ((status, created_at, id) for a stored status value,
 * (customer_email, created_at, id) for an e-mail) that stops after `limit` rows, where `status in (...)`
 * or `customer_email in (...)` would read every matching row to sort them, or walk the whole list
 * newest first past the orders of others.
 */
async function rowsNextTo(db: Database, filters: SQL[], walks: SQL[] | undefined, from: ListPosition | undefined, older: boolean, limit: number) {
  const order = older ? [desc(orders.createdAt), desc(orders.id)] : [asc(orders.createdAt), asc(orders.id)];
  const conditions = from ? [...filters, older ? sql`(${orders.createdAt}, ${orders.id}) < ${positionOf(from)}` : sql`(${orders.createdAt}, ${orders.id}) > ${positionOf(from)}`] : filters;
  const query = (walk?: SQL) =>
    db
      .select(summaryColumns)
      .from(orders)
      .where(and(...conditions, walk))
      .orderBy(...order)
      .limit(limit);
  if (!walks) return query();
  if (walks.length === 1) return query(walks[0]);
  const [first, second, ...rest] = walks.map(query);
  // UNION, not UNION ALL: an order that a search finds both by its id and by its e-mail is in two walks.
  const merged = union(first!, second!, ...rest).as('merged');
  return db
    .select()
    .from(merged)
    .orderBy(...(older ? [desc(merged.createdAt), desc(merged.id)] : [asc(merged.createdAt), asc(merged.id)]))
    .limit(limit);
}

/**
 * Beyond this many e-mails holding a search, the orders are read by the search itself, walking the
 * list newest first: so many customers hold a large part of the orders that a page is found within a
 * few hundred rows, while a list of a thousand e-mails costs more to send and plan than the walk (at
 * 1,000,000 orders, 3x the CPU on PGlite). Up to it, the list lets the count read only matching rows.
 */
export const SEARCH_EMAIL_LIST_LIMIT = 300;
/**
 * Up to this many e-mails, each one's orders are read as a walk of its own (rowsNextTo); beyond it, as
 * one query over all of them, which PostgreSQL plans from its statistics of the e-mails (usually the
 * list newest first, which finds a page of a broad search within a few hundred rows).
 */
const SEARCH_EMAIL_WALK_LIMIT = 16;

interface SearchMatch {
  /** The orders a search matches. */
  condition: SQL;
  /** Conditions that together select the same orders, each one index's walk; absent when there are too many. */
  walks?: SQL[];
}

/** Every order id begins so (checkout.ts). */
const ORDER_ID_PREFIX = 'NA-';
/** The shortest part of an order id found anywhere in it: the trigram index knows no shorter piece. */
const ORDER_ID_PART_MIN_LENGTH = 3;

/**
 * The LIKE pattern of the order ids a search matches: its beginning when it starts as every id does
 * (the prefix index), any part of three characters or more (the trigram index), and otherwise the
 * beginning, which one or two characters after the prefix cannot be, so nothing is read for them.
 */
function orderIdPattern(search: string): string {
  const atStart = search.startsWith(ORDER_ID_PREFIX) || ORDER_ID_PREFIX.startsWith(search) || search.length < ORDER_ID_PART_MIN_LENGTH;
  return atStart ? `${escapeLike(search)}%` : `%${escapeLike(search)}%`;
}

/**
 * What a search matches, or null when nothing can: any part of an e-mail, or of an order id
 * (orderIdPattern). The e-mails come first from order_customer_emails (each once, trigram index), so
 * that the orders are then found by the index on (customer_email, created_at, id); the id's indexes
 * are only asked whether some id matches, so that an e-mail search is not an OR of two indexes.
 */
async function matchSearch(db: Database, search: string): Promise<SearchMatch | null> {
  // E-mails are stored lower-cased and order ids upper-cased, so LIKE (which the indexes serve) suffices.
  const emailPattern = `%${escapeLike(search.toLowerCase())}%`;
  const idPattern = orderIdPattern(search.toUpperCase());
  const [emailRows, idRows] = await Promise.all([
    db
      .select({ email: orderCustomerEmails.email })
      .from(orderCustomerEmails)
      .where(like(orderCustomerEmails.email, emailPattern))
      .limit(SEARCH_EMAIL_LIST_LIMIT + 1),
    db.select({ id: orders.id }).from(orders).where(like(orders.id, idPattern)).limit(1),
  ]);
  const emails = emailRows.map((row) => row.email);
  const byId = idRows.length > 0 ? like(orders.id, idPattern) : undefined;
  if (emails.length > SEARCH_EMAIL_LIST_LIMIT) return { condition: or(like(orders.customerEmail, emailPattern), byId)! };
  const byEmail = emails.length > 0 ? inArray(orders.customerEmail, emails) : undefined;
  const condition = or(byEmail, byId);
  if (!condition) return null;
  if (emails.length > SEARCH_EMAIL_WALK_LIMIT) return { condition };
  return { condition, walks: [...emails.map((email) => eq(orders.customerEmail, email)), ...(byId ? [byId] : [])] };
}

/** Every combination of one condition of each list: the walks of a status's stored values and of a search's e-mails. */
function combinedWalks(first: SQL[] | undefined, second: SQL[] | undefined): SQL[] | undefined {
  if (!first || !second) return first ?? second;
  return first.flatMap((one) => second.map((other) => and(one, other)!));
}

/**
 * One page of orders, newest first, filtered in the database: by status (index on status, created_at,
 * id), by any part of the e-mail or of the order id (matchSearch). Pages are
 * keyset pages (created_at, id) and the count stops at ADMIN_ORDER_COUNT_LIMIT, so that neither grows
 * with the number of orders.
 */
export async function searchOrders(db: Database, query: OrderQuery): Promise<AdminOrderPage> {
  const pageSize = Math.min(Math.max(query.pageSize, 1), MAX_ADMIN_PAGE_SIZE);
  const statusValues = query.status ? storedValuesOf(query.status) : undefined;
  const search = query.search?.trim();
  const match = search ? await matchSearch(db, search) : undefined;
  if (match === null) return emptyPage(pageSize);
  const statusWalks = statusValues?.map((value) => eq(orders.status, value));
  const walks = combinedWalks(statusValues && statusValues.length > 1 ? statusWalks : undefined, match?.walks);
  // What the walks do not say, each page query filters by: a single status value, a search read in one query.
  const filters = [statusValues?.length === 1 ? statusWalks![0]! : undefined, match && !match.walks ? match.condition : undefined].filter((filter) => filter !== undefined);
  const after = query.after === undefined ? undefined : decodeCursor(query.after);
  const before = query.before === undefined ? undefined : decodeCursor(query.before);

  const countMatches = async () => {
    const allFilters = [statusValues ? inArray(orders.status, statusValues) : undefined, match?.condition];
    const capped = db
      .select({ one: sql`1` })
      .from(orders)
      .where(and(...allFilters))
      .limit(ADMIN_ORDER_COUNT_LIMIT + 1)
      .as('capped');
    const [counted] = await db.select({ total: count() }).from(capped);
    return counted?.total ?? 0;
  };
  const readPage = async () => {
    if (before) {
      const newer = await rowsNextTo(db, filters, walks, before, false, pageSize + 1);
      // Fewer newer orders than a page (some were deleted): the previous page is the first one.
      if (newer.length > pageSize) return { rows: newer.slice(0, pageSize).reverse(), newerExist: true, olderExist: true };
    }
    const older = await rowsNextTo(db, filters, walks, before ? undefined : after, true, pageSize + 1);
    return { rows: older.slice(0, pageSize), newerExist: !before && after !== undefined, olderExist: older.length > pageSize };
  };
  const [page, counted] = await Promise.all([readPage(), countMatches()]);

  const { rows } = page;
  const positionAt = (index: number) => ({ createdAt: rows[index]!.createdAtText, id: rows[index]!.id });
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
    total: Math.min(counted, ADMIN_ORDER_COUNT_LIMIT),
    totalIsLowerBound: counted > ADMIN_ORDER_COUNT_LIMIT,
    nextCursor: page.olderExist && rows.length > 0 ? encodeCursor(positionAt(rows.length - 1)) : null,
    // Past the last order (its rows deleted), the way back starts from the cursor that led here.
    previousCursor: page.newerExist ? (rows.length > 0 ? encodeCursor(positionAt(0)) : (query.after ?? null)) : null,
    pageSize,
  };
}

/** The answer to a search that no e-mail or order id holds, wherever the cursor pointed. */
const emptyPage = (pageSize: number): AdminOrderPage => ({ orders: [], total: 0, totalIsLowerBound: false, nextCursor: null, previousCursor: null, pageSize });

export async function getOrder(db: Database, orderId: string): Promise<Order> {
  const row = await findOrderRow(db, orderId);
  if (!row) throw new HttpError(404, 'not_found', `Order ${orderId} not found`);
  return (await withDetails(db, [row]))[0]!;
}


/**
 * What the order's goods weigh packed, in grams, from their products' weights: a product without one
 * (or deleted since) counts as a set of press-ons; gift cards, sent by e-mail, weigh nothing.
 */
export async function goodsWeightGrams(db: Executor, orderId: string, unknownPieceGrams: number): Promise<number> {
  const [row] = await db
    .select({ grams: sql<string>`coalesce(sum(${orderItems.quantity} * coalesce(${products.weightGrams}, ${unknownPieceGrams})), 0)` })
    .from(orderItems)
    .leftJoin(products, eq(products.id, orderItems.productId))
    .where(and(eq(orderItems.orderId, orderId), eq(orderItems.giftCard, false)));
  return Number(row?.grams ?? 0);
}
