import { and, asc, count, eq, inArray, lt } from 'drizzle-orm';
import { MAX_CART_LINES, type CartItem, type CartOperation, type CartOperationsResponse } from '../../shared/cart.js';
import { lockProductAgainstDeletion } from '../catalog/service.js';
import type { Database, Executor } from '../db/client.js';
import { appliedCartOperations, cartItems, products } from '../db/schema.js';
import { inTransaction, lockSubject } from '../db/transaction.js';
import { HttpError } from '../http/errors.js';
import { announceChange } from '../live/live-hub.js';

/** Operation ids older than this may be forgotten: no browser replays a queue that old. */
const OPERATION_MEMORY_DAYS = 30;

/** The cart's lines with the products' current names and prices, oldest first. */
export async function getCart(db: Executor, userId: string): Promise<CartItem[]> {
  const rows = await db
    .select({
      id: cartItems.id,
      productId: cartItems.productId,
      name: products.name,
      priceMinor: products.priceMinor,
      addedPriceMinor: cartItems.priceMinor,
      addedAt: cartItems.addedAt,
    })
    .from(cartItems)
    .innerJoin(products, eq(products.id, cartItems.productId))
    .where(eq(cartItems.userId, userId))
    .orderBy(asc(cartItems.addedAt), asc(cartItems.id));
  return rows.map((row) => ({ ...row, addedAt: row.addedAt.toISOString() }));
}

/**
 * Applies the operations in order, in one transaction, each id at most once. Names and prices come
 * from the product table, never from the browser. Other devices hear of the change when it commits.
 * Operations on one cart, and checkouts of it, take turns, so each sees the cart the one before left.
 */
export async function applyCartOperations(db: Database, userId: string, operations: readonly CartOperation[]): Promise<CartOperationsResponse> {
  return inTransaction(db, async (tx) => {
    await lockSubject(tx, 'cart', userId);
    const outcomes: CartOperationsResponse['outcomes'] = [];
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
      if (operation.type === 'add') {
        const product = await lockProductAgainstDeletion(tx, operation.productId);
        if (!product) {
          outcomes.push({ id: operation.id, outcome: 'product_missing' });
          continue;
        }
        await tx.insert(cartItems).values({ userId, productId: product.id, name: product.name, priceMinor: product.priceMinor });
      } else {
        const removed = await tx
          .delete(cartItems)
          .where(and(eq(cartItems.id, operation.itemId), eq(cartItems.userId, userId)))
          .returning({ id: cartItems.id });
        if (removed.length === 0) {
          outcomes.push({ id: operation.id, outcome: 'item_missing' });
          continue;
        }
      }
      outcomes.push({ id: operation.id, outcome: 'applied' });
    }
    if (operations.some((operation, index) => operation.type === 'add' && outcomes[index]?.outcome === 'applied')) {
      const [lines] = await tx.select({ total: count() }).from(cartItems).where(eq(cartItems.userId, userId));
      if ((lines?.total ?? 0) > MAX_CART_LINES) {
        throw new HttpError(409, 'cart_full', `A cart holds at most ${MAX_CART_LINES} items.`);
      }
    }
    if (outcomes.some(({ outcome }) => outcome === 'applied')) await announceChange(tx, userId, 'cart');
    const cutoff = new Date(Date.now() - OPERATION_MEMORY_DAYS * 24 * 60 * 60 * 1000);
    await tx.delete(appliedCartOperations).where(and(eq(appliedCartOperations.userId, userId), lt(appliedCartOperations.appliedAt, cutoff)));
    return { items: await getCart(tx, userId), outcomes };
  });
}

export interface CheckoutLine {
  id: string;
  productId: string;
  name: string;
  priceMinor: number;
  addedAt: Date;
}

/**
 * Takes the cart for checkout inside the caller's transaction: cart operations wait until it ends,
 * and the products stay until then (a deletion waits), while other customers' checkouts and price
 * changes go on. Names and prices are the products' current ones.
 */
export async function takeCartForCheckout(tx: Executor, userId: string): Promise<CheckoutLine[]> {
  await lockSubject(tx, 'cart', userId);
  return tx
    .select({ id: cartItems.id, productId: cartItems.productId, addedAt: cartItems.addedAt, name: products.name, priceMinor: products.priceMinor })
    .from(cartItems)
    .innerJoin(products, eq(products.id, cartItems.productId))
    .where(eq(cartItems.userId, userId))
    .orderBy(asc(cartItems.addedAt), asc(cartItems.id))
    .for('key share', { of: products });
}

/** Removes the lines an order took, inside the caller's transaction; a line added since stays. */
export async function removeOrderedLines(tx: Executor, userId: string, lines: readonly CheckoutLine[]): Promise<void> {
  const ids = lines.map((line) => line.id);
  if (ids.length > 0) await tx.delete(cartItems).where(and(eq(cartItems.userId, userId), inArray(cartItems.id, ids)));
  await announceChange(tx, userId, 'cart');
}
