import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq, getTableColumns, sql, type Placeholder } from 'drizzle-orm';
import type { PgInsertValue } from 'drizzle-orm/pg-core';
import { describeLines, pieceCount } from '#shared/cart.js';
import type { TextLanguage } from '#shared/catalog.js';
import { needsOffice, withQuotedFee, type CourierOffice, type DeliveryMethod } from '#shared/delivery.js';
import { type PricingRules } from '#shared/money.js';
import { giftCardLinesMinor, priceLines } from '#shared/pricing.js';
import type { InvoiceBuyer } from '#shared/invoice-buyer.js';
import { placedOrderStatus, type Order, type PaymentMethod } from '#shared/orders.js';
import type { OrderStatus } from '#shared/order-status.js';
import { mockPaymentPath, paymentPath } from '#shared/routes.js';
import { latestDate } from '#shared/working-days.js';
import { orderAddressColumn, type OrderAddress } from '#server/addresses/service.js';
import { linesArray, orderedLinesRemoval, readCartForCheckout } from '#server/cart/service.js';
import { catalogueCurrencyHold } from '#server/catalog/currency.js';
import { quotedFee } from '#server/couriers/delivery-quotes.js';
import { officeForMethod } from '#server/couriers/offices.js';
import type { Database, Executor } from '#server/db/client.js';
import { orderItems, orders, users } from '#server/db/schema.js';
import { insertFromJson, jsonRows } from '#server/db/json-rows.js';
import { PreparedQuery } from '#server/db/prepared.js';
import { databaseErrorCode, databaseErrorConstraint, inTransaction, subjectLock, UNIQUE_VIOLATION } from '#server/db/transaction.js';
import { HttpError } from '#server/http/errors.js';
import { changeNotices } from '#server/notices/live-hub.js';
import type { ShopMetrics } from '#server/metrics/shop-metrics.js';
import { discountForCheckout } from '#server/promotions/discount-codes.js';
import { giftCardForCheckout } from '#server/promotions/gift-cards.js';
import type { DocumentSettings } from '#server/invoices/issue-documents.js';
import { recordGiftCardPayment } from '#server/payments/service.js';
import { mailWorkersWakeUp } from '#server/mail/mail-queue.js';
import { takeStock } from '#server/stock/service.js';
import { orderPlacedMails, type OrderMailSettings } from './order-mails.js';
import { STATUS_TIME_COLUMNS, toOrder, withDetails, type OrderItemRow, type OrderRow } from './order-queries.js';
import { firstStatusChange } from './status-changes.js';

// Checkout: the customer's cart becomes an order, at the server's prices and the terms in force.

const ID_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** Short enough to read out on the phone, random enough (40 bits) that nobody guesses another's. */
export function newOrderId(): string {
  return 'NA-' + Array.from(randomBytes(8), (byte) => ID_ALPHABET[byte % ID_ALPHABET.length]).join('');
}

/** Draws of an order id before checkout gives up: one taken already is a chance of about 1 in a million per order at a million orders. */
const ORDER_ID_DRAWS = 3;

/** The order's columns, which the checkout's insert returns. */
const ORDER_COLUMNS = getTableColumns(orders);

/** Places the order again, with an id drawn anew, when the one drawn was taken already (the insert rolled back, nothing written). */
async function withUntakenOrderId<T>(place: () => Promise<T>): Promise<T> {
  for (let draw = 1; ; draw += 1) {
    try {
      return await place();
    } catch (error) {
      if (draw >= ORDER_ID_DRAWS || databaseErrorCode(error) !== UNIQUE_VIOLATION || databaseErrorConstraint(error) !== 'orders_pkey') throw error;
    }
  }
}

/**
 * A request repeated with the key of an order placed meanwhile, with a cart filled again since, fails
 * on the order's unique key, and nothing is written: it gets the order placed first. (A repeat that
 * finds the cart empty gets it in the transaction, repeatOrRefuse.)
 */
