import type { CatalogueResponse, Product, ProductListResponse, ProductPageResponse } from '#shared/catalog.js';
import type { StockCounts } from '#shared/live.js';
import type { ShownCartItem } from '#client/cart/cart-storage.js';

// Counts arrive with every order, so pages put them into what they hold instead of fetching it again.
// Each returns its input itself when no count changed, so that nothing re-renders for nothing.

/** What pages hold of the catalogue: a page of its list, a list of products by id, or a product page. */
export type CatalogueView = CatalogueResponse | ProductListResponse | ProductPageResponse;

const changes = (products: readonly Product[], counts: StockCounts) => products.some((product) => product.id in counts && counts[product.id] !== product.stock);
const counted = (product: Product, counts: StockCounts): Product => (product.id in counts ? { ...product, stock: counts[product.id]! } : product);

export function catalogueWithCounts<View extends CatalogueView | null | undefined>(view: View, counts: StockCounts): View {
  if (!view) return view;
  if ('products' in view) {
    if (!changes(view.products, counts)) return view;
    return { ...view, products: view.products.map((product) => counted(product, counts)) };
  }
  if (!changes([view.product, ...view.related], counts)) return view;
  return { ...view, product: counted(view.product, counts), related: view.related.map((product) => counted(product, counts)) };
}

/**
 * A line with options may hold a combination counted on its own; the product's count is not its count,
 * so such a line keeps what the cart said until the cart is asked again.
 */
const countedLine = (item: ShownCartItem, counts: StockCounts) => item.productId in counts && !Object.keys(item.choices?.options ?? {}).length;

export function cartWithCounts(items: ShownCartItem[] | undefined, counts: StockCounts): ShownCartItem[] | undefined {
  if (!items || !items.some((item) => countedLine(item, counts) && counts[item.productId] !== item.stock)) return items;
  return items.map((item) => (countedLine(item, counts) ? { ...item, stock: counts[item.productId]! } : item));
}
