import { randomBytes } from 'node:crypto';
import { and, asc, count, desc, eq, inArray, isNotNull, like, or, sql, type SQL } from 'drizzle-orm';
import type { Country } from '../../shared/addresses.js';
import { MAX_ADMIN_PAGE_SIZE, type AdminOrderPage } from '../../shared/admin.js';
import { pieceCount } from '../../shared/cart.js';
import type { LocalizedText, TextLanguage } from '../../shared/catalog.js';
import { priceLines, type Currency, type PricingRules } from '../../shared/money.js';
import { isOrderStatus, normalizeOrderStatus, orderStatusRank, ORDER_STATUSES, storedValuesOf, type OrderStatus } from '../../shared/order-status.js';
import { mockPaymentPath, type Order, type OrderStatusChange, type PaymentMethod } from '../../shared/orders.js';
import { findAddress, listAddresses } from '../addresses/service.js';
import { removeOrderedLines, takeCartForCheckout } from '../cart/service.js';
import type { Database, Executor } from '../db/client.js';
import { orderItems, orders, orderStatusChanges, payments } from '../db/schema.js';
import { databaseErrorCode, inTransaction, UNIQUE_VIOLATION } from '../db/transaction.js';
import { HttpError } from '../http/errors.js';
import { announceChange } from '../live/live-hub.js';
import { readStockForOrder, returnStock, takeStock } from '../stock/service.js';
import { queueOrderPlacedMails, queueStatusMail, type OrderMailSettings } from './order-mails.js';

type OrderRow = typeof orders.$inferSelect;
type OrderItemRow = typeof orderItems.$inferSelect;
type PaymentRow = typeof payments.$inferSelect;
type StatusChangeRow = typeof orderStatusChanges.$inferSelect;

const ID_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** Short enough to read out on the phone, random enough (40 bits) that nobody guesses another's. */
export function newOrderId(): string {
  return 'NA-' + Array.from(randomBytes(8), (byte) => ID_ALPHABET[byte % ID_ALPHABET.length]).join('');
}

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
  const [items, paid, history] = await Promise.all([
    db.select().from(orderItems).where(inArray(orderItems.orderId, ids)),
    db.select().from(payments).where(inArray(payments.orderId, ids)),
    db.select().from(orderStatusChanges).where(inArray(orderStatusChanges.orderId, ids)).orderBy(asc(orderStatusChanges.position)),
  ]);
  return rows.map((row) =>
    toOrder(
      row,
      items.filter((item) => item.orderId === row.id),
      paid.find((payment) => payment.orderId === row.id),
      history.filter((change) => change.orderId === row.id),
    ),
  );
}

export async function findOrderRow(db: Executor, orderId: string): Promise<OrderRow | undefined> {
  const [row] = await db.select().from(orders).where(eq(orders.id, orderId));
  return row;
}

/** A customer's order row, locked inside the caller's transaction while it is being paid. */
export async function lockCustomerOrderRow(tx: Executor, userId: string, orderId: string): Promise<OrderRow | undefined> {
  const [row] = await tx
    .select()
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.userId, userId)))
    .for('update');
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

export interface PlaceOrderInput {
  idempotencyKey: string;
  addressId?: string;
  paymentMethod: PaymentMethod;
  /** The total the customer saw and confirmed; the order is placed only at that total. */
  expectedTotalMinor: number;
  language: TextLanguage;
}

async function findByIdempotencyKey(db: Executor, userId: string, key: string): Promise<Order | undefined> {
  const [row] = await db.select().from(orders).where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, key)));
  return row ? (await withDetails(db, [row]))[0] : undefined;
}

/**
 * Places an order from the customer's cart on the server, at the products' current prices, in one
 * transaction that also takes the ordered lines out of the cart and their pieces out of stock: it
 * all happens or none of it does. If the total is not the one the customer confirmed (price_changed)
 * or a product has fewer pieces left than the cart holds (stock_short), nothing is written and the
 * answer is 409.
 * A request repeated with the same idempotency key returns the order the first one placed.
 */
export interface CheckoutSettings {
  pricing: PricingRules;
  /** The version of the terms in force, which each order records as accepted. */
  termsVersion: () => string;
  /** The methods the shop offers; another is refused. */
  paymentMethods: readonly PaymentMethod[];
  mail: OrderMailSettings;
}

