import { describe, expect, it } from 'vitest';
import { adminOrderPath } from '#shared/routes.js';
import { adminHref, readAdminView, type AdminView } from './admin-location.js';

const view = (query: string) => readAdminView(new URLSearchParams(query));
const noFilter = { status: '', search: '', after: '', before: '' } as const;

describe('the admin view in the address', () => {
  it.each<[string, AdminView]>([
    ['', { tab: 'dashboard', filter: noFilter, orderId: null, stock: '' }],
    ['tab=products', { tab: 'products', filter: noFilter, orderId: null, stock: '' }],
    ['tab=orders', { tab: 'orders', filter: noFilter, orderId: null, stock: '' }],
    ['tab=orders&status=paid&q=+abv.bg+&after=WyIyMDI2Il0', { tab: 'orders', filter: { status: 'paid', search: 'abv.bg', after: 'WyIyMDI2Il0', before: '' }, orderId: null, stock: '' }],
    ['tab=orders&before=WyIyMDI2Il0', { tab: 'orders', filter: { ...noFilter, before: 'WyIyMDI2Il0' }, orderId: null, stock: '' }],
    // One position at most: the page after a cursor wins over one before another.
    ['tab=orders&before=b-1&after=a_2', { tab: 'orders', filter: { ...noFilter, after: 'a_2' }, orderId: null, stock: '' }],
    // An order opens the orders tab even without it; values nobody could have chosen fall back.
    ['order=NA-7K3P9X2Q', { tab: 'orders', filter: noFilter, orderId: 'NA-7K3P9X2Q', stock: '' }],
    ['tab=nothing&status=shipped&after=', { tab: 'dashboard', filter: noFilter, orderId: null, stock: '' }],
    ['tab=products&stock=low', { tab: 'products', filter: noFilter, orderId: null, stock: 'low' }],
    ['tab=orders&after=not%20a%20cursor&before=%2F', { tab: 'orders', filter: noFilter, orderId: null, stock: '' }],
    ['stock=soldOut', { tab: 'products', filter: noFilter, orderId: null, stock: 'soldOut' }],
    ['stock=everything', { tab: 'products', filter: noFilter, orderId: null, stock: '' }],
    ['tab=work-list', { tab: 'workList', filter: noFilter, orderId: null, stock: '' }],
    ['tab=work-list&status=preparing', { tab: 'workList', filter: { ...noFilter, status: 'preparing' }, orderId: null, stock: '' }],
    // The work list has only open orders to show.
    ['tab=work-list&status=delivered', { tab: 'workList', filter: noFilter, orderId: null, stock: '' }],
    ['tab=size-chart', { tab: 'sizeChart', filter: noFilter, orderId: null, stock: '' }],
    ['tab=returns', { tab: 'returns', filter: noFilter, orderId: null, stock: '' }],
    ['tab=discounts', { tab: 'discounts', filter: noFilter, orderId: null, stock: '' }],
  ])('reads %j', (query, expected) => {
    expect(view(query)).toEqual(expected);
  });

  it.each([
    ['/admin', { tab: 'dashboard', filter: noFilter, orderId: null, stock: '' }],
    ['/admin?tab=products', { tab: 'products', filter: { status: 'paid', search: 'x', after: 'c1', before: '' }, orderId: 'NA-1', stock: '' }],
    ['/admin?tab=orders&before=c-0', { tab: 'orders', filter: { ...noFilter, before: 'c-0' }, orderId: null, stock: '' }],
    ['/admin?tab=orders', { tab: 'orders', filter: noFilter, orderId: null, stock: '' }],
    ['/admin?tab=products&stock=low', { tab: 'products', filter: noFilter, orderId: null, stock: 'low' }],
    // The stock filter belongs to the products tab.
    ['/admin?tab=orders', { tab: 'orders', filter: noFilter, orderId: null, stock: 'low' }],
    ['/admin?tab=work-list&status=paid', { tab: 'workList', filter: { ...noFilter, status: 'paid' }, orderId: null, stock: '' }],
    ['/admin?tab=size-chart', { tab: 'sizeChart', filter: noFilter, orderId: null, stock: '' }],
    ['/admin?tab=discounts', { tab: 'discounts', filter: noFilter, orderId: null, stock: '' }],
    ['/admin?tab=orders&status=sent&q=maria%40abv.bg&after=WyIyMDI2Il0&order=NA-7K3P9X2Q', { tab: 'orders', filter: { status: 'sent', search: 'maria@abv.bg', after: 'WyIyMDI2Il0', before: '' }, orderId: 'NA-7K3P9X2Q', stock: '' }],
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
