import type { CartItem } from '#shared/cart.js';
import { EMPTY_CHOICE_SUMMARY, NO_CHOICES } from '#shared/product-options.js';

/** A line of the server's cart for tests outside a browser: a product sold as it is, once, at 10.00 unless told otherwise. */
export const cartLine = (fields: Pick<CartItem, 'id' | 'productId'> & Partial<CartItem>): CartItem => ({
  slug: `product-${fields.productId}`,
  name: { en: fields.productId, bg: '' },
  priceMinor: 1000,
  addedPriceMinor: fields.priceMinor ?? 1000,
  quantity: 1,
  stock: null,
  addedAt: '2026-01-01T00:00:00Z',
  choices: NO_CHOICES,
  choiceKey: '',
  summary: EMPTY_CHOICE_SUMMARY,
  problem: null,
  dispatchBy: '2026-01-05',
  ...fields,
});
