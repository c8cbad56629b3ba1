import sharp from 'sharp';
import type { APIRequestContext, Page } from '@playwright/test';
import type { CartOperationsResponse } from '#shared/cart.js';
import type { Product } from '#shared/catalog.js';
import { priceLines } from '#shared/pricing.js';
import { DEFAULT_NAIL_SIZE_CHART } from '#shared/nail-sizes.js';
import type { Order } from '#shared/orders.js';
import { Auditor } from './accessibility.js';
import { expect, hasHorizontalScroll, signedInApi, test, uniqueEmail } from './shop-fixtures.js';

const randomKey = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`.padEnd(20, '0');

/** Signs the page in with the worker's API admin session, keeping UI sign-ins under their hourly limit. */
async function signInAsApiAdmin(page: Page, adminApi: APIRequestContext) {
  await page.context().addCookies((await adminApi.storageState()).cookies);
}

const model = {
  optionGroups: [
    {
      id: 'shape',
      name: { en: 'Shape', bg: 'Форма' },
      values: [
        { id: 'almond', name: { en: 'Almond', bg: 'Бадем' }, priceDeltaMinor: 0 },
        { id: 'coffin', name: { en: 'Coffin', bg: 'Балерина' }, priceDeltaMinor: 250 },
      ],
    },
    {
      id: 'length',
      name: { en: 'Length', bg: 'Дължина' },
      values: [
        { id: 'short', name: { en: 'Short', bg: 'Къси' }, priceDeltaMinor: 0 },
        { id: 'long', name: { en: 'Long', bg: 'Дълги' }, priceDeltaMinor: 200 },
      ],
    },
  ],
  stockMode: 'product',
  combinations: [],
  sized: true,
  questions: [{ id: 'design-wish', label: { en: 'Design wish', bg: 'Желание за дизайна' }, required: false, priceDeltaMinor: 0, kind: 'text', maxLength: 200 }],
  leadTime: { kind: 'made_to_order', minDays: 5, maxDays: 10 },
};

async function createSizedSet(adminApi: APIRequestContext, name: string): Promise<Product> {
  const image = await sharp({ create: { width: 320, height: 320, channels: 3, background: { r: 200, g: 120, b: 160 } } })
    .png()
    .toBuffer();
  const response = await adminApi.post('/api/admin/products', {
    multipart: { nameEn: name, descriptionEn: 'Press-on nails made to measure.', price: '30.00', category: 'nails', stock: '', model: JSON.stringify(model), image: { name: 'set.png', mimeType: 'image/png', buffer: image } },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { product: Product }).product;
}

const SIZES = [3, 6, 5, 7, 9, 2, 6, 5, 7, 8];

/** A customer orders the set with her choices, to pay by a link later: the order waits, pending. */
async function orderSet(customer: APIRequestContext, product: Product, choices: object): Promise<Order> {
  const added = await customer.post('/api/cart/operations', { data: { operations: [{ id: randomKey(), type: 'add', productId: product.id, choices }] } });
  expect(added.ok(), await added.text()).toBe(true);
  const cart = (await added.json()) as CartOperationsResponse;
  expect(cart.outcomes[0]!.outcome).toBe('applied');
  const placed = await customer.post('/api/orders', { data: { idempotencyKey: randomKey(), paymentMethod: 'pay_by_link', acceptTerms: true, expectedTotalMinor: priceLines(cart.items).total } });
  expect(placed.status(), await placed.text()).toBe(201);
  return ((await placed.json()) as { order: Order }).order;
}

test('the maker sees an ordered set on the work list with its options, ten sizes and note, filters it, opens it and prints one order to a page', async ({
  page,
  adminApi,
  playwright,
  shop,
  inbox,
}, testInfo) => {
  const product = await createSizedSet(adminApi, `Zz Made-to-measure Set ${Date.now()}`);
  const customer = await signedInApi(playwright, shop.baseURL, inbox, uniqueEmail('work-list'));
  const address = await customer.post('/api/addresses', {
    data: { fullName: 'Maria Ivanova', streetAddress: '1 Vitosha Blvd', city: 'Sofia', postalCode: '1000', country: 'BG', phone: '0888 123 456' },
  });
  expect(address.ok(), await address.text()).toBe(true);
  const order = await orderSet(customer, product, { options: { shape: 'coffin', length: 'long' }, sizes: SIZES, answers: { 'design-wish': 'Pink ombré with tiny pearls' } });
  const second = await orderSet(customer, product, { options: { shape: 'almond', length: 'short' }, sizes: SIZES, answers: {} });
  await customer.dispose();

  await signInAsApiAdmin(page, adminApi);
  await page.goto('/admin');
  await page.getByRole('tab', { name: 'Work list' }).click();
  await expect(page).toHaveURL(/tab=work-list/);
  // Named by the order's number, whatever the language says before it.
  const card = page.getByRole('article', { name: new RegExp(order.orderId) });
  await expect(page.getByRole('article', { name: `Order #${second.orderId}` })).toContainText('Shape: Almond');
  await expect(card).toBeVisible();
  await expect(card).toContainText(product.name.en);
  await expect(card).toContainText('Shape: Coffin');
  await expect(card).toContainText('Length: Long');
  await expect(card).toContainText('Design wish: Pink ombré with tiny pearls');
  await expect(card).toContainText('Maria Ivanova');
  await expect(card).toContainText('Ships by');
  const sizes = card.getByRole('table', { name: 'Nail sizes' });
  await expect(sizes.getByRole('row', { name: /^Left/ }).getByRole('cell')).toHaveText(['3', '6', '5', '7', '9']);
  await expect(sizes.getByRole('row', { name: /^Right/ }).getByRole('cell')).toHaveText(['2', '6', '5', '7', '8']);
  expect(await hasHorizontalScroll(page)).toBe(false);
  const audit = new Auditor(page, testInfo);
  await audit.check('admin: work list');
  const screenshot = testInfo.outputPath(`work-list-en-${testInfo.project.name}.png`);
  await page.screenshot({ path: screenshot, fullPage: true });
  await testInfo.attach('work list (English)', { path: screenshot, contentType: 'image/png' });

  // The status filter: a pending order is not among those being prepared.
  await page.getByLabel('Order status').selectOption('preparing');
  await expect(page).toHaveURL(/status=preparing/);
  await expect(card).toBeHidden();
  await page.getByLabel('Order status').selectOption('pending');
  await expect(card).toBeVisible();

  // Printed: the orders alone, without the shop's header, the tabs or the buttons, one to a page.
  await page.evaluate(() => {
    window.print = () => document.body.setAttribute('data-printed', 'yes');
  });
  await page.getByRole('button', { name: 'Print' }).click();
  await expect(page.locator('body')).toHaveAttribute('data-printed', 'yes');
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('banner')).toBeHidden();
  await expect(page.getByRole('tablist')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Print' })).toBeHidden();
  await expect(card).toBeVisible();
  // One A4 page per order: as many pages as orders listed.
  const pdf = (await page.pdf({ format: 'A4' })).toString('latin1');
  expect(pdf.match(/\/Type\s*\/Page\b/g)?.length).toBe(await page.getByRole('article').count());
  const printed = testInfo.outputPath(`work-list-print-${testInfo.project.name}.png`);
  await page.screenshot({ path: printed, fullPage: true });
  await testInfo.attach('work list, printed', { path: printed, contentType: 'image/png' });
  await page.emulateMedia({ media: 'screen' });

  // In Bulgarian.
  await page.getByRole('button', { name: 'Български' }).click();
  await expect(page.getByRole('tab', { name: 'За изработка' })).toHaveAttribute('aria-selected', 'true');
  await expect(card).toContainText('Форма: Балерина');
  await expect(card.getByRole('table', { name: 'Размери на ноктите' }).getByRole('row', { name: /^Лява/ }).getByRole('cell')).toHaveText(['3', '6', '5', '7', '9']);
  expect(await hasHorizontalScroll(page)).toBe(false);
  await audit.check('admin: work list in Bulgarian');
  const bulgarian = testInfo.outputPath(`work-list-bg-${testInfo.project.name}.png`);
  await page.screenshot({ path: bulgarian, fullPage: true });
  await testInfo.attach('work list (Bulgarian)', { path: bulgarian, contentType: 'image/png' });
  await page.getByRole('button', { name: 'English' }).click();

  // The order itself shows each line's choices and the day it ships by.
  await card.getByRole('link', { name: `Order #${order.orderId}` }).click();
  await expect(page.getByRole('heading', { name: 'What each line is made with' })).toBeVisible();
  await expect(page.getByText(/^Ships by \w{3} \d{1,2} \w{3}$/)).toBeVisible();
  await expect(page.getByRole('table', { name: 'Nail sizes' }).getByRole('row', { name: /^Right/ }).getByRole('cell')).toHaveText(['2', '6', '5', '7', '8']);
  await audit.check('admin: order with choices');
  await audit.report();
});

