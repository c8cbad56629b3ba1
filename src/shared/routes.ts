import type { TextLanguage } from './catalog.js';
import type { LegalPage } from './legal.js';
import type { PaymentMethod } from './orders.js';

/** The app's page routes (spec section 2). The server answers 200 with the app for these, 404 otherwise. */
export const PAGE_ROUTES = {
  home: '/',
  product: '/product/:slug',
  profile: '/profile',
  cart: '/cart',
  checkout: '/checkout',
  payment: '/checkout/payment/:orderId',
  mockPayment: '/mock-payment/:orderId',
  admin: '/admin',
  legal: '/legal/:page',
  /** The EU withdrawal button's form, open to visitors and signed-in buyers alike. */
  withdrawal: '/withdrawal',
  /** The products she hearted: a visitor's in this browser, a customer's in her account. */
  favourites: '/favourites',
} as const;

export type PageName = keyof typeof PAGE_ROUTES;

const routePatterns = Object.entries(PAGE_ROUTES).map(
  ([name, route]) => [name as PageName, new RegExp('^' + route.replace(/:[a-zA-Z]+/g, '([^/]+)') + '/?$')] as const,
);

/** Which page of the app a path is, with its one parameter (the product's slug, the order's id), or undefined. */
export function matchPageRoute(pathname: string): { page: PageName; param?: string } | undefined {
  for (const [page, pattern] of routePatterns) {
    const match = pattern.exec(pathname);
    if (match) return match[1] === undefined ? { page } : { page, param: match[1] };
  }
  return undefined;
}

export function isPageRoute(pathname: string): boolean {
  return matchPageRoute(pathname) !== undefined;
}

/** Pages a search engine should index, each in both languages; the rest are personal or transactional. */
const INDEXABLE_PAGES: readonly PageName[] = ['home', 'product'];

/** Whether the path is one of the INDEXABLE_PAGES, whose address names its language. */
export const isIndexablePath = (pathname: string): boolean => {
  const page = matchPageRoute(pathname)?.page;
  return page !== undefined && INDEXABLE_PAGES.includes(page);
};

// The address of every page, built here and nowhere else (the app's links, the server's e-mails,
// sitemap and redirects). A page without parameters is linked by its route: PAGE_ROUTES.cart.

/** A query string (with or without its "?") or parameters as the end of a path: "?..." or, when empty, "". */
const query = (params: URLSearchParams | string) => {
  const text = String(params).replace(/^\?/, '');
  return text ? `?${text}` : '';
};

/** The catalogue (the home page) in a view: its category, search, sort and page as a query string. */
export const cataloguePath = (view: URLSearchParams | string = '') => PAGE_ROUTES.home + query(view);

/** A product's page; the query string of the address it was asked by (its language) may go along. */
export const productPath = (slug: string, search: URLSearchParams | string = '') => `/product/${slug}` + query(search);
/** What a product's page shows (ProductPageResponse), from the API. */
export const productPageDataPath = (slug: string) => `/api/products/by-slug/${encodeURIComponent(slug)}`;
export const legalPath = (page: LegalPage) => `/legal/${page}`;

/** The profile's tabs; its parameter names the one shown, the orders when it names none. */
export const PROFILE_TABS = ['orders', 'addresses'] as const;
export type ProfileTab = (typeof PROFILE_TABS)[number];
export const PROFILE_TAB_PARAM = 'tab';
export const profilePath = (tab?: ProfileTab) => PAGE_ROUTES.profile + query(tab ? new URLSearchParams({ [PROFILE_TAB_PARAM]: tab }) : '');

/** The profile's parameter naming the order to show first (links in e-mails use it). */
export const PROFILE_ORDER_PARAM = 'order';
export const profileOrderPath = (orderId: string) => `${PAGE_ROUTES.profile}?${PROFILE_ORDER_PARAM}=${encodeURIComponent(orderId)}`;

/** The payment page's parameter saying that the customer comes back from a payment the provider took. */
export const PAYMENT_COMPLETED_PARAM = 'completed';
export const paymentPath = (orderId: string, { completed = false } = {}) =>
  PAGE_ROUTES.payment.replace(':orderId', encodeURIComponent(orderId)) + (completed ? `?${PAYMENT_COMPLETED_PARAM}=true` : '');

/**
 * Where a payment provider sends the buyer back: after paying (the page then waits for the provider's
 * word, which reaches the shop by its own way), or when she gave up.
 */
export const PAYMENT_RETURN_PARAM = 'returned';
export type PaymentReturn = 'back' | 'cancelled';
export const paymentReturnPath = (orderId: string, how: PaymentReturn) => `${paymentPath(orderId)}?${PAYMENT_RETURN_PARAM}=${how}`;

/** The simulated provider's page: it asks for a card when the order is paid by card, else only confirms the payment. */
export const MOCK_PAYMENT_METHOD_PARAM = 'method';
export const mockPaymentPath = (orderId: string, method: PaymentMethod) =>
  PAGE_ROUTES.mockPayment.replace(':orderId', encodeURIComponent(orderId)) + (method === 'card' ? `?${MOCK_PAYMENT_METHOD_PARAM}=card` : '');

/**
 * The admin's dashboard with an order open (what the shop's e-mail about a new order links to). The
 * dashboard's own links carry its filters too (src/client/features/admin/admin-location.ts reads both).
 */
export const adminOrderPath = (orderId: string) => PAGE_ROUTES.admin + query(new URLSearchParams({ tab: 'orders', order: orderId }));

/** The dashboard with the form for a new product open (an empty shop's home page links to it). */
export const NEW_PRODUCT_PARAM = 'product';
export const adminNewProductPath = `${PAGE_ROUTES.admin}?tab=products&${NEW_PRODUCT_PARAM}=new`;

/**
 * Each language of an indexable page has its own address: English is the address without a
 * language (the default, and what x-default names), Bulgarian adds ?lang=bg (/product/pearl-set?lang=bg,
 * /?category=nails&lang=bg). Other pages do not carry it.
 */
export const LANGUAGE_PARAM = 'lang';
export const DEFAULT_PAGE_LANGUAGE: TextLanguage = 'en';

/** The language an address names, or undefined when it names none (or one the shop does not have). */
export function languageFromSearch(search: string | { get(name: string): string | null }): TextLanguage | undefined {
  const value = (typeof search === 'string' ? new URLSearchParams(search) : search).get(LANGUAGE_PARAM);
  return value === 'en' || value === 'bg' ? value : undefined;
}

/**
 * The address's query (with its "?", or "" for none) for a language, keeping its other parameters in
 * their order: the default language takes the parameter away, another sets it last.
 */
export function searchWithLanguage(search: string, language: TextLanguage): string {
  const params = new URLSearchParams(search);
  params.delete(LANGUAGE_PARAM);
  if (language !== DEFAULT_PAGE_LANGUAGE) params.set(LANGUAGE_PARAM, language);
  const query = params.toString();
  return query ? `?${query}` : '';
}

/** A path with its parameters and the language's, as an indexable page's address in that language. */
export function localizedPath(pathname: string, language: TextLanguage, params: Record<string, string> = {}): string {
  return pathname + searchWithLanguage(new URLSearchParams(params).toString(), language);
}
