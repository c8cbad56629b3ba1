import type { LocalizedText } from './catalog.js';
import type { ChoiceProblem, ChoiceSummary, LineChoices } from './product-options.js';
import type { StockShortage } from './stock.js';
import type { ReturnRule } from './withdrawals.js';

/**
 * A line of a customer's cart, as the API sends it: one per product and choices, with the product's
 * current name and unit price with those choices (unitPriceMinor), which an order would be charged,
 * the unit price it had when it was added, and the current stock of what it holds (the product's,
 * or its combination's; null: made to order). Prices are in minor units (stotinki or euro cents).
 */
export interface CartItem {
  id: string;
  productId: string;
  /** The product page's address is /product/{slug}: where a line whose choices no longer fit is chosen again. */
  slug: string;
  name: LocalizedText;
  priceMinor: number;
  addedPriceMinor: number;
  quantity: number;
  stock: number | null;
  addedAt: string;
  /** What the buyer chose, as sent; NO_CHOICES for a product sold as it is. */
  choices: LineChoices;
  /** choiceKey(choices): tells lines of one product apart. */
  choiceKey: string;
  /** The choices' names, from the product as it is now. */
  summary: ChoiceSummary;
  /** Why the choices no longer fit the product (edited since they were made), or null: checkout refuses such a line until it is chosen again. */
  problem: ChoiceProblem | null;
  /** The working day (yyyy-mm-dd) this line would be dispatched by if ordered today. */
  dispatchBy: string;
  /** The product's rule for the right of withdrawal; absent on a line known only to this browser, until the server's copy comes. */
  returnRule?: ReturnRule;
  /** A gift card sold (its product is in the gift cards category): priced without tax, discount or shipping. */
  giftCard?: boolean;
}

/**
 * Every change to a cart is an operation with an id chosen by the browser. The server applies
 * an id at most once, so an operation replayed after a lost answer or from the offline queue
 * changes nothing the second time. A line is a product with its choices (none when absent): adding
 * one already in the cart raises its quantity by one; setting a quantity of 0 takes the line out.
 * Removal by line id is what browsers queued before lines had quantities.
 */
export type CartOperation =
  | { id: string; type: 'add'; productId: string; choices?: LineChoices }
  | { id: string; type: 'set'; productId: string; choices?: LineChoices; quantity: number }
  | { id: string; type: 'remove'; itemId: string };

/**
 * What became of each operation: applied now, applied before, or dropped because its product or
 * line is gone, or because the product has fewer pieces left than the line would hold.
 */
type CartOperationOutcome = 'applied' | 'duplicate' | 'product_missing' | 'item_missing' | 'stock_short' | 'choices_invalid';

export interface CartOperationResult {
  id: string;
  outcome: CartOperationOutcome;
  /** With stock_short: the product, what was asked and what is left. */
  shortage?: StockShortage;
  /** With choices_invalid: which choice is refused and why. */
  problem?: ChoiceProblem;
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

/** "Pearl Tips × 2, Gold Foil": an order's lines in a few words, for lists. */
export function describeLines(lines: readonly { name: LocalizedText; quantity: number }[]): string {
  return lines
    .map((line) => {
      const name = line.name.en || line.name.bg;
      return line.quantity > 1 ? `${name} × ${line.quantity}` : name;
    })
    .join(', ')
    .slice(0, 500);
}
