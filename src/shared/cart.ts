import type { LocalizedText } from './catalog.js';
import type { StockShortage } from './stock.js';

/**
 * A line of a customer's cart, as the API sends it: one per product, with the product's current
 * name and price, which an order would be charged, the price it had when it was added, and its
 * current stock (null: made to order). Prices are in minor units (stotinki).
 */
export interface CartItem {
  id: string;
  productId: string;
  name: LocalizedText;
  priceMinor: number;
  addedPriceMinor: number;
  quantity: number;
  stock: number | null;
  addedAt: string;
}

/**
 * Every change to a cart is an operation with an id chosen by the browser. The server applies
 * an id at most once, so an operation replayed after a lost answer or from the offline queue
 * changes nothing the second time. Adding a product already in the cart raises its quantity by
 * one; setting a quantity of 0 takes the product's line out. Removal by line id is what browsers
 * queued before lines had quantities.
 */
export type CartOperation =
  | { id: string; type: 'add'; productId: string }
  | { id: string; type: 'set'; productId: string; quantity: number }
  | { id: string; type: 'remove'; itemId: string };

/**
 * What became of each operation: applied now, applied before, or dropped because its product or
 * line is gone, or because the product has fewer pieces left than the line would hold.
 */
type CartOperationOutcome = 'applied' | 'duplicate' | 'product_missing' | 'item_missing' | 'stock_short';

export interface CartOperationResult {
  id: string;
  outcome: CartOperationOutcome;
  /** With stock_short: the product, what was asked and what is left. */
  shortage?: StockShortage;
}

export interface CartResponse {
  items: CartItem[];
}

export interface CartOperationsResponse extends CartResponse {
  outcomes: CartOperationResult[];
}

/** The most operations one request may carry, for example from a long offline session. */
export const MAX_CART_OPERATIONS = 100;

/** The most pieces one cart may hold, all lines together; with the highest price this keeps every total in range. */
export const MAX_CART_PIECES = 100;

/** Pieces in a cart or order: the sum of its lines' quantities. */
export const pieceCount = (lines: readonly { quantity: number }[]) => lines.reduce((sum, line) => sum + line.quantity, 0);