async function placedOnce(db: Database, userId: string, key: string, place: () => Promise<{ order: Order; created: boolean }>): Promise<{ order: Order; created: boolean }> {
  try {
    return await place();
  } catch (error) {
    if (databaseErrorCode(error) !== UNIQUE_VIOLATION || databaseErrorConstraint(error) !== 'orders_user_idempotency_key_idx') throw error;
    const earlier = await findByIdempotencyKey(db, userId, key);
    if (earlier) return { order: earlier, created: false };
    throw new HttpError(409, 'conflict', 'An order with this idempotency key was placed at the same moment; try again.');
  }
}

export interface PlaceOrderInput {
  idempotencyKey: string;
  addressId?: string;
  paymentMethod: PaymentMethod;
  deliveryMethod: DeliveryMethod;
  /** The courier's office or locker the buyer picked, for a method that goes to one. */
  officeId?: string;
  /** The courier's price the buyer was shown, for a method its courier prices. */
  deliveryQuoteId?: string;
  /** The total the customer saw and confirmed; the order is placed only at that total. */
  expectedTotalMinor: number;
  language: TextLanguage;
  invoiceBuyer?: InvoiceBuyer;
  /** The discount code the buyer applied, as typed. */
  discountCode?: string;
  /** The gift card the buyer pays with, as typed, and what she was shown it would pay. */
  giftCardCode?: string;
  expectedGiftCardMinor?: number;
}

/** The checkout fills the invoice details in from the last order that asked for an invoice. */
const invoiceBuyerKept = (tx: Executor, userId: Placeholder, invoiceBuyer: Placeholder) =>
  // Drizzle writes a placeholder as the column writes its value; its types know of values and SQL only.
  tx
    .update(users)
    .set({ invoiceBuyer: invoiceBuyer as unknown as InvoiceBuyer })
    .where(eq(users.id, userId));

async function findByIdempotencyKey(db: Executor, userId: string, key: string): Promise<Order | undefined> {
  const [row] = await db.select().from(orders).where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, key)));
  return row ? (await withDetails(db, [row]))[0] : undefined;
}

/**
 * The office or locker an order goes to, as the courier's list has it now; an error when it is no
 * longer listed, is of another kind than the method, or takes no cash on delivery that the buyer chose.
 */
async function deliveryOfficeFor(db: Executor, method: DeliveryMethod, officeId: string, paymentMethod: PaymentMethod): Promise<CourierOffice | HttpError> {
  const office = await officeForMethod(db, method, officeId);
  if (office instanceof HttpError) return office;
  if (paymentMethod === 'cash_on_delivery' && !office.acceptsCashOnDelivery) {
    return new HttpError(409, 'office_no_cash_on_delivery', `${office.name.en} takes no parcels paid on delivery; choose another office or pay otherwise.`, { field: 'officeId', messageKey: 'checkout.errors.officeNoCashOnDelivery' });
  }
  return office;
}

/** Where the order is paid online; cash, a bank transfer and an order paid already have no such page. */
function paymentLink(orderId: string, method: PaymentMethod, paidAlready: boolean, settings: CheckoutSettings): string | null {
  if (paidAlready || method === 'cash_on_delivery' || method === 'bank_transfer') return null;
  return settings.mail.publicUrl + (settings.simulatedPayments ? mockPaymentPath(orderId, method) : paymentPath(orderId));
}

export interface CheckoutSettings {
  pricing: PricingRules;
  /** The version of the terms in force, which each order records as accepted. */
  termsVersion: () => string;
  /** The methods the shop offers; another is refused. */
  paymentMethods: readonly PaymentMethod[];
  deliveryMethods: readonly DeliveryMethod[];
  /** Online payments go to the simulated provider's page; else to the payment page, which starts the real provider's. */
  simulatedPayments: boolean;
  mail: OrderMailSettings;
  /** For the documents of an order a gift card pays whole, which is paid as it is placed. */
  documents: DocumentSettings;
}

/**
 * Places an order from the customer's cart on the server, at the products' current prices, in one
 * transaction that also takes the ordered lines out of the cart and their pieces out of stock: it
 * all happens or none of it does. If a line's choices no longer fit its product (choices_changed),
 * a discount code is refused (discount_refused, with the reason), the total is not the one the
 * customer confirmed (price_changed) or a product or combination has
 * fewer pieces left than the cart holds (stock_short), nothing is written and the answer is 409.
 * A request repeated with the same idempotency key returns the order the first one placed.
 * A new order is counted once it has committed.
 */
