import { and, asc, eq, inArray } from 'drizzle-orm';
import { MAX_CART_PIECES, pieceCount, type CartItem, type CartOperation, type CartOperationResult, type CartOperationsResponse } from '../../shared/cart.js';
import type { LocalizedText } from '../../shared/catalog.js';
import type { Database, Executor } from '../db/client.js';
import { appliedCartOperations, cartItems, products } from '../db/schema.js';
import { PreparedStatement } from '../db/prepared.js';
import { inTransaction, lockSubject } from '../db/transaction.js';
import { HttpError } from '../http/errors.js';
import { changeNotice } from '../notices/live-hub.js';

/** Operation ids older than this may be forgotten: no browser replays a queue that old. */
const OPERATION_MEMORY_DAYS = 30;

/** The cart's lines with the products' current names, prices and counts, oldest first ($1: the user). */
const CART_LINES = `
  select line.id, line.product_id, product.name_en, product.name_bg, product.price_minor, line.price_minor as added_price_minor,
    line.quantity, product.stock, line.added_at
  from cart_items line join products product on product.id = line.product_id
  where line.user_id = $1::uuid
  order by line.added_at, line.id`;

interface CartLineRow extends Record<string, unknown> {
  id: string;
  product_id: string;
  name_en: string;
  name_bg: string;
  price_minor: number;
  added_price_minor: number;
  quantity: number;
  stock: number | null;
  /** A Date, or PostgreSQL's text for it where Drizzle has the driver leave timestamps as text (Date parses it, as Drizzle's own mapping does). */
  added_at: Date | string;
}

const cartLines = new PreparedStatement<CartLineRow>('cart_lines', CART_LINES);
/** The lines after a change, in the statement that also forgets the cart's operation ids older than $2. */
const cartLinesForgettingOperations = new PreparedStatement<CartLineRow>(
  'cart_lines_forgetting_operations',
  `with expired as (delete from applied_cart_operations where user_id = $1::uuid and applied_at < $2::timestamptz) ${CART_LINES}`,
);

const toCartItem = (row: CartLineRow): CartItem => ({
  id: row.id,
  productId: row.product_id,
  name: { en: row.name_en, bg: row.name_bg },
  priceMinor: row.price_minor,
  addedPriceMinor: row.added_price_minor,
  quantity: row.quantity,
  stock: row.stock,
  addedAt: new Date(row.added_at).toISOString(),
});

/** The cart's lines with the products' current names, prices and counts, oldest first; in a transaction of the database when given one. */
export async function getCart(db: Database, userId: string, tx: Executor = db): Promise<CartItem[]> {
  return (await cartLines.run(db, tx, [userId])).map(toCartItem);
}

/**
 * Applies the operations in order, in one transaction, each id at most once. Names and prices come
 * from the product table, never from the browser. A line may not hold more pieces than its product
 * has in stock (the order takes them; the cart only keeps the customer from asking for what is not
 * there). Other devices hear of the change when it commits. Operations on one cart, and checkouts
 * of it, take turns, so each sees the cart the one before left.
 *
 * Cart additions are the shop's busiest writes, so each operation is one prepared statement (see
 * applyOperation) and the cart is read back in the statement that forgets old operation ids: adding a
 * piece costs the cart's lock, two statements and the transaction's begin and commit.
 */
export async function applyCartOperations(db: Database, userId: string, operations: readonly CartOperation[]): Promise<CartOperationsResponse> {
  return inTransaction(db, async (tx) => {
    await lockSubject(tx, 'cart', userId);
    const outcomes: CartOperationResult[] = [];
    let added = false;
    for (const operation of operations) {
      const result = await applyOperation(db, tx, userId, operation);
      outcomes.push({ id: operation.id, ...result });
      if (result.outcome === 'applied' && operation.type !== 'remove') added = true;
    }
    const forgetBefore = new Date(Date.now() - OPERATION_MEMORY_DAYS * 24 * 60 * 60 * 1000);
    const items = (await cartLinesForgettingOperations.run(db, tx, [userId, forgetBefore.toISOString()])).map(toCartItem);
    // Refused after the writes, the request rolls them back, and their notices with them.
    if (added && pieceCount(items) > MAX_CART_PIECES) throw new HttpError(409, 'cart_full', `A cart holds at most ${MAX_CART_PIECES} items.`);
    return { items, outcomes };
  });
}

/** Records the operation id ($1: the user, $2: the id); returns it only when it is new. */
const RECORD_OPERATION = `fresh as (
  insert into applied_cart_operations (user_id, operation_id) values ($1::uuid, $2::text)
  on conflict do nothing
  returning operation_id
)`;

interface OperationRow extends Record<string, unknown> {
  /** Whether the operation id was new: nothing else happens for one seen before. */
  fresh: boolean;
  /** Whether a line was written or removed. */
  changed: boolean;
}

interface LineChangeRow extends OperationRow {
  /** The product, with its current name and stock, and the quantity the line was to have; null when there is no such product. */
  product_id: string | null;
  name_en: string | null;
  name_bg: string | null;
  stock: number | null;
  wanted: number | null;
}

/**
 * Adds a piece ($4 null) or sets the quantity ($4) of the product $3 in the cart of $1, under the
 * operation id $2, announcing the change with pg_notify($5, $6). The product is read with a key-share
 * lock, so that a deletion waits until the cart's transaction ends; the line is written only within
 * the stock, or when it shrinks (a count lowered since is kept, not raised). The cart's lock, taken
 * before, makes the line it reads the latest one.
 */
