import { and, asc, eq, lt } from 'drizzle-orm';
import type { CartItem, CartOperation, CartOperationsResponse } from '../../shared/cart.js';
import { findProduct } from '../catalog/service.js';
import type { Database, Executor } from '../db/client.js';
import { appliedCartOperations, cartItems, products } from '../db/schema.js';
import { announceChange } from '../live/live-hub.js';

/** Operation ids older than this may be forgotten: no browser replays a queue that old. */
const OPERATION_MEMORY_DAYS = 30;

type CartItemRow = typeof cartItems.$inferSelect;

const toCartItem = (row: CartItemRow): CartItem => ({
  id: row.id,
  productId: row.productId,
  name: row.name,
  priceMinor: row.priceMinor,
  addedAt: row.addedAt.toISOString(),
});

export async function getCart(db: Executor, userId: string): Promise<CartItem[]> {
  const rows = await db.select().from(cartItems).where(eq(cartItems.userId, userId)).orderBy(asc(cartItems.addedAt), asc(cartItems.id));
  return rows.map(toCartItem);
}

/**
 * Applies the operations in order, in one transaction, each id at most once. Names and prices come
 * from the product table, never from the browser. Other devices hear of the change when it commits.
 */
export async function applyCartOperations(db: Database, userId: string, operations: readonly CartOperation[]): Promise<CartOperationsResponse> {
  return db.transaction(async (tx) => {
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
        const product = await findProduct(tx, operation.productId);
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
    if (outcomes.some(({ outcome }) => outcome === 'applied')) await announceChange(tx, userId, 'cart');
    const cutoff = new Date(Date.now() - OPERATION_MEMORY_DAYS * 24 * 60 * 60 * 1000);
    await tx.delete(appliedCartOperations).where(and(eq(appliedCartOperations.userId, userId), lt(appliedCartOperations.appliedAt, cutoff)));
    return { items: await getCart(tx, userId), outcomes };
  });
}

/**
 * The cart's lines at the products' current names and prices, locked inside the caller's
 * transaction so that nothing changes them while an order is built from them.
 */
export async function lockCartForCheckout(tx: Executor, userId: string) {
  return tx
    .select({ productId: cartItems.productId, addedAt: cartItems.addedAt, name: products.name, priceMinor: products.priceMinor })
    .from(cartItems)
    .innerJoin(products, eq(products.id, cartItems.productId))
    .where(eq(cartItems.userId, userId))
    .orderBy(asc(cartItems.addedAt), asc(cartItems.id))
    .for('update');
}

/** Empties the cart inside the caller's transaction, as placing an order does. */
export async function clearCart(tx: Executor, userId: string): Promise<void> {
  await tx.delete(cartItems).where(eq(cartItems.userId, userId));
  await announceChange(tx, userId, 'cart');
}
