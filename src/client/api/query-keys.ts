import type { LiveTopic } from '#shared/live.js';
import type { TextLanguage } from '#shared/catalog.js';
import type { LegalPage } from '#shared/legal.js';
import { CATALOGUE_TOPIC } from '#shared/live.js';
import type { StockFilter } from '#shared/stock.js';

// The families' keys: each is the prefix of its members' keys, so that invalidating a family reaches them all.
const carts = ['cart'] as const;
const catalogue = [CATALOGUE_TOPIC] as const;
const orders = ['orders'] as const;
const productReviewPages = ['reviews'] as const;
const adminReviewLists = ['admin', 'reviews'] as const;
const adminOrders = [...orders, 'admin'] as const;
const adminProducts = ['admin', 'products'] as const;

/**
 * The query cache's shared keys: every family, and each key that another module than its own
 * invalidates or patches (a key only its own module uses is built there). A builder without arguments (a plural
 * name) gives a family's key, to invalidate or patch all of its members at once; the others give
 * one query's key, under its family.
 */
export const queryKeys = {
  session: () => ['session'] as const,

  /** The cart of whoever this tab has seen signed in: invalidating them reaches the current one. */
  carts: () => carts,
  /** The signed-in customer's cart; null while nobody is. */
  cart: (email: string | null) => [...carts, email] as const,

  addresses: () => ['addresses'] as const,

  /** The signed-in customer's favourite products. */
  favourites: (email: string) => ['favourites', email] as const,

  /** Every view of the catalogue, under the live channel's topic that announces a change to it. */
  catalogue: () => catalogue,
  /** A page of the catalogue, by the query string the server is asked with. */
  productList: (search: string) => [...catalogue, 'list', search] as const,
  product: (slug: string) => [...catalogue, 'product', slug] as const,
  /** Products by their ids (a page of favourites), the ids joined in their order. */
  productsByIds: (ids: string) => [...catalogue, 'by-ids', ids] as const,
  /**
   * Every product's reviews: asked again with the catalogue's views, since its version goes up when a review is
   * approved or hidden. Not under the catalogue's key, whose members are all products and their lists.
   */
  productReviewPages: () => productReviewPages,
  /** A product's approved reviews, page by page. */
  productReviews: (productId: string) => [...productReviewPages, productId] as const,
  /** The signed-in buyer's delivered lines and her reviews of them: an order delivered brings new ones. */
  myReviews: () => [...orders, 'reviews'] as const,
  /** The admin's review lists, of every status: a review moved moves between them. */
  adminReviewLists: () => adminReviewLists,
  /** The admin's reviews of a status. */
  adminReviews: (status: string) => [...adminReviewLists, status] as const,

  /** Every view of orders, the customer's and the admin's: a new or changed order shows in both. */
  orders: () => orders,
  myOrders: () => [...orders, 'mine'] as const,
  order: (orderId: string) => [...orders, 'one', orderId] as const,
  /** The admin's order lists and the orders opened from them. */
  adminOrders: () => adminOrders,
  /** One page of the admin's order list, by its filter (status, search) and position (a cursor after or before which it lies). */
  adminOrderPage: (filter: { status: string; search: string; after: string; before: string }) => [...adminOrders, filter] as const,
  adminOrder: (orderId: string) => [...adminOrders, 'one', orderId] as const,

  adminAccess: () => ['admin', 'access'] as const,
  /** The admin's product lists and each product's stock history: what a change of stock makes stale. */
  adminProducts: () => adminProducts,
  /** The admin's product list by its stock filter; empty for all products. */
  adminProductList: (stock: StockFilter | '', language: string) => [...adminProducts, stock, language] as const,
  stockHistory: (productId: string) => [...adminProducts, 'stock-changes', productId] as const,

  /** A discount code's terms for the products in the cart (their ids, sorted and joined). */
  discountCode: (code: string, productIds: string) => [...carts, 'discount', code, productIds] as const,
  /** What is left on a gift card the buyer typed at checkout: stale with the cart, as an order changes both. */
  giftCard: (code: string) => [...carts, 'gift-card', code] as const,
  /** Couriers' offices found for a delivery method by a search (offering cash on delivery or not). */
  offices: (method: string, query: string, cashOnDelivery: boolean) => ['offices', method, query, cashOnDelivery] as const,
  /** Every courier's price asked at checkout, stale once an order is refused for its price. */
  deliveryQuotes: () => ['quote'] as const,
  /** The courier's price for a method, to a place (office or address id), for the cart as it is (its lines and quantities). */
  deliveryQuote: (method: string, place: string, cartKey: string) => ['quote', method, place, cartKey] as const,
  /** The admin's gift cards. */
  adminGiftCards: () => ['admin', 'gift-cards'] as const,
  /** The admin's dashboard for a range of days (empty: the last 30). */
  adminDashboard: (from: string, to: string) => [...adminOrders, 'dashboard', from, to] as const,
  /** The admin's discount codes. */
  adminDiscountCodes: () => ['admin', 'discount-codes'] as const,

  legalPage: (page: LegalPage, language: TextLanguage) => ['legal', page, language] as const,

  /** What the live channel's topic about the signed-in user makes stale. */
  ofTopic: (topic: LiveTopic) => (topic === 'cart' ? carts : orders),
};
