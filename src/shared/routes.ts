/** The app's page routes (spec section 2). The server answers 200 with the app for these, 404 otherwise. */
export const PAGE_ROUTES = {
  home: '/',
  profile: '/profile',
  cart: '/cart',
  checkout: '/checkout',
  payment: '/checkout/payment/:orderId',
  mockPayment: '/mock-payment/:orderId',
  admin: '/admin',
} as const;

const routePatterns = Object.values(PAGE_ROUTES).map(
  (route) => new RegExp('^' + route.replace(/:[a-zA-Z]+/g, '[^/]+') + '/?$'),
);

export function isPageRoute(pathname: string): boolean {
  return routePatterns.some((pattern) => pattern.test(pathname));
}

/** Pages a search engine should index; the rest are personal or transactional. */
export const INDEXABLE_ROUTES = [PAGE_ROUTES.home] as const;
