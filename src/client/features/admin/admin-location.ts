import { useSearchParams } from 'wouter';
import { isOrderStatus } from '#shared/order-status.js';
import { PAGE_ROUTES } from '#shared/routes.js';
import { STOCK_FILTERS, type StockFilter } from '#shared/stock.js';
import { WORK_LIST_STATUSES } from '#shared/work-list.js';
import type { OrderFilter } from './admin-api.js';

// What the dashboard shows lives in its address, so that a reload, the Back button and a shared link
// all open the same tab, list and order: /admin (the dashboard), /admin?tab=products(&stock=soldOut), /admin?tab=orders&status=paid&q=abv&after=<cursor>,
// and an open order adds order=NA-....; the work list is /admin?tab=work-list(&status=paid), the size chart /admin?tab=size-chart, the discount codes /admin?tab=discounts, the gift cards /admin?tab=gift-cards, the buyers' requests for similar pieces /admin?tab=requests, the reviews /admin?tab=reviews, the search synonyms /admin?tab=synonyms.

export const ADMIN_TABS = ['dashboard', 'products', 'orders', 'workList', 'sizeChart', 'returns', 'discounts', 'giftCards', 'requests', 'reviews', 'synonyms'] as const;
type AdminTab = (typeof ADMIN_TABS)[number];

/** Each tab but the first as the address names it. */
const TAB_PARAMS: Record<Exclude<AdminTab, 'dashboard'>, string> = {
  products: 'products',
  orders: 'orders',
  workList: 'work-list',
  sizeChart: 'size-chart',
  returns: 'returns',
  discounts: 'discounts',
  giftCards: 'gift-cards',
  requests: 'requests',
  reviews: 'reviews',
  synonyms: 'synonyms',
};
/** The tab an address names; a stock filter alone is the product list's, as links made before the dashboard have it. */
const tabOf = (param: string | null, stock: string | null): AdminTab =>
  (Object.keys(TAB_PARAMS) as Exclude<AdminTab, 'dashboard'>[]).find((tab) => TAB_PARAMS[tab] === param) ?? (param === null && stock ? 'products' : 'dashboard');

export interface AdminView {
  tab: AdminTab;
  filter: OrderFilter;
  orderId: string | null;
  /** The product list's stock filter; empty for all products. */
  stock: StockFilter | '';
}

/** A cursor as the server writes them (base64url); anything else in the address means the first page. */
const cursorIn = (value: string | null) => (value && /^[\w-]{1,200}$/.test(value) ? value : '');

export function readAdminView(params: URLSearchParams): AdminView {
  const orderId = params.get('order') || null;
  const status = params.get('status');
  const after = cursorIn(params.get('after'));
  const tab = orderId ? 'orders' : tabOf(params.get('tab'), params.get('stock'));
  // The work list shows only open orders: another status in its address is one nobody could have chosen there.
  const statusShown = tab === 'workList' ? WORK_LIST_STATUSES.find((candidate) => candidate === status) : isOrderStatus(status) ? status : undefined;
  return {
    tab,
    filter: {
      status: statusShown ?? '',
      search: params.get('q')?.trim() ?? '',
      after,
      before: after ? '' : cursorIn(params.get('before')),
    },
    orderId,
    stock: STOCK_FILTERS.find((filter) => filter === params.get('stock')) ?? '',
  };
}

/** The query string of a view, with only what differs from the defaults. */
function adminSearch({ tab, filter, orderId, stock }: AdminView): string {
  const params = new URLSearchParams();
  if (tab === 'products') {
    params.set('tab', TAB_PARAMS.products);
    if (stock) params.set('stock', stock);
  }
  if (tab === 'workList') {
    params.set('tab', TAB_PARAMS.workList);
    if (filter.status) params.set('status', filter.status);
  }
  if (tab === 'sizeChart') params.set('tab', TAB_PARAMS.sizeChart);
  if (tab === 'returns') params.set('tab', TAB_PARAMS.returns);
  if (tab === 'discounts') params.set('tab', TAB_PARAMS.discounts);
  if (tab === 'giftCards') params.set('tab', TAB_PARAMS.giftCards);
  if (tab === 'requests') params.set('tab', TAB_PARAMS.requests);
  if (tab === 'reviews') params.set('tab', TAB_PARAMS.reviews);
  if (tab === 'synonyms') params.set('tab', TAB_PARAMS.synonyms);
  if (tab === 'orders') {
    params.set('tab', 'orders');
    if (filter.status) params.set('status', filter.status);
    if (filter.search) params.set('q', filter.search);
    if (filter.after) params.set('after', filter.after);
    else if (filter.before) params.set('before', filter.before);
    if (orderId) params.set('order', orderId);
  }
  const search = params.toString();
  return search ? `?${search}` : '';
}

export const adminHref = (view: AdminView) => `${PAGE_ROUTES.admin}${adminSearch(view)}`;

/**
 * The view in the address, and a way to move to another one: a new history entry by default, so that
 * Back returns, or in place of the current one (for choices that change with every arrow key).
 */
export function useAdminView(): [AdminView, (next: AdminView, options?: { replace?: boolean }) => void] {
  const [params, setParams] = useSearchParams();
  const view = readAdminView(params);
  return [
    view,
    (next, options) => {
      // The same view again (a search repeated) would only add an entry that Back steps through.
      if (adminSearch(next) !== adminSearch(view)) setParams(adminSearch(next).slice(1), options);
    },
  ];
}
