import { describe, expect, it } from 'vitest';
import { adminOrderPath } from '../../../shared/routes.js';
import { adminHref, readAdminView, type AdminView } from './admin-location.js';

const view = (query: string) => readAdminView(new URLSearchParams(query));
const noFilter = { status: '', search: '', page: 1 } as const;

describe('the admin view in the address', () => {
  it.each<[string, AdminView]>([
    ['', { tab: 'products', filter: noFilter, orderId: null, stock: '' }],
    ['tab=orders', { tab: 'orders', filter: noFilter, orderId: null, stock: '' }],
    ['tab=orders&status=paid&q=+abv.bg+&page=3', { tab: 'orders', filter: { status: 'paid', search: 'abv.bg', page: 3 }, orderId: null, stock: '' }],
    // An order opens the orders tab even without it; values nobody could have chosen fall back.
    ['order=NA-7K3P9X2Q', { tab: 'orders', filter: noFilter, orderId: 'NA-7K3P9X2Q', stock: '' }],
    ['tab=nothing&status=shipped&page=-2', { tab: 'products', filter: noFilter, orderId: null, stock: '' }],
    ['tab=orders&page=1.5', { tab: 'orders', filter: noFilter, orderId: null, stock: '' }],
    ['stock=soldOut', { tab: 'products', filter: noFilter, orderId: null, stock: 'soldOut' }],
    ['stock=everything', { tab: 'products', filter: noFilter, orderId: null, stock: '' }],
  ])('reads %j', (query, expected) => {
    expect(view(query)).toEqual(expected);
  });

  it.each([
    ['/admin', { tab: 'products', filter: { status: 'paid', search: 'x', page: 2 }, orderId: 'NA-1', stock: '' }],
    ['/admin?tab=orders', { tab: 'orders', filter: noFilter, orderId: null, stock: '' }],
    ['/admin?stock=low', { tab: 'products', filter: noFilter, orderId: null, stock: 'low' }],
    // The stock filter belongs to the products tab.
    ['/admin?tab=orders', { tab: 'orders', filter: noFilter, orderId: null, stock: 'low' }],
    ['/admin?tab=orders&status=sent&q=maria%40abv.bg&page=2&order=NA-7K3P9X2Q', { tab: 'orders', filter: { status: 'sent', search: 'maria@abv.bg', page: 2 }, orderId: 'NA-7K3P9X2Q', stock: '' }],
  ] as [string, AdminView][])('writes %s', (href, written) => {
    expect(adminHref(written)).toBe(href);
    if (written.tab === 'orders' ? !written.stock : written.stock) expect(view(href.split('?')[1] ?? '')).toEqual(written);
  });

  // The shop's e-mail about a new order links to the dashboard with the order open.
  it('opens the order that the e-mail to the shop links to, as the dashboard itself would link it', () => {
    const opened: AdminView = { tab: 'orders', filter: noFilter, orderId: 'NA-7K3P9X2Q', stock: '' };
    expect(adminOrderPath('NA-7K3P9X2Q')).toBe(adminHref(opened));
    expect(view(new URL(adminOrderPath('NA-7K3P9X2Q'), 'http://shop.test').search)).toEqual(opened);
  });
});
