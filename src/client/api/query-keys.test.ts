import { QueryClient, type QueryKey } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { queryKeys } from './query-keys.js';

/** One query of every kind, as the pages hold them. */
const members: Record<string, QueryKey> = {
  session: queryKeys.session(),
  cart: queryKeys.cart('client@example.com'),
  visitorCart: queryKeys.cart(null),
  addresses: queryKeys.addresses(),
  productList: queryKeys.productList('category=nails'),
  product: queryKeys.product('pearl-set'),
  productsByIds: queryKeys.productsByIds('a,b'),
  myOrders: queryKeys.myOrders(),
  order: queryKeys.order('NA-1'),
  adminOrderPage: queryKeys.adminOrderPage({ status: 'paid', search: '', after: 'c2', before: '' }),
  adminOrder: queryKeys.adminOrder('NA-1'),
  adminAccess: queryKeys.adminAccess(),
  adminProductList: queryKeys.adminProductList('soldOut', 'bg'),
  stockHistory: queryKeys.stockHistory('b1c2'),
  legalPage: queryKeys.legalPage('terms', 'bg'),
  productReviews: queryKeys.productReviews('b1c2'),
  myReviews: queryKeys.myReviews(),
  adminReviews: queryKeys.adminReviews('pending'),
};

/** The queries that invalidating this key makes stale, as the query library matches keys. */
function reachedBy(queryKey: QueryKey): string[] {
  const client = new QueryClient();
  for (const key of Object.values(members)) client.setQueryData(key, 'data');
  void client.invalidateQueries({ queryKey, refetchType: 'none' });
  return Object.entries(members)
    .filter(([, key]) => client.getQueryState(key)?.isInvalidated)
    .map(([name]) => name)
    .sort();
}

describe('query keys', () => {
  it('are distinct for every query', () => {
    const hashes = Object.values(members).map((key) => JSON.stringify(key));
    expect(new Set(hashes).size).toBe(hashes.length);
  });

  it.each([
    ['carts', queryKeys.carts(), ['cart', 'visitorCart']],
    ['catalogue', queryKeys.catalogue(), ['product', 'productList', 'productsByIds']],
    ['orders', queryKeys.orders(), ['adminOrder', 'adminOrderPage', 'myOrders', 'myReviews', 'order']],
    ['adminOrders', queryKeys.adminOrders(), ['adminOrder', 'adminOrderPage']],
    ['adminProducts', queryKeys.adminProducts(), ['adminProductList', 'stockHistory']],
    ['the cart topic', queryKeys.ofTopic('cart'), ['cart', 'visitorCart']],
    ['the orders topic', queryKeys.ofTopic('orders'), ['adminOrder', 'adminOrderPage', 'myOrders', 'myReviews', 'order']],
    ['product reviews', queryKeys.productReviewPages(), ['productReviews']],
  ])('%s reaches its members and nothing else', (_family, key, expected) => {
    expect(reachedBy(key)).toEqual(expected);
  });

  it('reach one query by a member key, filters compared by value', () => {
    expect(reachedBy(queryKeys.adminOrderPage({ after: 'c2', before: '', search: '', status: 'paid' }))).toEqual(['adminOrderPage']);
    expect(reachedBy(queryKeys.cart('client@example.com'))).toEqual(['cart']);
  });
});
