import { and, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { LocalizedText } from '../../shared/catalog.js';
import type { StockCounts } from '../../shared/live.js';
import type { StockChange, StockChangeReason, StockShortage } from '../../shared/stock.js';
import type { Executor } from '../db/client.js';
import { products, stockChanges } from '../db/schema.js';
import { selectRows } from '../db/transaction.js';
import { HttpError } from '../http/errors.js';
import { announceStock, stockNotice } from '../notices/live-hub.js';

/** A line that takes pieces; its count was read with the product held (takeCartForCheckout, readStockForOrder), so it cannot switch between counted and made to order meanwhile. */
export interface StockLine {
  productId: string;
  name: LocalizedText;
  quantity: number;
  /** The count as read; null (made to order) takes nothing. */
  stock: number | null;
}

const byProductId = <T extends { productId: string }>(lines: readonly T[]) => [...lines].sort((a, b) => (a.productId < b.productId ? -1 : a.productId > b.productId ? 1 : 0));

/**
 * Takes the lines' pieces for an order, in the caller's transaction, or throws stock_short naming
 * every line that asks for more than is left (the transaction then writes nothing). Each count is
 * lowered by a conditional update, which PostgreSQL applies to the latest committed count after
 * waiting for any other order of the same product, so no piece is sold twice. Products are updated
 * in the order of their ids, so two orders of the same products wait for each other instead of
 * deadlocking; orders of different products do not wait at all.
 */
export async function takeStock(tx: Executor, orderId: string, lines: readonly StockLine[], reason: Extract<StockChangeReason, 'sold' | 'retaken'>): Promise<StockCounts> {
  const counted = byProductId(mergeLines(lines).filter((line) => line.stock !== null));
  const shortages: StockShortage[] = [];
  const counts: StockCounts = {};
  for (const line of counted) {
    const taking = tx
      .update(products)
      .set({ stock: sql`${products.stock} - ${line.quantity}` })
      .where(and(eq(products.id, line.productId), isNotNull(products.stock), sql`${products.stock} >= ${line.quantity}`))
      .returning({ stock: products.stock });
    // The count, its log entry and its announcement in one round trip: the product's row stays
    // locked from here until the transaction ends, so every statement after this one makes other
    // orders of it wait longer.
    const [taken] = await selectRows<{ stock: number }>(
      tx,
      sql`with taken as (${taking.getSQL()}),
        logged as (insert into ${stockChanges} (product_id, order_id, change, stock_after, reason)
          select ${line.productId}::uuid, ${orderId}, ${-line.quantity}::integer, stock, ${reason} from taken)
        select stock, ${stockNotice(line.productId, sql`stock`)} from taken`,
    );
    if (taken) {
      counts[line.productId] = taken.stock;
    } else {
      const [now] = await tx.select({ stock: products.stock }).from(products).where(eq(products.id, line.productId));
      shortages.push({ productId: line.productId, name: line.name, wanted: line.quantity, left: now?.stock ?? 0 });
    }
  }
  if (shortages.length > 0) {
    const text = shortages.map((shortage) => `${shortage.name.en || shortage.name.bg}: ${shortage.left} left, ${shortage.wanted} wanted`).join('; ');
    throw new HttpError(409, 'stock_short', `Not enough in stock: ${text}`, { shortages });
  }
  return counts;
}

/** One line per product, should an order name a product twice. */
function mergeLines(lines: readonly StockLine[]): StockLine[] {
  const merged = new Map<string, StockLine>();
  for (const line of lines) {
    const seen = merged.get(line.productId);
    merged.set(line.productId, seen ? { ...seen, quantity: seen.quantity + line.quantity } : { ...line });
  }
  return [...merged.values()];
}

/**
 * Gives back the pieces an order holds (those its changes took and did not return), in the caller's
 * transaction, which holds the order's row: cancelling twice returns them once.
 */
export async function returnStock(tx: Executor, orderId: string): Promise<StockCounts> {
  const held = await tx
    .select({ productId: stockChanges.productId, pieces: sql<number>`(-sum(${stockChanges.change}))::int` })
    .from(stockChanges)
    .where(eq(stockChanges.orderId, orderId))
    .groupBy(stockChanges.productId)
    .having(sql`sum(${stockChanges.change}) < 0`);
  const counts: StockCounts = {};
  for (const { productId, pieces } of byProductId(held)) {
    const [returned] = await tx
      .update(products)
      .set({ stock: sql`${products.stock} + ${pieces}` })
      .where(eq(products.id, productId))
      .returning({ stock: products.stock });
    if (!returned) continue;
    counts[productId] = returned.stock;
    await tx.insert(stockChanges).values({ productId, orderId, change: pieces, stockAfter: returned.stock, reason: 'returned' });
  }
  if (Object.keys(counts).length > 0) await announceStock(tx, counts);
  return counts;
}

/**
 * The counts of the given products, held until the caller's transaction ends against an admin
 * switching them between counted and made to order (an admin's change of a count waits, see
 * lockForStockChange; orders and price edits do not).
 */
export async function readStockForOrder(tx: Executor, productIds: readonly string[]): Promise<Map<string, number | null>> {
  if (productIds.length === 0) return new Map();
  const rows = await tx
    .select({ id: products.id, stock: products.stock })
    .from(products)
    .where(inArray(products.id, [...productIds]))
    .for('key share');
  return new Map(rows.map((row) => [row.id, row.stock]));
}

/**
 * The product's current count, with the product held for a change of it by an admin: it waits for
 * orders being placed with the product, and orders wait for it.
 */
export async function lockForStockChange(tx: Executor, productId: string): Promise<{ stock: number | null } | undefined> {
  const [row] = await tx.select({ stock: products.stock }).from(products).where(eq(products.id, productId)).for('update');
  return row;
}

/** Records a count set by an admin (or null: made to order). */
export async function recordStockSet(tx: Executor, productId: string, before: number | null, after: number | null, changedBy: string): Promise<void> {
  await tx.insert(stockChanges).values({ productId, change: (after ?? 0) - (before ?? 0), stockAfter: after, reason: 'set', changedBy });
}

/** The counts of every product whose stock is counted (a shop's catalogue is small: see CATALOGUE_PAGE_SIZE). */
export async function countedStock(db: Executor, limit: number): Promise<StockCounts> {
  const rows = await db.select({ id: products.id, stock: products.stock }).from(products).where(isNotNull(products.stock)).limit(limit);
  return Object.fromEntries(rows.map((row) => [row.id, row.stock]));
}

type StockChangeRow = { productNameEn: string; productNameBg: string } & typeof stockChanges.$inferSelect;

const toStockChange = (row: StockChangeRow): StockChange => ({
  productId: row.productId,
  productName: { en: row.productNameEn, bg: row.productNameBg },
  orderId: row.orderId,
  change: row.change,
  stockAfter: row.stockAfter,
  reason: row.reason as StockChangeReason,
  changedBy: row.changedBy,
  at: row.changedAt.toISOString(),
});

const changeColumns = {
  id: stockChanges.id,
  productId: stockChanges.productId,
  orderId: stockChanges.orderId,
  change: stockChanges.change,
  stockAfter: stockChanges.stockAfter,
  reason: stockChanges.reason,
  changedBy: stockChanges.changedBy,
  changedAt: stockChanges.changedAt,
  productNameEn: products.nameEn,
  productNameBg: products.nameBg,
};

/** The stock changes an order made, oldest first. */
export async function stockChangesOfOrder(db: Executor, orderId: string): Promise<StockChange[]> {
  const rows = await db
    .select(changeColumns)
    .from(stockChanges)
    .innerJoin(products, eq(products.id, stockChanges.productId))
    .where(eq(stockChanges.orderId, orderId))
    .orderBy(stockChanges.changedAt, stockChanges.id);
  return rows.map(toStockChange);
}

/** A product's latest stock changes, newest first. */
export async function stockChangesOfProduct(db: Executor, productId: string, limit = 50): Promise<StockChange[]> {
  const rows = await db
    .select(changeColumns)
    .from(stockChanges)
    .innerJoin(products, eq(products.id, stockChanges.productId))
    .where(eq(stockChanges.productId, productId))
    .orderBy(desc(stockChanges.changedAt), desc(stockChanges.id))
    .limit(limit);
  return rows.map(toStockChange);
}
