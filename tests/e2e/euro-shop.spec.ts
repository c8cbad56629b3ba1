import { randomUUID } from 'node:crypto';
import type { Browser, Page } from '@playwright/test';
import type { Product } from '../../src/shared/catalog.js';
import { formatBgnEquivalent, formatMoney, taxContainedIn } from '../../src/shared/money.js';
import { startSmtpInbox, type SmtpInbox } from '../support/smtp-inbox.js';
import { acceptTerms } from './checkout-steps.js';
import { expect, hasHorizontalScroll, test } from './fixtures.js';
import { clientAddressHeader } from './shop-fixtures.js';
import { startShopServer, type ShopServer } from './shop-server.js';
import { signInThroughUi } from './sign-in-steps.js';

// A Bulgarian maker's shop in 2026: euro prices with their BGN equivalent, VAT included, cash on delivery.
const OWNER = 'owner@euro-shop.example';
const SHIPPING = 450;
const COD_FEE = 199;

const TEXTS = {
  en: {
    cashOnDelivery: 'Cash on delivery',
    placeOrder: 'Place Order',
    vat: 'Incl. VAT (20%)',
    fee: 'Cash on delivery fee',
    total: 'Total',
    created: 'Please pay the courier in cash when it arrives.',
    note: 'Cash on delivery: pay when it arrives',
    ok: 'OK',
    payNow: 'Pay Now',
    delivered: 'Delivered',
    subject: (orderId: string) => `We received your order #${orderId}`,
  },
  bg: {
    cashOnDelivery: 'Наложен платеж',
    placeOrder: 'Потвърдете поръчката',
    vat: 'В т.ч. ДДС (20%)',
    fee: 'Такса за наложен платеж',
    total: 'Общо',
    created: 'Моля, платете в брой на куриера при доставката.',
    note: 'Наложен платеж: платете при доставката',
    ok: 'Добре',
    payNow: 'Платете сега',
    delivered: 'Доставена',
    subject: (orderId: string) => `Получихме поръчката ви № ${orderId}`,
  },
} as const;

/** "17,38 € / 33,99 лв.": a euro amount with its BGN equivalent, as the shop writes it in the language. */
const dual = (minor: number, language: 'en' | 'bg') => `${formatMoney(minor, 'EUR', language)} / ${formatBgnEquivalent(minor, language)}`;
/** The same with the spaces the page may write as non-breaking ones. */
const seen = (text: string | null) => (text ?? '').replace(/\s+/g, ' ');

let inbox: SmtpInbox;
let shop: ShopServer;

test.beforeAll(async () => {
  inbox = await startSmtpInbox();
  shop = await startShopServer({
    SMTP_URL: inbox.url,
    ADMIN_EMAILS: OWNER,
    TRUST_PROXY: 'true',
    SHOP_CURRENCY: 'EUR',
    SHOW_BGN_EQUIVALENT: 'true',
    TAX_RATE: '0.2',
    PRICES_INCLUDE_TAX: 'true',
    SHIPPING_FEE: '4.50',
    PAYMENT_METHODS: 'cash_on_delivery,card',
    COD_FEE: '1.99',
  });
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

for (const language of ['en', 'bg'] as const) {
  test(`in ${language}: every price in euro and leva, and a cash-on-delivery order from the cart to delivered`, async ({ browser }, testInfo) => {
    const t = TEXTS[language];
    const page = await newPage(browser, language);
    const email = `euro-${language}-${testInfo.project.name}-${Date.now()}@example.com`;
    await page.goto('/');
    // The first product of the home page, which sorts by the name in the page's language.
    const [product] = (await (await page.request.get(`/api/products${language === 'bg' ? '?lang=bg' : ''}`)).json()).products as Product[];
    const price = product!.priceMinor;

    // The home page's first card and the product page.
    const card = page.getByRole('article').first();
    await expect.poll(async () => seen(await card.textContent())).toContain(dual(price, language));
    await card.getByRole('link').first().click();
    await expect(page).toHaveURL(/\/product\//);
    await expect.poll(async () => seen(await page.locator('main').textContent())).toContain(dual(price, language));

    await signInThroughUi(page, inbox, email);
    const address = await page.request.post('/api/addresses', {
      data: { fullName: 'Petya Dimitrova', streetAddress: '7 Shipka St', city: 'Sofia', postalCode: '1504', country: 'BG', phone: '0888 123 456' },
    });
    expect(address.ok()).toBe(true);
    const added = await page.request.post('/api/cart/operations', { data: { operations: [{ id: randomUUID().replace(/-/g, ''), type: 'add', productId: product!.id }] } });
    expect(added.ok()).toBe(true);

    await page.goto('/cart');
    await expect.poll(async () => seen(await page.locator('main').textContent())).toContain(dual(price, language));
    expect(seen(await page.locator('main').textContent())).toContain(dual(SHIPPING, language));
    expect(await hasHorizontalScroll(page)).toBe(false);

    await page.goto('/checkout');
    await page.getByRole('radio', { name: new RegExp(t.cashOnDelivery) }).check();
    const total = price + SHIPPING + COD_FEE;
    const summary = page.locator('dl.pricing');
    await expect.poll(async () => seen(await summary.textContent())).toContain(`${t.fee}${dual(COD_FEE, language)}`);
    expect(seen(await summary.textContent())).toContain(`${t.total}${dual(total, language)}`);
    expect(seen(await summary.textContent())).toContain(`${t.vat}${dual(taxContainedIn(total, 2000), language)}`);
    expect(await hasHorizontalScroll(page)).toBe(false);
    await acceptTerms(page);
    await page.getByRole('button', { name: t.placeOrder }).click();
    const created = page.getByRole('dialog');
    await expect(created).toContainText(t.created);
    const orderId = /(NA-[A-Z2-9]{8})/.exec((await created.textContent())!)![1]!;
    await created.getByRole('button', { name: t.ok }).click();

    // No payment page: the profile shows the order to be paid on delivery, in both currencies.
    await page.goto('/profile');
    const order = page.getByRole('listitem', { name: new RegExp(orderId) });
    await expect(order).toContainText(t.note);
    expect(seen(await order.textContent())).toContain(dual(total, language));
    await expect(order.getByRole('button', { name: t.payNow })).toHaveCount(0);
    const confirmation = await inbox.waitForMail(email, 15_000, (mail) => mail.subject === t.subject(orderId));
    expect(seen(confirmation.body)).toContain(dual(total, language));

    // The courier brings the cash: the admin records it, and the customer's open profile follows.
    const admin = await newPage(browser, 'en');
    await admin.goto('/');
    await signInThroughUi(admin, inbox, OWNER);
    await admin.goto(`/admin?tab=orders&order=${orderId}`);
    await admin.getByRole('button', { name: 'Record cash payment' }).click();
    await admin.getByRole('dialog').getByRole('button', { name: 'Record cash payment' }).click();
    await expect(admin.getByRole('status').filter({ hasText: 'Cash payment of' })).toBeVisible();
    await expect(admin.getByText('Current status: Delivered')).toBeVisible();
    await expect(order).toContainText(t.delivered);
    await expect(order).not.toContainText(t.note);
    await admin.context().close();
    await page.context().close();
  });
}