export async function placeOrder(
  db: Database,
  user: { id: string; email: string },
  input: PlaceOrderInput,
  settings: CheckoutSettings,
  metrics: ShopMetrics,
): Promise<{ order: Order; created: boolean }> {
  const mailSettings = settings.mail;
  if (!settings.paymentMethods.includes(input.paymentMethod)) {
    throw new HttpError(400, 'payment_method_unavailable', `The shop does not take ${input.paymentMethod} payments.`);
  }
  if (!settings.deliveryMethods.includes(input.deliveryMethod)) {
    throw new HttpError(400, 'delivery_method_unavailable', `The shop does not deliver by ${input.deliveryMethod}.`, { field: 'deliveryMethod', messageKey: 'checkout.errors.deliveryMethodUnavailable' });
  }
  if (needsOffice(input.deliveryMethod) && !input.officeId) {
    throw new HttpError(400, 'office_required', 'Choose the office or locker the parcel goes to.', { field: 'officeId', messageKey: 'checkout.errors.officeRequired' });
  }
  // Read before the transaction: it reads the terms' files, which no lock needs to wait for.
  const termsVersion = settings.termsVersion();
  const placed = await placedOnce(db, user.id, input.idempotencyKey, () => withUntakenOrderId(() => inTransaction(db, async (tx) => {
    // The catalogue's currency held and the cart locked (a twin request waits here, then finds the
    // first one's order: repeatOrRefuse), with the address the order goes to, in one round trip. The
    // address needs no lock: the order keeps a copy of it as it is.
    const [held] = await holdStatement(input.addressId !== undefined).run(db, tx, { userId: user.id, addressId: input.addressId ?? null });
    const lines = await readCartForCheckout(db, tx, user.id, new Date(), settings.pricing.currency);
    /** A request repeated with the key of an order placed earlier gets that order; any other is refused with the error. */
    const repeatOrRefuse = async (refusal: HttpError) => {
      const earlier = await findByIdempotencyKey(tx, user.id, input.idempotencyKey);
      if (earlier) return { order: earlier, created: false };
      throw refusal;
    };
    if (lines.length === 0) return repeatOrRefuse(new HttpError(400, 'cart_empty', 'User email and cart items are required'));

    const address = held!.address;
    if (!address) return repeatOrRefuse(new HttpError(400, 'address_required', 'Shipping address is required'));

    const office = needsOffice(input.deliveryMethod) ? await deliveryOfficeFor(tx, input.deliveryMethod, input.officeId!, input.paymentMethod) : null;
    if (office instanceof HttpError) return repeatOrRefuse(office);

    // A product edited since its line was added is handled as a price change is: the buyer chooses again, nothing is ordered unseen.
    const changed = lines.find((line) => line.problem !== null);
    if (changed) {
      const { field, messageKey } = changed.problem!;
      return repeatOrRefuse(
        new HttpError(409, 'choices_changed', `The choices of ${changed.name.en || changed.name.bg} no longer fit the product (${field}: ${messageKey}); choose again.`, { field, messageKey }),
      );
    }

    // The code's row stays locked until the order commits, so its limits hold under parallel checkouts.
    const discount = input.discountCode ? await discountForCheckout(tx, input.discountCode, user.id, lines) : null;
    // Unit prices with the lines' choices (unitPriceMinor), so that options and add-ons are in every total.
    // A method its courier prices costs what the courier quoted this buyer for this parcel.
    let rules = settings.pricing;
    if (rules.quotedDeliveryMethods?.includes(input.deliveryMethod)) {
      const fee = await quotedFee(tx, user.id, input.deliveryQuoteId, { method: input.deliveryMethod, office, addressId: address.id, currency: rules.currency });
      if (fee instanceof HttpError) return repeatOrRefuse(fee);
      rules = withQuotedFee(rules, input.deliveryMethod, fee);
    }
    const pricing = priceLines(lines, rules, input.paymentMethod, discount, input.deliveryMethod);
    if (pricing.total !== input.expectedTotalMinor) {
      return repeatOrRefuse(new HttpError(409, 'price_changed', `The order total is now ${pricing.total}, not ${input.expectedTotalMinor}; confirm it again.`));
    }
    // The card's row stays locked until the order commits, so its balance holds under parallel checkouts.
    // It pays for everything but gift cards: a card does not buy another.
    const giftCard = input.giftCardCode
      ? await giftCardForCheckout(tx, input.giftCardCode, settings.pricing.currency, pricing.total - giftCardLinesMinor(lines), input.expectedGiftCardMinor)
      : null;
    // An order the card pays whole is paid now, by the card; any other waits for its payment as usual.
    const paidByGiftCard = giftCard !== null && giftCard.paidMinor === pricing.total;
    const orderId = newOrderId();
    const status = paidByGiftCard ? 'paid' : placedOrderStatus(input.paymentMethod);
    const itemValues = lines.map((line, position) => ({
      id: randomUUID(),
      orderId,
      position,
      productId: line.productId,
      nameEn: line.name.en,
      nameBg: line.name.bg,
      priceMinor: line.priceMinor,
      quantity: line.quantity,
      addedAt: line.addedAt,
      choices: line.summary,
      combinationKey: line.combinationKey,
      dispatchBy: line.dispatchBy,
      returnRule: line.returnRule,
      giftCard: line.giftCard,
      discountMinor: discount?.lineShares[position] ?? 0,
      // As the insert's trigger sets it from the order's status: every status an order is placed in is on the work list.
      onWorkList: true,
    }));
    const order = {
      id: orderId,
      userId: user.id,
      customerEmail: user.email,
      status,
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
      // A mixed order ships when its last line is ready.
      // Gift cards are sent by e-mail once paid; an order of cards alone has no day to ship by.
      dispatchBy: latestDate(lines.filter((line) => !line.giftCard).map((line) => line.dispatchBy)),
      checkoutUrl: paymentLink(orderId, input.paymentMethod, paidByGiftCard, settings),
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
      invoiceBuyer: input.invoiceBuyer ?? null,
      discountCodeId: discount?.codeId ?? null,
      discountCode: discount?.code ?? null,
      discountMinor: pricing.discount,
      giftCardId: giftCard?.giftCardId ?? null,
      giftCardEnding: giftCard?.ending ?? null,
      giftCardMinor: giftCard?.paidMinor ?? 0,
      deliveryMethod: input.deliveryMethod,
      deliveryOffice: office,
    } satisfies OrderValues;
    const statement = orderStatement(tx, mailSettings, Object.keys(order) as (keyof OrderValues)[], status, input.invoiceBuyer !== undefined);
    const [inserted] = await statement.run(db, tx, { ...order, items: jsonRows(orderItems, ORDER_ITEM_KEYS, itemValues), lineIds: linesArray(lines) });
    const { told: _told, ...row } = inserted!;
    // The lines' ordered_at is the order's own created_at: both default to the transaction's now().
    const items: OrderItemRow[] = itemValues.map((item) => ({ ...item, orderedAt: row.createdAt }));
    // Last but a gift card's payment, so that other orders of the same products wait on their rows for
    // as short a time as possible; a shortage throws and the transaction writes nothing.
    await takeStock(db, tx, orderId, lines, 'sold');
    const payment = paidByGiftCard ? await recordGiftCardPayment(tx, row, settings.documents) : undefined;
    return { order: toOrder(row, items, payment, [{ orderId, position: 0, status, changedAt: row.createdAt }]), created: true };
  })));
  if (placed.created) metrics.countOrderPlaced(input.paymentMethod);
  return placed;
}

