import type { CartItem } from '#shared/cart.js';

/**
 * The price a cart line had before, when today's differs: the one the customer last saw (on the
 * checkout page before the server reported a change), else the one it had when it was added.
 * Null when the line costs what the customer expects.
 */
export function earlierPriceOf(item: Pick<CartItem, 'priceMinor' | 'addedPriceMinor'>, seenPriceMinor?: number): number | null {
  if (seenPriceMinor !== undefined && seenPriceMinor !== item.priceMinor) return seenPriceMinor;
  return item.addedPriceMinor !== item.priceMinor ? item.addedPriceMinor : null;
}
