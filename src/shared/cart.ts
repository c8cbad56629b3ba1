/**
 * A line of a customer's cart, as the API sends it: the product's current name and price, which an
 * order would be charged, and the price it had when it was added. Prices are in minor units (stotinki).
 */
export interface CartItem {
  id: string;
  productId: string;
  name: string;
  priceMinor: number;
  addedPriceMinor: number;
  addedAt: string;
}

/**
 * Every change to a cart is an operation with an id chosen by the browser. The server applies
 * an id at most once, so an operation replayed after a lost answer or from the offline queue
 * changes nothing the second time.
 */
export type CartOperation =
  | { id: string; type: 'add'; productId: string }
  | { id: string; type: 'remove'; itemId: string };

/** What became of each operation: applied now, applied before, or dropped because its product or line is gone. */
export type CartOperationOutcome = 'applied' | 'duplicate' | 'product_missing' | 'item_missing';

export interface CartResponse {
  items: CartItem[];
}

export interface CartOperationsResponse extends CartResponse {
  outcomes: Array<{ id: string; outcome: CartOperationOutcome }>;
}

/** The most operations one request may carry, for example from a long offline session. */
export const MAX_CART_OPERATIONS = 100;

/** The most lines one cart may hold; with the highest price this keeps every total in range. */
export const MAX_CART_LINES = 100;

/** Topics of the live channel: each names data the browser should fetch again. */
export type LiveTopic = 'cart' | 'orders';
