import type { LocalizedText } from './catalog.js';

/**
 * Stock of a product: a count of pieces on hand, or null for a piece made to order (no limit).
 * A one-of-a-kind piece has a stock of 1. Placing an order takes its pieces, cancelling the order
 * gives them back; every change is recorded with its reason.
 */

/** At this count or fewer, the shop says "Only N left". */
export const LOW_STOCK_MAX = 3;
/** The highest count the admin may set. */
export const MAX_STOCK = 100_000;

export type StockLevel = 'madeToOrder' | 'inStock' | 'low' | 'soldOut';

export function stockLevel(stock: number | null): StockLevel {
  if (stock === null) return 'madeToOrder';
  if (stock <= 0) return 'soldOut';
  return stock <= LOW_STOCK_MAX ? 'low' : 'inStock';
}

/** How many more pieces of a product with this stock a cart holding `inCart` of them may take. */
export function piecesAvailable(stock: number | null, inCart: number): number {
  return stock === null ? Number.POSITIVE_INFINITY : Math.max(0, stock - inCart);
}

/** Whether a cart line asks for more pieces than its product has left. */
export const exceedsStock = (line: { quantity: number; stock: number | null }) => line.stock !== null && line.quantity > line.stock;

/** A line of a cart or order that asks for more pieces than are left. */
export interface StockShortage {
  productId: string;
  name: LocalizedText;
  /** Pieces asked for. */
  wanted: number;
  /** Pieces left in stock. */
  left: number;
  /** For a product counting per combination: the combination short of pieces (combinationKey). */
  combinationKey?: string;
}

/**
 * Why a count changed: sold in an order, returned by cancelling an order, taken again when a
 * cancelled order was reopened, or set by the admin.
 */
export type StockChangeReason = 'sold' | 'returned' | 'retaken' | 'set';

export interface StockChange {
  productId: string;
  productName: LocalizedText;
  orderId: string | null;
  /** The combination counted, for a product counting per combination; null for the product's own count. */
  combinationKey: string | null;
  /** Pieces added (positive) or taken (negative); made to order counts as 0 on either side. */
  change: number;
  /** The count after the change; null when the product is made to order. */
  stockAfter: number | null;
  reason: StockChangeReason;
  /** The admin who set the count. */
  changedBy: string | null;
  at: string;
}

/** The admin's product list filter. */
export const STOCK_FILTERS = ['soldOut', 'low'] as const;
export type StockFilter = (typeof STOCK_FILTERS)[number];