/** The checkout's first statement of each shape (the address chosen, or the buyer's default one), built once and prepared once per connection. */
const holdStatements = new Map<boolean, PreparedQuery<{ address: OrderAddress | null }, { userId: string; addressId: string | null }>>();

function holdStatement(addressChosen: boolean): PreparedQuery<{ address: OrderAddress | null }, { userId: string; addressId: string | null }> {
  let statement = holdStatements.get(addressChosen);
  if (!statement) {
    const userId = sql.placeholder('userId');
    const address = orderAddressColumn(userId, addressChosen ? sql.placeholder('addressId') : undefined);
    const query = sql`select ${catalogueCurrencyHold}, ${subjectLock('cart', userId)}, ${address} as address`;
    statement = new PreparedQuery(`checkout_hold_${addressChosen ? 'chosen' : 'default'}_address`, query);
    holdStatements.set(addressChosen, statement);
  }
  return statement;
}

/** The order's columns that placeOrder writes from values, the times aside (now()). */
type OrderValues = Omit<typeof orders.$inferInsert, 'createdAt' | 'updatedAt' | 'termsAcceptedAt' | (typeof STATUS_TIME_COLUMNS)[OrderStatus]>;
/** The lines' columns the checkout writes; ordered_at takes its default, the transaction's now(), which is the order's created_at. */
const ORDER_ITEM_KEYS = ['id', 'orderId', 'position', 'productId', 'nameEn', 'nameBg', 'priceMinor', 'quantity', 'addedAt', 'choices', 'combinationKey', 'dispatchBy', 'returnRule', 'giftCard', 'discountMinor', 'onWorkList'] as const satisfies readonly (keyof typeof orderItems.$inferInsert)[];

