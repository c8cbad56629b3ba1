import { describe, expect, it } from 'vitest';
import type { CatalogueResponse, Product } from '#shared/catalog.js';
import { PLAIN_PRODUCT_MODEL } from '#shared/product-options.js';
import type { ShownCartItem } from '#client/cart/cart-storage.js';
import { cartLine } from '../../../tests/support/cart-line.js';
import { cartWithCounts, catalogueWithCounts } from './stock-counts.js';

const product = (id: string, stock: number | null): Product => ({
  ...PLAIN_PRODUCT_MODEL,
  returnRule: 'standard',
  id,
  slug: id,
  name: { en: id, bg: '' },
  description: { en: '', bg: '' },
  priceMinor: 100,
  category: '',
  stock,
  weightGrams: null,
  photos: [],
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
});
const catalogue: CatalogueResponse = { version: 3, total: 3, page: 1, pageSize: 48, products: [product('a', 2), product('b', null), product('c', 5)], facets: { all: 3, categories: [], prices: [], available: 3, options: [] } };
const line = (productId: string, stock: number | null): ShownCartItem => cartLine({ id: `line-${productId}`, productId, priceMinor: 100, stock });

describe('stock counts from the live channel', () => {
  it('sets the counts it names in the catalogue and leaves the rest and the version', () => {
    expect(catalogueWithCounts(catalogue, { a: 0, x: 7 })).toEqual({ ...catalogue, products: [product('a', 0), product('b', null), product('c', 5)] });
  });

  it('gives back the same catalogue and cart when nothing changed, or when there is none', () => {
    expect(catalogueWithCounts(catalogue, { a: 2, c: 5 })).toBe(catalogue);
    expect(catalogueWithCounts(undefined, { a: 1 })).toBeUndefined();
    expect(catalogueWithCounts(null, { a: 1 })).toBeNull();
    const cart = [line('a', 2)];
    expect(cartWithCounts(cart, { a: 2 })).toBe(cart);
    expect(cartWithCounts(undefined, { a: 1 })).toBeUndefined();
  });

  it('sets the counts of a product page’s product and of the products beside it', () => {
    const page = { version: 3, product: product('a', 2), related: [product('b', null), product('c', 5)] };
    expect(catalogueWithCounts(page, { a: 1, c: 0 })).toEqual({ version: 3, product: product('a', 1), related: [product('b', null), product('c', 0)] });
    expect(catalogueWithCounts(page, { b: null })).toBe(page);
  });

  it('sets the counts of the cart’s lines', () => {
    expect(cartWithCounts([line('a', 2), line('b', null)], { a: 1 })).toEqual([line('a', 1), line('b', null)]);
  });
});
