import type { Browser, Page } from '@playwright/test';
import type { Product } from '#shared/catalog.js';
import { startSmtpInbox, type SmtpInbox } from '../support/smtp-inbox.js';
import { acceptTerms } from './checkout-steps.js';
import { expect, test } from './fixtures.js';
import { placeOrderThroughApi } from './shop-api.js';
import { clientAddressHeader } from './shop-fixtures.js';
import { startShopServer, type ShopServer } from './shop-server.js';
import { signIn } from './sign-in-steps.js';

// A Bulgarian customer pays the courier: the order is accepted at once, never "waiting for payment",
// and the owner tells such orders from unpaid card orders and records the cash only after confirming.
const OWNER = 'owner@cod-shop.example';

let inbox: SmtpInbox;
let shop: ShopServer;

test.beforeAll(async () => {
  inbox = await startSmtpInbox();
  // Card first: the checkout offers the methods in this order and chooses the first.
  shop = await startShopServer({ SMTP_URL: inbox.url, ADMIN_EMAILS: OWNER, TRUST_PROXY: 'true', PAYMENT_METHODS: 'card,cash_on_delivery,pay_by_link' });
});

test.afterAll(async () => {
  await shop?.stop();
  await inbox?.close();
});

async function newPage(browser: Browser, language: 'en' | 'bg'): Promise<Page> {
  const context = await browser.newContext({ baseURL: shop.baseURL, extraHTTPHeaders: clientAddressHeader() });
  await context.addInitScript((chosen) => localStorage.setItem('language', chosen), language);
  return context.newPage();
}

test('a cash-on-delivery order is accepted, told apart from unpaid card orders, and its cash recorded after a confirmation', async ({ browser }, testInfo) => {
  const page = await newPage(browser, 'bg');
  const email = `cod-${testInfo.project.name}-${Date.now()}@example.com`;
  await page.goto('/');
  await signIn(page, inbox, email);
  const [product] = (await (await page.request.get('/api/products?lang=bg')).json()).products as Product[];
  // An unpaid card order of the same customer, which the owner's Pending filter shows.
  const cardOrder = await placeOrderThroughApi(page.request, product!.id, 'card');
  const added = await page.request.post('/api/cart/operations', { data: { operations: [{ id: `cod${Date.now()}`.padEnd(20, '0'), type: 'add', productId: product!.id }] } });
  expect(added.ok()).toBe(true);

  await page.goto('/checkout');
  await expect(page.getByRole('radio', { name: /Карта/ })).toBeChecked();
  await expect(page.getByRole('radio', { name: /Плащане чрез линк/ })).not.toBeChecked();
  await page.getByRole('radio', { name: /Наложен платеж/ }).check();
  await acceptTerms(page);
  await page.getByRole('button', { name: 'Потвърдете поръчката' }).click();
  const created = page.getByRole('dialog');
  await expect(created).toContainText('Моля, платете в брой на куриера при доставката.');
  const orderId = /(NA-[A-Z2-9]{8})/.exec((await created.textContent())!)![1]!;
  await created.getByRole('button', { name: 'Добре' }).click();

  // The profile the checkout leads to says the courier collects; nothing waits for a payment.
  await expect(page).toHaveURL(/\/profile/);
  await expect(page.getByRole('status').filter({ hasText: `№ ${orderId}` })).toHaveText(`Поръчка № ${orderId} е направена. Плащате в брой на куриера при доставката.`);
  const order = page.getByRole('listitem', { name: new RegExp(orderId) });
  await expect(order).toContainText('Приета');
  await expect(order).toContainText('Наложен платеж');
  await expect(order).not.toContainText('Очаква плащане');
  await expect(order.getByRole('button', { name: 'Платете сега' })).toHaveCount(0);
  await expect(page.getByRole('listitem', { name: new RegExp(cardOrder.orderId) }).getByRole('button', { name: 'Платете сега' })).toBeVisible();

  // The owner's status filter: Accepted holds the cash order, Pending the unpaid card one.
  const admin = await newPage(browser, 'en');
  await admin.goto('/');
  await signIn(admin, inbox, OWNER);
  await admin.goto(`/admin?tab=orders&q=${encodeURIComponent(email)}`);
  const rows = admin.getByRole('row').filter({ has: admin.getByRole('rowheader') });
  await admin.getByLabel('Status', { exact: true }).selectOption({ label: 'Accepted' });
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(orderId);
  await expect(rows.first()).toContainText('Cash on delivery');
  await admin.getByLabel('Status', { exact: true }).selectOption({ label: 'Pending' });
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(cardOrder.orderId);

  // Recording the cash asks first; Cancel records nothing.
  await admin.goto(`/admin?tab=orders&order=${orderId}`);
  const record = admin.getByRole('button', { name: 'Record cash payment' });
  await record.click();
  const confirm = admin.getByRole('dialog', { name: 'Record cash payment' });
  await expect(confirm).toContainText(`for order #${orderId}? The order will be marked Delivered`);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(admin.getByText('Not paid yet')).toBeVisible();
  await expect(admin.getByText('Current status: Accepted')).toBeVisible();

  await record.click();
  await confirm.getByRole('button', { name: 'Record cash payment' }).click();
  await expect(admin.getByRole('status').filter({ hasText: 'Cash payment of' })).toBeVisible();
  await expect(admin.getByText('Current status: Delivered')).toBeVisible();
  await expect(order).toContainText('Доставена');
  await admin.context().close();
  await page.context().close();
});
