import { describe, expect, it } from 'vitest';
import { adminHref, readAdminView, type AdminView } from './admin-location.js';

const view = (query: string) => readAdminView(new URLSearchParams(query));
const noFilter = { status: '', search: '', page: 1 } as const;

describe('the admin view in the address', () => {
  it.each<[string, AdminView]>([
    ['', { tab: 'products', filter: noFilter, orderId: null }],
    ['tab=orders', { tab: 'orders', filter: noFilter, orderId: null }],
    ['tab=orders&status=paid&q=+abv.bg+&page=3', { tab: 'orders', filter: { status: 'paid', search: 'abv.bg', page: 3 }, orderId: null }],
    // An order opens the orders tab even without it; values nobody could have chosen fall back.
    ['order=NA-7K3P9X2Q', { tab: 'orders', filter: noFilter, orderId: 'NA-7K3P9X2Q' }],
    ['tab=nothing&status=shipped&page=-2', { tab: 'products', filter: noFilter, orderId: null }],
    ['tab=orders&page=1.5', { tab: 'orders', filter: noFilter, orderId: null }],
  ])('reads %j', (query, expected) => {
    expect(view(query)).toEqual(expected);
  });

  it.each([
    ['/admin', { tab: 'products', filter: { status: 'paid', search: 'x', page: 2 }, orderId: 'NA-1' }],
    ['/admin?tab=orders', { tab: 'orders', filter: noFilter, orderId: null }],
    ['/admin?tab=orders&status=sent&q=maria%40abv.bg&page=2&order=NA-7K3P9X2Q', { tab: 'orders', filter: { status: 'sent', search: 'maria@abv.bg', page: 2 }, orderId: 'NA-7K3P9X2Q' }],
  ] as [string, AdminView][])('writes %s', (href, written) => {
    expect(adminHref(written)).toBe(href);
    if (written.tab === 'orders') expect(view(href.split('?')[1] ?? '')).toEqual(written);
  });
});
