import type { CatalogueResponse } from '../../shared/catalog.js';
import type { StockCounts } from '../../shared/live.js';
import type { ShownCartItem } from '../cart/cart-storage.js';

// Counts arrive with every order, so pages put them into what they hold instead of fetching it again.
// Each returns its input itself when no count changed, so that nothing re-renders for nothing.

export function catalogueWithCounts(catalogue: CatalogueResponse | undefined, counts: StockCounts): CatalogueResponse | undefined {
  if (!catalogue || !catalogue.products.some((product) => product.id in counts && counts[product.id] !== product.stock)) return catalogue;
  return { ...catalogue, products: catalogue.products.map((product) => (product.id in counts ? { ...product, stock: counts[product.id]! } : product)) };
}

export function cartWithCounts(items: ShownCartItem[] | undefined, counts: StockCounts): ShownCartItem[] | undefined {
  if (!items || !items.some((item) => item.productId in counts && counts[item.productId] !== item.stock)) return items;
  return items.map((item) => (item.productId in counts ? { ...item, stock: counts[item.productId]! } : item));
}