const changeLine = new PreparedStatement<LineChangeRow>(
  'cart_change_line',
  `with ${RECORD_OPERATION},
  product as (
    select id, name_en, name_bg, price_minor, stock from products
    where id = $3::uuid and exists (select from fresh)
    for key share
  ),
  asked as (
    select product.*, coalesce(line.quantity, 0) as held, coalesce($4::integer, coalesce(line.quantity, 0) + 1) as wanted
    from product left join cart_items line on line.user_id = $1::uuid and line.product_id = product.id
  ),
  written as (
    insert into cart_items (user_id, product_id, name, price_minor, quantity, added_at)
    select $1::uuid, id, case when name_en <> '' then name_en else name_bg end, price_minor, wanted,
      -- Later than the cart's newest line, so that lines keep the order they were added in even
      -- where the clock has not moved on since (PGlite's clock counts whole milliseconds).
      greatest(clock_timestamp(), (select max(added_at) + interval '1 microsecond' from cart_items where user_id = $1::uuid))
    from asked
    where stock is null or wanted <= stock or wanted <= held
    on conflict (user_id, product_id) do update set quantity = excluded.quantity
    returning id
  ),
  notice as (select pg_notify($5::text, $6::text) from written)
  select exists (select from fresh) as fresh, exists (select from written) as changed, (select count(*) from notice) as notices,
    asked.id as product_id, asked.name_en, asked.name_bg, asked.stock, asked.wanted
  from (select) as request left join asked on true`,
);

/** Removes the line $3 (by its id, or by its product: see removeLine) from the cart of $1, under the operation id $2, announcing it with pg_notify($4, $5). */
const removal = (name: string, line: string) =>
  new PreparedStatement<OperationRow>(
    name,
    `with ${RECORD_OPERATION},
    removed as (delete from cart_items where user_id = $1::uuid and ${line} = $3::uuid and exists (select from fresh) returning id),
    notice as (select pg_notify($4::text, $5::text) from removed)
    select exists (select from fresh) as fresh, exists (select from removed) as changed, (select count(*) from notice) as notices`,
  );
const removeLine = { byId: removal('cart_remove_line', 'id'), byProduct: removal('cart_remove_product', 'product_id') };

/** One operation, in one statement. */
async function applyOperation(db: Database, tx: Executor, userId: string, operation: CartOperation): Promise<Omit<CartOperationResult, 'id'>> {
  const { channel, payload } = changeNotice(userId, 'cart');
  if (operation.type === 'remove') {
    const [row] = await removeLine.byId.run(db, tx, [userId, operation.id, operation.itemId, channel, payload]);
    if (!row?.fresh) return { outcome: 'duplicate' };
    return { outcome: row.changed ? 'applied' : 'item_missing' };
  }
  if (operation.type === 'set' && operation.quantity === 0) {
    const [row] = await removeLine.byProduct.run(db, tx, [userId, operation.id, operation.productId, channel, payload]);
    // Setting a product's quantity to 0 leaves it out of the cart whether or not it was there.
    return { outcome: row?.fresh ? 'applied' : 'duplicate' };
  }
  const quantity = operation.type === 'set' ? operation.quantity : null;
  const [row] = await changeLine.run(db, tx, [userId, operation.id, operation.productId, quantity, channel, payload]);
  if (!row?.fresh) return { outcome: 'duplicate' };
  if (row.product_id === null) return { outcome: 'product_missing' };
  if (row.changed) return { outcome: 'applied' };
  return { outcome: 'stock_short', shortage: { productId: row.product_id, name: { en: row.name_en ?? '', bg: row.name_bg ?? '' }, wanted: row.wanted ?? 0, left: row.stock ?? 0 } };
}

export interface CheckoutLine {
  id: string;
  productId: string;
  name: LocalizedText;
  priceMinor: number;
  quantity: number;
  stock: number | null;
  addedAt: Date;
}

/**
 * Takes the cart for checkout inside the caller's transaction: cart operations wait until it ends,
 * and the products stay until then (a deletion, or an admin switching a product between counted
 * and made to order, waits), while other customers' checkouts and price changes go on. Names,
 * prices and counts are the products' current ones.
 */
export async function takeCartForCheckout(tx: Executor, userId: string): Promise<CheckoutLine[]> {
  await lockSubject(tx, 'cart', userId);
  const rows = await tx
    .select({
      id: cartItems.id,
      productId: cartItems.productId,
      addedAt: cartItems.addedAt,
      nameEn: products.nameEn,
      nameBg: products.nameBg,
      priceMinor: products.priceMinor,
      quantity: cartItems.quantity,
      stock: products.stock,
    })
    .from(cartItems)
    .innerJoin(products, eq(products.id, cartItems.productId))
    .where(eq(cartItems.userId, userId))
    .orderBy(asc(cartItems.addedAt), asc(cartItems.id))
    .for('key share', { of: products });
  return rows.map(({ nameEn, nameBg, ...row }) => ({ ...row, name: { en: nameEn, bg: nameBg } }));
}

/**
 * The removal of the lines an order took (a line added since stays), not yet run: the checkout runs
 * it within its own statement, which also announces the cart's change (see placeOrder).
 */
export function orderedLinesRemoval(tx: Executor, userId: string, lines: readonly CheckoutLine[]) {
  return tx.delete(cartItems).where(
    and(
      eq(cartItems.userId, userId),
      inArray(
        cartItems.id,
        lines.map((line) => line.id),
      ),
    ),
  );
}

/** Empties the cart of a customer who deletes their account, and forgets its operation ids, in the caller's transaction. */
export async function deleteCart(tx: Executor, userId: string): Promise<void> {
  await tx.delete(cartItems).where(eq(cartItems.userId, userId));
  await tx.delete(appliedCartOperations).where(eq(appliedCartOperations.userId, userId));
}
