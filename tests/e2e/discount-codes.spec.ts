import type { Page } from '@playwright/test';
import type { Product } from '#shared/catalog.js';
import { Auditor } from './accessibility.js';
import { acceptTerms } from './checkout-steps.js';
import { createProduct } from './shop-api.js';
import { expect, SHOP_ADMIN_EMAIL, test, uniqueEmail } from './shop-fixtures.js';
import { signIn } from './sign-in-steps.js';

// The owner creates a discount code in the admin; a buyer applies it at checkout, sees the discount as
// its own line and gets the order at that total; the owner then sees the code used, and the order on
// the dashboard. In English on the
// desktop and in Bulgarian on the phone.

const TEXTS = {
  en: {
    tab: 'Discounts',
    today: 'Today',
    newCode: 'New discount code',
    code: 'Code',
    percent: 'Percentage off the products (%)',
    save: 'Save code',
    codeField: 'Discount code',
    apply: 'Apply',
    unknown: 'There is no such code. Please check how it is spelt.',
    discount: (code: string) => `Discount (${code})`,
    placeOrder: 'Place Order',
    ok: 'OK',
    used: 'Used 1 time',
  },
  bg: {
    tab: 'Отстъпки',
    today: 'Днес',
    newCode: 'Нов код за отстъпка',
    code: 'Код',
    percent: 'Процент отстъпка от продуктите (%)',
    save: 'Запазване на кода',
    codeField: 'Код за отстъпка',
    apply: 'Приложете',
    unknown: 'Няма такъв код. Проверете как е изписан.',
    discount: (code: string) => `Отстъпка (${code})`,
    placeOrder: 'Потвърдете поръчката',
    ok: 'Добре',
    used: 'Използван 1 път',
  },
};

const setLanguage = (page: Page, language: 'en' | 'bg') => page.context().addInitScript((chosen) => localStorage.setItem('language', chosen), language);

test('the owner creates a discount code, a buyer uses it at checkout, and the owner sees it used', async ({ page, browser, inbox, adminApi, shop }, testInfo) => {
  const language = testInfo.project.name === 'phone' ? 'bg' : 'en';
  const words = TEXTS[language];
  const code = `SPRING${testInfo.project.name.toUpperCase()}${Date.now() % 100_000}`;
  const product: Product = await createProduct(adminApi, `Spring Set ${code}`, '40.00');
  await setLanguage(page, language);
  const audit = new Auditor(page, testInfo);

  // The owner's side: a code of 10% off, created in the Discounts tab.
  await page.goto('/');
  await signIn(page, inbox, SHOP_ADMIN_EMAIL);
  // The dashboard, the admin's first tab: today's orders before the buyer's.
  await page.goto('/admin');
  const ordersToday = async () => Number.parseInt((await page.getByRole('article', { name: words.today }).locator('dd').nth(1).textContent())!, 10);
  await expect(page.getByRole('article', { name: words.today })).toBeVisible();
  const before = await ordersToday();
  await audit.check('dashboard');
  await page.getByRole('tab', { name: words.tab }).click();
  await expect(page).toHaveURL(/tab=discounts/);
  await page.getByRole('button', { name: words.newCode }).click();
  await page.getByLabel(words.code, { exact: true }).fill(code.toLowerCase());
  await page.getByLabel(words.percent).fill('10');
  await audit.check('new discount code form');
  await page.getByRole('button', { name: words.save }).click();
  const card = page.getByRole('listitem', { name: code });
  await expect(card).toBeVisible();
  await audit.check('discount codes');

  // The buyer's side, in a browser of her own.
  const buyerContext = await browser.newContext({ baseURL: shop.baseURL, viewport: page.viewportSize()!, extraHTTPHeaders: { 'x-forwarded-for': `10.78.0.${testInfo.workerIndex + 1}` } });
  await buyerContext.addInitScript((chosen) => localStorage.setItem('language', chosen), language);
  const buyer = await buyerContext.newPage();
  await buyer.goto('/');
  await signIn(buyer, inbox, uniqueEmail('spring-buyer'));
  expect((await buyer.request.post('/api/addresses', { data: { fullName: 'Мария Иванова', streetAddress: 'ул. Шипка 6', city: 'София', postalCode: '1504', country: 'BG', phone: '+359888123456' } })).ok()).toBe(true);
  expect((await buyer.request.post('/api/cart/operations', { data: { operations: [{ id: `spring${Date.now()}`.padEnd(20, '0'), type: 'add', productId: product.id }] } })).ok()).toBe(true);
  await buyer.goto('/checkout');
  const codeField = buyer.getByLabel(words.codeField);
  await codeField.fill('NO-SUCH-CODE');
  await buyer.getByRole('button', { name: words.apply }).click();
  await expect(buyer.getByText(words.unknown)).toBeVisible();
  await expect(codeField).toHaveAttribute('aria-invalid', 'true');
  // A refused code is not shown as applied: no Remove, and Apply waits for another code.
  await expect(buyer.getByRole('button', { name: words.apply })).toBeDisabled();

  await codeField.fill(` ${code.toLowerCase()} `);
  await buyer.getByRole('button', { name: words.apply }).click();
  const summary = buyer.locator('.pricing');
  const discountRow = summary.locator('.pricing__row').filter({ hasText: words.discount(code) });
  // 10% of 40.00.
  await expect(discountRow).toContainText('4.00'.replace('.', language === 'bg' ? ',' : '.'));
  await acceptTerms(buyer);
  await buyer.getByRole('button', { name: words.placeOrder }).click();
  const created = buyer.getByRole('dialog');
  const orderId = /(NA-[A-Z2-9]{8})/.exec((await created.textContent())!)![1]!;
  await created.getByRole('button', { name: words.ok }).click();

  // The order was placed at the total shown, the discount in it.
  const order = (await (await buyer.request.get('/api/orders')).json()).orders.find((candidate: { orderId: string }) => candidate.orderId === orderId);
  expect(order.pricing).toMatchObject({ subtotal: 4000, discount: 400, discountCode: code });
  // Her order's card in the profile shows the discount among its totals, as checkout did.
  const orderCard = buyer.getByRole('listitem', { name: new RegExp(orderId) });
  await expect(orderCard.locator('.pricing__row').filter({ hasText: words.discount(code) })).toContainText(`−BGN ${language === 'bg' ? '4,00' : '4.00'}`);
  await buyerContext.close();

  await page.reload();
  await expect(page.getByRole('listitem', { name: code })).toContainText(words.used);
  // The dashboard counts her order today.
  await page.goto('/admin');
  await expect.poll(ordersToday).toBe(before + 1);
  await audit.report();
});