export async function placeOrder(
  db: Database,
  user: { id: string; email: string },
  input: PlaceOrderInput,
  settings: CheckoutSettings,
): Promise<{ order: Order; created: boolean }> {
  const mailSettings = settings.mail;
  if (!settings.paymentMethods.includes(input.paymentMethod)) {
    throw new HttpError(400, 'payment_method_unavailable', `The shop does not take ${input.paymentMethod} payments.`);
  }
  // Read before the transaction: it reads the terms' files, which no lock needs to wait for.
  const termsVersion = settings.termsVersion();
  try {
    return await inTransaction(db, async (tx) => {
      // A twin request waits for the cart here, then finds the first one's order.
      const lines = await takeCartForCheckout(tx, user.id);
      const earlier = await findByIdempotencyKey(tx, user.id, input.idempotencyKey);
      if (earlier) return { order: earlier, created: false };
      if (lines.length === 0) throw new HttpError(400, 'cart_empty', 'User email and cart items are required');

      const address = input.addressId
        ? await findAddress(tx, user.id, input.addressId)
        : await listAddresses(tx, user.id).then((all) => all.find((candidate) => candidate.isDefault) ?? all[0] ?? null);
      if (!address) throw new HttpError(400, 'address_required', 'Shipping address is required');

      const pricing = priceLines(lines, settings.pricing, input.paymentMethod);
      if (pricing.total !== input.expectedTotalMinor) {
        throw new HttpError(409, 'price_changed', `The order total is now ${pricing.total}, not ${input.expectedTotalMinor}; confirm it again.`);
      }
      const orderId = newOrderId();
      const [row] = await tx
        .insert(orders)
        .values({
          id: orderId,
          userId: user.id,
          customerEmail: user.email,
          status: 'pending',
          idempotencyKey: input.idempotencyKey,
          subtotalMinor: pricing.subtotal,
          taxMinor: pricing.tax,
          shippingMinor: pricing.shipping,
          totalMinor: pricing.total,
          feeMinor: pricing.fee,
          currency: settings.pricing.currency,
          taxIncluded: pricing.taxIncluded,
          taxRateBasisPoints: pricing.taxRateBasisPoints,
          itemCount: pieceCount(lines),
          itemDescription: describeLines(lines),
          paymentMethod: input.paymentMethod,
          // Cash on delivery has no payment page.
          checkoutUrl: input.paymentMethod === 'cash_on_delivery' ? null : `${mailSettings.publicUrl}${mockPaymentPath(orderId)}${input.paymentMethod === 'card' ? '?method=card' : ''}`,
          paymentReference: `ref_${randomBytes(8).toString('hex')}`,
          shippingFullName: address.fullName,
          shippingStreetAddress: address.streetAddress,
          shippingApartment: address.apartment || null,
          shippingCity: address.city,
          shippingState: address.state,
          shippingPostalCode: address.postalCode,
          shippingCountry: address.country,
          shippingPhone: address.phone,
          language: input.language,
          termsVersion,
          termsAcceptedAt: sql`now()`,
          // now() is the transaction's start, the same moment as created_at's default.
          pendingAt: sql`now()`,
        })
        .returning();
      const items = await tx
        .insert(orderItems)
        .values(
          lines.map((line, position) => ({ orderId, position, productId: line.productId, nameEn: line.name.en, nameBg: line.name.bg, priceMinor: line.priceMinor, quantity: line.quantity, addedAt: line.addedAt })),
        )
        .returning();
      const placed = await recordStatusChange(tx, orderId, 'pending', row!.createdAt);
      await removeOrderedLines(tx, user.id, lines);
      await announceChange(tx, user.id, 'orders');
      await queueOrderPlacedMails(tx, mailSettings, { orderId, customerEmail: user.email, language: input.language });
      // Last, so that other orders of the same products wait on their rows for as short a time as
      // possible; a shortage throws and the transaction writes nothing.
      await takeStock(tx, orderId, lines, 'sold');
      return { order: toOrder(row!, items, undefined, [placed]), created: true };
    });
  } catch (error) {
    // Should a twin request still slip past the lock and commit first, answer with its order.
    if (databaseErrorCode(error) === UNIQUE_VIOLATION) {
      const twin = await findByIdempotencyKey(db, user.id, input.idempotencyKey);
      if (twin) return { order: twin, created: false };
    }
    throw error;
  }
}

/** "Pearl Tips × 2, Gold Foil": the order's lines in a few words, for lists. */
function describeLines(lines: readonly { name: LocalizedText; quantity: number }[]): string {
  return lines
    .map((line) => {
      const name = line.name.en || line.name.bg;
      return line.quantity > 1 ? `${name} × ${line.quantity}` : name;
    })
    .join(', ')
    .slice(0, 500);
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

/**
 * Any status from any status (spec section 4); the customer's open pages hear of it. Setting the
 * status the order already has (a repeated click, two admins at once) changes and announces nothing.
 * The customer is told of the change by e-mail (see queueStatusMail). Cancelling puts the order's pieces back in stock; reopening a cancelled order takes them again,
 * and is refused with stock_short (changing nothing) when they are no longer there.
 */
export async function changeOrderStatus(db: Database, orderId: string, status: unknown, mailSettings: OrderMailSettings): Promise<Order> {
  if (!isOrderStatus(status)) throw new HttpError(400, 'bad_request', 'Invalid status');
  const found = await inTransaction(db, async (tx) => {
    const [row] = await tx
      .select({ status: orders.status, customerEmail: orders.customerEmail, language: orders.language })
      .from(orders)
      .where(eq(orders.id, orderId))
      .for('update');
    if (!row) return false;
    const before = normalizeOrderStatus(row.status);
    if (before === status) return true;
    if (status === 'cancelled') await returnStock(tx, orderId);
    else if (before === 'cancelled') await retakeStock(tx, orderId);
    await setOrderStatus(tx, orderId, status);
    await queueStatusMail(tx, mailSettings, { orderId, customerEmail: row.customerEmail, language: row.language as TextLanguage }, status);
    return true;
  });
  if (!found) throw new HttpError(404, 'not_found', `Order ${orderId} not found`);
  return getOrder(db, orderId);
}

/** Takes again the pieces of a cancelled order that is being reopened, in the caller's transaction. */
async function retakeStock(tx: Executor, orderId: string): Promise<void> {
  const items = await tx
    .select({ productId: orderItems.productId, nameEn: orderItems.nameEn, nameBg: orderItems.nameBg, quantity: orderItems.quantity })
    .from(orderItems)
    .where(and(eq(orderItems.orderId, orderId), isNotNull(orderItems.productId)));
  const counts = await readStockForOrder(
    tx,
    items.map((item) => item.productId!),
  );
  const lines = items.flatMap((item) => (counts.has(item.productId!) ? [{ productId: item.productId!, name: { en: item.nameEn, bg: item.nameBg }, quantity: item.quantity, stock: counts.get(item.productId!)! }] : []));
  await takeStock(tx, orderId, lines, 'retaken');
}
