import { and, asc, eq, inArray, lt, sql } from 'drizzle-orm';
import { MAX_CART_PIECES, type CartItem, type CartOperation, type CartOperationResult, type CartOperationsResponse } from '../../shared/cart.js';
import type { LocalizedText } from '../../shared/catalog.js';
import { lockProductAgainstDeletion, productName } from '../catalog/service.js';
import type { Database, Executor } from '../db/client.js';
import { appliedCartOperations, cartItems, products } from '../db/schema.js';
import { inTransaction, lockSubject } from '../db/transaction.js';
import { HttpError } from '../http/errors.js';
import { announceChange } from '../live/live-hub.js';

/** Operation ids older than this may be forgotten: no browser replays a queue that old. */
const OPERATION_MEMORY_DAYS = 30;

const lineColumns = {
  id: cartItems.id,
  productId: cartItems.productId,
  nameEn: products.nameEn,
  nameBg: products.nameBg,
  priceMinor: products.priceMinor,
  addedPriceMinor: cartItems.priceMinor,
  quantity: cartItems.quantity,
  stock: products.stock,
  addedAt: cartItems.addedAt,
};

/** The cart's lines with the products' current names, prices and counts, oldest first. */
export async function getCart(db: Executor, userId: string): Promise<CartItem[]> {
  const rows = await db
    .select(lineColumns)
    .from(cartItems)
    .innerJoin(products, eq(products.id, cartItems.productId))
    .where(eq(cartItems.userId, userId))
    .orderBy(asc(cartItems.addedAt), asc(cartItems.id));
  return rows.map(({ nameEn, nameBg, ...row }) => ({ ...row, name: { en: nameEn, bg: nameBg }, addedAt: row.addedAt.toISOString() }));
}

/**
 * Applies the operations in order, in one transaction, each id at most once. Names and prices come
 * from the product table, never from the browser. A line may not hold more pieces than its product
 * has in stock (the order takes them; the cart only keeps the customer from asking for what is not
 * there). Other devices hear of the change when it commits. Operations on one cart, and checkouts
 * of it, take turns, so each sees the cart the one before left.
 */
export async function applyCartOperations(db: Database, userId: string, operations: readonly CartOperation[]): Promise<CartOperationsResponse> {
  return inTransaction(db, async (tx) => {
    await lockSubject(tx, 'cart', userId);
    const outcomes: CartOperationResult[] = [];
    let added = false;
    for (const operation of operations) {
      const [fresh] = await tx
        .insert(appliedCartOperations)
        .values({ userId, operationId: operation.id })
        .onConflictDoNothing()
        .returning({ operationId: appliedCartOperations.operationId });
      if (!fresh) {
        outcomes.push({ id: operation.id, outcome: 'duplicate' });
        continue;
      }
      const result = await applyOperation(tx, userId, operation);
      outcomes.push({ id: operation.id, ...result });
      if (result.outcome === 'applied' && operation.type !== 'remove') added = true;
    }
    if (added) {
      const [cart] = await tx.select({ pieces: sql<number>`coalesce(sum(${cartItems.quantity}), 0)::int` }).from(cartItems).where(eq(cartItems.userId, userId));
      if ((cart?.pieces ?? 0) > MAX_CART_PIECES) {
        throw new HttpError(409, 'cart_full', `A cart holds at most ${MAX_CART_PIECES} items.`);
      }
    }
    if (outcomes.some(({ outcome }) => outcome === 'applied')) await announceChange(tx, userId, 'cart');
    const cutoff = new Date(Date.now() - OPERATION_MEMORY_DAYS * 24 * 60 * 60 * 1000);
    await tx.delete(appliedCartOperations).where(and(eq(appliedCartOperations.userId, userId), lt(appliedCartOperations.appliedAt, cutoff)));
    return { items: await getCart(tx, userId), outcomes };
  });
}

async function applyOperation(tx: Executor, userId: string, operation: CartOperation): Promise<Omit<CartOperationResult, 'id'>> {
  if (operation.type === 'remove') {
    const removed = await tx
      .delete(cartItems)
      .where(and(eq(cartItems.id, operation.itemId), eq(cartItems.userId, userId)))
      .returning({ id: cartItems.id });
    return { outcome: removed.length > 0 ? 'applied' : 'item_missing' };
  }
  if (operation.type === 'set' && operation.quantity === 0) {
    await tx.delete(cartItems).where(and(eq(cartItems.userId, userId), eq(cartItems.productId, operation.productId)));
    return { outcome: 'applied' };
  }
  const product = await lockProductAgainstDeletion(tx, operation.productId);
  if (!product) return { outcome: 'product_missing' };
  const [line] = await tx
    .select({ id: cartItems.id, quantity: cartItems.quantity })
    .from(cartItems)
    .where(and(eq(cartItems.userId, userId), eq(cartItems.productId, product.id)));
  const quantity = operation.type === 'add' ? (line?.quantity ?? 0) + 1 : operation.quantity;
  if (product.stock !== null && quantity > product.stock && quantity > (line?.quantity ?? 0)) {
    return { outcome: 'stock_short', shortage: { productId: product.id, name: productName(product), wanted: quantity, left: product.stock } };
  }
  if (line) await tx.update(cartItems).set({ quantity }).where(eq(cartItems.id, line.id));
  else await tx.insert(cartItems).values({ userId, productId: product.id, name: product.nameEn || product.nameBg, priceMinor: product.priceMinor, quantity });
  return { outcome: 'applied' };
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