type OrderStatementRow = OrderRow & { told: unknown };
type OrderStatementValues = OrderValues & { items: string; lineIds: string };

/** The order's statement of each shape (the status it is placed in, whether the buyer's invoice details are kept), for each shop's mail settings. */
const orderStatements = new WeakMap<OrderMailSettings, Map<string, PreparedQuery<OrderStatementRow, OrderStatementValues>>>();
let orderStatementsMade = 0;

/**
 * The order, its lines and its first status written, the ordered lines taken out of the cart, the
 * customer's and the owners' mails queued, and the customer's open pages and the mail workers told,
 * in one round trip: the order's insert, with the rest as the parts of its WITH, each of which runs
 * (https://www.postgresql.org/docs/current/queries-with.html#QUERIES-WITH-MODIFYING). The lines' and
 * the mails' references to the order are checked at the statement's end, when it exists. A twin
 * request with the same key fails on the order's unique key instead, and nothing is written
 * (placedOnce answers it with the order placed first).
 *
 * Built once for each shape and prepared once per connection: each order's values are its
 * placeholders, named as the order's columns (the lines as JSON, jsonRows). Building it was about a
 * tenth of an order's CPU in the server, and its parsing and planning a share of the database's.
 */
function orderStatement(
  tx: Executor,
  mail: OrderMailSettings,
  orderKeys: readonly (keyof OrderValues)[],
  status: OrderStatus,
  keepsInvoiceBuyer: boolean,
): PreparedQuery<OrderStatementRow, OrderStatementValues> {
  let shapes = orderStatements.get(mail);
  if (!shapes) orderStatements.set(mail, (shapes = new Map()));
  const shape = `${status} ${keepsInvoiceBuyer}`;
  const known = shapes.get(shape);
  if (known) return known;
  const value = (key: keyof OrderStatementValues) => sql.placeholder(key);
  const writes = [
    tx.$with('items', {}).as(insertFromJson(orderItems, ORDER_ITEM_KEYS, value('items'))),
    tx.$with('history').as(firstStatusChange(tx, value('id'), status)),
    tx.$with('removed').as(orderedLinesRemoval(tx, value('userId'), value('lineIds'))),
    tx.$with('mails', {}).as(orderPlacedMails(mail, { orderId: value('id'), customerEmail: value('customerEmail'), language: value('language') })),
    ...(keepsInvoiceBuyer ? [tx.$with('buyer').as(invoiceBuyerKept(tx, value('userId'), value('invoiceBuyer')))] : []),
  ];
  // The notices as one column (a row of them), returned with the order's columns.
  const returning = { ...ORDER_COLUMNS, told: sql`(${changeNotices(value('userId'), ['cart', 'orders'])}, ${mailWorkersWakeUp})` };
  const placeholders = Object.fromEntries(orderKeys.map((key) => [key, value(key)])) as PgInsertValue<typeof orders>;
  const query = tx
    .with(...writes)
    .insert(orders)
    // now() is the transaction's start, the same moment as created_at's default.
    .values({ ...placeholders, termsAcceptedAt: sql`now()`, [STATUS_TIME_COLUMNS[status]]: sql`now()` })
    .returning(returning);
  const statement = new PreparedQuery<OrderStatementRow, OrderStatementValues>(`place_order_${++orderStatementsMade}`, query.toSQL(), returning);
  shapes.set(shape, statement);
  return statement;
}
