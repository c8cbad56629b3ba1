import { and, asc, desc, eq, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { LocalizedText } from '#shared/catalog.js';
import type { StockCounts } from '#shared/live.js';
import type { StockChange, StockChangeReason, StockShortage } from '#shared/stock.js';
import type { Database, Executor } from '#server/db/client.js';
import { PreparedQuery } from '#server/db/prepared.js';
import { productCombinations, products, stockChanges } from '#server/db/schema.js';
import { HttpError } from '#server/http/errors.js';
import { announceStock, stockNotice } from '#server/notices/live-hub.js';

/** A line that takes pieces; its count was read with the product (and its combination) held (readCartForCheckout, readStockForOrder), so it cannot switch between counted and made to order meanwhile. */
export interface StockLine {
  productId: string;
  name: LocalizedText;
  quantity: number;
  /** The count as read; null (made to order) takes nothing. */
  stock: number | null;
  /** The combination whose count the line takes (product_combinations), or null (or absent) for the product's own count. */
  combinationKey?: string | null;
}

/** Where a line's pieces are counted, as one sortable text: the product, then its combination (none sorts first). */
const countKey = (line: Pick<StockLine, 'productId' | 'combinationKey'>) => `${line.productId}/${line.combinationKey ?? ''}`;

const byCount = <T extends Pick<StockLine, 'productId' | 'combinationKey'>>(lines: readonly T[]) =>
  [...lines].sort((a, b) => (countKey(a) < countKey(b) ? -1 : countKey(a) > countKey(b) ? 1 : 0));

/**
 * Takes the lines' pieces for an order, in the caller's transaction, or throws stock_short naming
 * every count asked for more than is left (the transaction then writes nothing). Each count (a
 * product's, or a combination's for a product counting per combination) is lowered by a conditional
 * update, which PostgreSQL applies to the latest committed count after waiting for any other order
 * of it, so no piece is sold twice. Counts are updated in the order of their product ids and keys,
 * so two orders of the same products wait for each other instead of deadlocking; orders of
 * different products do not wait at all. A combination's count is not announced to open pages,
 * which show the product's.
 */
export async function takeStock(db: Database, tx: Executor, orderId: string, lines: readonly StockLine[], reason: Extract<StockChangeReason, 'sold' | 'retaken'>): Promise<StockCounts> {
  const counted = byCount(mergeLines(lines).filter((line) => line.stock !== null));
  const shortages: StockShortage[] = [];
  const counts: StockCounts = {};
  for (const line of counted) {
    const combination = line.combinationKey ?? null;
    // The count, its log entry and its announcement in one round trip: the row stays locked from here
    // until the transaction ends, so every statement after this one makes other orders of it wait longer.
    const [taken] = await takeStatement(tx, combination !== null).run(db, tx, { productId: line.productId, combinationKey: combination, quantity: line.quantity, orderId, reason });
    if (taken) {
      if (combination === null) counts[line.productId] = taken.stock;
    } else {
      const now = combination === null ? await productStock(tx, line.productId) : await combinationStock(tx, line.productId, combination);
      shortages.push({ productId: line.productId, name: line.name, wanted: line.quantity, left: now ?? 0, ...(combination === null ? {} : { combinationKey: combination }) });
    }
  }
  if (shortages.length > 0) {
    const text = shortages.map((shortage) => `${shortage.name.en || shortage.name.bg}: ${shortage.left} left, ${shortage.wanted} wanted`).join('; ');
    throw new HttpError(409, 'stock_short', `Not enough in stock: ${text}`, { shortages });
  }
  return counts;
}

type TakeValues = {
  productId: string;
  combinationKey: string | null;
  quantity: number;
  orderId: string;
  reason: StockChangeReason;
};

/** takeStock's statement for a product's own count and for a combination's, each built once and prepared once per connection: it runs for every counted line of every order. */
const takeStatements = new Map<boolean, PreparedQuery<{ stock: number }, TakeValues>>();

function takeStatement(tx: Executor, ofCombination: boolean): PreparedQuery<{ stock: number }, TakeValues> {
  let statement = takeStatements.get(ofCombination);
  if (statement) return statement;
  const value = (name: keyof TakeValues) => sql.placeholder(name);
  const quantity = sql`${value('quantity')}::integer`;
  const taking = ofCombination
    ? tx
        .update(productCombinations)
        .set({ stock: sql`${productCombinations.stock} - ${quantity}` })
        .where(
          and(
            eq(productCombinations.productId, value('productId')),
            eq(productCombinations.key, value('combinationKey')),
            isNotNull(productCombinations.stock),
            sql`${productCombinations.stock} >= ${quantity}`,
          ),
        )
        .returning({ stock: productCombinations.stock })
    : tx
        .update(products)
        .set({ stock: sql`${products.stock} - ${quantity}` })
        .where(and(eq(products.id, value('productId')), isNotNull(products.stock), sql`${products.stock} >= ${quantity}`))
        .returning({ stock: products.stock });
  const query = sql`with taken as (${taking.getSQL()}),
    logged as (insert into ${stockChanges} (product_id, order_id, combination_key, change, stock_after, reason)
      select ${value('productId')}::uuid, ${value('orderId')}::text, ${value('combinationKey')}::text, -${quantity}, stock, ${value('reason')}::text from taken)
    select stock${ofCombination ? sql`` : sql`, ${stockNotice(value('productId'), sql`stock`)}`} from taken`;
  statement = new PreparedQuery(`take_stock_of_${ofCombination ? 'combination' : 'product'}`, query);
  takeStatements.set(ofCombination, statement);
  return statement;
}

const productStock = async (tx: Executor, productId: string) => (await tx.select({ stock: products.stock }).from(products).where(eq(products.id, productId)))[0]?.stock;

const combinationStock = async (tx: Executor, productId: string, key: string) =>
  (await tx.select({ stock: productCombinations.stock }).from(productCombinations).where(and(eq(productCombinations.productId, productId), eq(productCombinations.key, key))))[0]?.stock;

/** One line per count: the lines of a product counted as a whole take from one count, as do those of one combination. */
function mergeLines(lines: readonly StockLine[]): StockLine[] {
  const merged = new Map<string, StockLine>();
  for (const line of lines) {
    const seen = merged.get(countKey(line));
    merged.set(countKey(line), seen ? { ...seen, quantity: seen.quantity + line.quantity } : { ...line });
  }
  return [...merged.values()];
}

/**
 * Gives back the pieces an order holds (those its changes took and did not return), each to the
 * count it came from (the product's, or its combination's), in the caller's transaction, which holds
 * the order's row: cancelling twice returns them once. A count that no longer exists (a deleted
 * product or combination) gets nothing.
 */
export async function returnStock(tx: Executor, orderId: string): Promise<StockCounts> {
  const held = await tx
    .select({ productId: stockChanges.productId, combinationKey: stockChanges.combinationKey, pieces: sql<number>`(-sum(${stockChanges.change}))::int` })
    .from(stockChanges)
    .where(eq(stockChanges.orderId, orderId))
    .groupBy(stockChanges.productId, stockChanges.combinationKey)
    .having(sql`sum(${stockChanges.change}) < 0`);
  const counts: StockCounts = {};
  for (const { productId, combinationKey, pieces } of byCount(held)) {
    const [returned] =
      combinationKey === null
        ? await tx
            .update(products)
            .set({ stock: sql`${products.stock} + ${pieces}` })
            .where(eq(products.id, productId))
            .returning({ stock: products.stock })
        : await tx
            .update(productCombinations)
            .set({ stock: sql`${productCombinations.stock} + ${pieces}` })
            .where(and(eq(productCombinations.productId, productId), eq(productCombinations.key, combinationKey)))
            .returning({ stock: productCombinations.stock });
    if (!returned) continue;
    if (combinationKey === null) counts[productId] = returned.stock;
    await tx.insert(stockChanges).values({ productId, orderId, combinationKey, change: pieces, stockAfter: returned.stock, reason: 'returned' });
  }
  if (Object.keys(counts).length > 0) await announceStock(tx, counts);
  return counts;
}

/**
 * Gives back the pieces of some of an order's lines (goods returned after a withdrawal), each to the
 * count it came from, in the caller's transaction, which holds the order's row. A count gets back at
 * most what the order still holds of it, so a later cancellation of the order returns only the rest;
 * a made-to-order product or a count that no longer exists gets nothing.
 */
export async function returnPieces(tx: Executor, orderId: string, lines: readonly { productId: string; combinationKey: string | null; quantity: number }[]): Promise<StockCounts> {
  const held = await tx
    .select({ productId: stockChanges.productId, combinationKey: stockChanges.combinationKey, pieces: sql<number>`(-sum(${stockChanges.change}))::int` })
    .from(stockChanges)
    .where(eq(stockChanges.orderId, orderId))
    .groupBy(stockChanges.productId, stockChanges.combinationKey);
  const counts: StockCounts = {};
  for (const line of byCount(mergeLines(lines.map((line) => ({ ...line, name: { en: '', bg: '' }, stock: 0 }))))) {
    const combinationKey = line.combinationKey ?? null;
    const holding = held.find((row) => row.productId === line.productId && row.combinationKey === combinationKey)?.pieces ?? 0;
    const pieces = Math.min(line.quantity, holding);
    if (pieces <= 0) continue;
    const [returned] =
      combinationKey === null
        ? await tx
            .update(products)
            .set({ stock: sql`${products.stock} + ${pieces}` })
            .where(and(eq(products.id, line.productId), isNotNull(products.stock)))
            .returning({ stock: products.stock })
        : await tx
            .update(productCombinations)
            .set({ stock: sql`${productCombinations.stock} + ${pieces}` })
            .where(and(eq(productCombinations.productId, line.productId), eq(productCombinations.key, combinationKey), isNotNull(productCombinations.stock)))
            .returning({ stock: productCombinations.stock });
    if (!returned) continue;
    if (combinationKey === null) counts[line.productId] = returned.stock;
    await tx.insert(stockChanges).values({ productId: line.productId, orderId, combinationKey, change: pieces, stockAfter: returned.stock, reason: 'returned' });
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
 * The counts of the given combinations, held as readStockForOrder holds products: an admin removing
 * one waits until the caller's transaction ends. A combination missing from the answer is not sold.
 */
export async function readCombinationStockForOrder(tx: Executor, combinations: readonly { productId: string; key: string }[]): Promise<Map<string, number | null>> {
  if (combinations.length === 0) return new Map();
  const rows = await tx
    .select({ productId: productCombinations.productId, key: productCombinations.key, stock: productCombinations.stock })
    .from(productCombinations)
    .where(or(...combinations.map((combination) => and(eq(productCombinations.productId, combination.productId), eq(productCombinations.key, combination.key)))))
    .orderBy(productCombinations.productId, productCombinations.key)
    .for('key share');
  return new Map(rows.map((row) => [countKey({ productId: row.productId, combinationKey: row.key }), row.stock]));
}

/** The key readCombinationStockForOrder answers under. */
export const combinationCountKey = (productId: string, key: string) => countKey({ productId, combinationKey: key });

/**
 * The product's current count, with the product held for a change of it by an admin: it waits for
 * orders being placed with the product, and orders wait for it.
 */
export async function lockForStockChange(tx: Executor, productId: string): Promise<{ stock: number | null } | undefined> {
  const [row] = await tx.select({ stock: products.stock }).from(products).where(eq(products.id, productId)).for('update');
  return row;
}

/**
 * Whether no piece of the product can be bought now (none in stock and none made to order, of the
 * product or of every combination it counts apart); undefined when there is no such product. The
 * product and its combinations are held (FOR SHARE) until the caller's transaction ends, so no count
 * changes between this answer and what the caller records on it.
 */
export async function lockSoldOutState(tx: Executor, productId: string): Promise<boolean | undefined> {
  const [product] = await tx.select({ stock: products.stock, stockMode: products.stockMode }).from(products).where(eq(products.id, productId)).for('share');
  if (!product) return undefined;
  if (product.stockMode !== 'combination') return product.stock === 0;
  const combinations = await tx.select({ stock: productCombinations.stock }).from(productCombinations).where(eq(productCombinations.productId, productId)).for('share');
  return combinations.every((combination) => combination.stock === 0);
}

/** Records a count set by an admin (or null: made to order), of the product or of one of its combinations. */
export async function recordStockSet(tx: Executor, productId: string, before: number | null, after: number | null, changedBy: string, combinationKey: string | null = null): Promise<void> {
  await tx.insert(stockChanges).values({ productId, combinationKey, change: (after ?? 0) - (before ?? 0), stockAfter: after, reason: 'set', changedBy });
}

/** The counts of the products whose stock is counted, up to `limit` of them, the lowest first. */
export async function countedStock(db: Executor, limit: number): Promise<StockCounts> {
  const rows = await db
    .select({ id: products.id, stock: products.stock })
    .from(products)
    .where(isNotNull(products.stock))
    .orderBy(asc(products.stock), asc(products.id))
    .limit(limit);
  return Object.fromEntries(rows.map((row) => [row.id, row.stock]));
}

type StockChangeRow = { productNameEn: string; productNameBg: string } & typeof stockChanges.$inferSelect;

const toStockChange = (row: StockChangeRow): StockChange => ({
  productId: row.productId,
  productName: { en: row.productNameEn, bg: row.productNameBg },
  orderId: row.orderId,
  combinationKey: row.combinationKey,
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
  combinationKey: stockChanges.combinationKey,
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
