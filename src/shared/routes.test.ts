import { describe, expect, it } from 'vitest';
import {
  adminOrderPath,
  cataloguePath,
  legalPath,
  matchPageRoute,
  mockPaymentPath,
  PAGE_ROUTES,
  paymentPath,
  productPath,
  profileOrderPath,
  profilePath,
  type PageName,
} from './routes.js';

describe('page paths', () => {
  it.each<[string, string, PageName, string | undefined]>([
    [cataloguePath(), '/', 'home', undefined],
    [cataloguePath('category=nails&page=2'), '/?category=nails&page=2', 'home', undefined],
    [cataloguePath('?q=pearl'), '/?q=pearl', 'home', undefined],
    [cataloguePath(new URLSearchParams({ q: 'pearl set' })), '/?q=pearl+set', 'home', undefined],
    [productPath('pearl-set'), '/product/pearl-set', 'product', 'pearl-set'],
    [productPath('pearl-set', '?lang=bg'), '/product/pearl-set?lang=bg', 'product', 'pearl-set'],
    [productPath('pearl-set', ''), '/product/pearl-set', 'product', 'pearl-set'],
    [legalPath('terms'), '/legal/terms', 'legal', 'terms'],
    [PAGE_ROUTES.cart, '/cart', 'cart', undefined],
    [PAGE_ROUTES.checkout, '/checkout', 'checkout', undefined],
    [PAGE_ROUTES.withdrawal, '/withdrawal', 'withdrawal', undefined],
    [PAGE_ROUTES.favourites, '/favourites', 'favourites', undefined],
    [profilePath(), '/profile', 'profile', undefined],
    [profilePath('orders'), '/profile?tab=orders', 'profile', undefined],
    [profilePath('addresses'), '/profile?tab=addresses', 'profile', undefined],
    [profileOrderPath('NA-1'), '/profile?order=NA-1', 'profile', undefined],
    [paymentPath('NA-1'), '/checkout/payment/NA-1', 'payment', 'NA-1'],
    [paymentPath('NA-1', { completed: true }), '/checkout/payment/NA-1?completed=true', 'payment', 'NA-1'],
    [mockPaymentPath('NA-1', 'pay_by_link'), '/mock-payment/NA-1', 'mockPayment', 'NA-1'],
    [mockPaymentPath('NA-1', 'card'), '/mock-payment/NA-1?method=card', 'mockPayment', 'NA-1'],
    [adminOrderPath('NA-1'), '/admin?tab=orders&order=NA-1', 'admin', undefined],
  ])('%s is %s, the %s page', (built, expected, page, param) => {
    expect(built).toBe(expected);
    const { pathname } = new URL(built, 'http://shop.test');
    expect(matchPageRoute(pathname)).toEqual(param === undefined ? { page } : { page, param });
  });

  it('keep an order id that is not a plain word in one path segment or parameter', () => {
    expect(paymentPath('a/b?c')).toBe('/checkout/payment/a%2Fb%3Fc');
    expect(new URL(profileOrderPath('a&b=c'), 'http://shop.test').searchParams.get('order')).toBe('a&b=c');
    expect(new URL(adminOrderPath('a&b=c'), 'http://shop.test').searchParams.get('order')).toBe('a&b=c');
  });
});