test('the size chart: the admin adds a size and a preset, a preset with a size off the chart is refused, and buyers get the saved chart', async ({ page, adminApi }, testInfo) => {
  await signInAsApiAdmin(page, adminApi);
  await page.goto('/admin?tab=size-chart');
  await expect(page.getByRole('heading', { name: 'Size chart' })).toBeVisible();
  await page.getByRole('button', { name: 'Add a size' }).click();
  await expect(page.getByLabel('Size number, row 13')).toHaveValue('12');
  await page.getByLabel('Width of size 12 in millimetres').fill('6,5');
  await page.getByRole('button', { name: 'Add a preset' }).click();
  const preset = page.getByRole('group', { name: /^Preset 5/ });
  await preset.getByLabel('Name (English)', { exact: true }).fill('XL');
  const sizes = ['0', '3', '2', '4', '6', '0', '3', '2', '4', '13'];
  const inputs = preset.getByRole('group', { name: 'Nail sizes' }).getByRole('textbox');
  for (const [index, size] of sizes.entries()) await inputs.nth(index).fill(size);
  await page.getByRole('button', { name: 'Save the size chart' }).click();
  await expect(page.getByRole('alert')).toHaveText('This preset uses a size that is not in the chart.');
  await expect(inputs.nth(9)).toBeFocused();
  expect(await hasHorizontalScroll(page)).toBe(false);
  const audit = new Auditor(page, testInfo);
  await audit.check('admin: size chart with an error');
  await audit.report();
  await inputs.nth(9).fill('6');
  await page.getByRole('button', { name: 'Save the size chart' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The size chart is saved.' })).toBeVisible();

  const chart = (await (await adminApi.get('/api/size-chart')).json()) as { sizes: { size: number; widthTenthsMm: number }[]; presets: { id: string; sizes: number[] }[] };
  expect(chart.sizes.at(-1)).toEqual({ size: 12, widthTenthsMm: 65 });
  expect(chart.presets.at(-1)).toMatchObject({ id: 'xl', sizes: [0, 3, 2, 4, 6, 0, 3, 2, 4, 6] });
  // Other tests of this worker's shop expect the chart it starts with.
  expect((await adminApi.put('/api/admin/size-chart', { data: DEFAULT_NAIL_SIZE_CHART })).ok()).toBe(true);
});
