import sharp from 'sharp';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import type { Product } from '#shared/catalog.js';
import { Auditor } from './accessibility.js';
import { expect, hasHorizontalScroll, test } from './shop-fixtures.js';

const photo = () =>
  sharp({ create: { width: 320, height: 320, channels: 3, background: { r: 230, g: 170, b: 190 } } })
    .png()
    .toBuffer();

/** Signs the page in with the worker's API admin session, keeping UI sign-ins under their hourly limit. */
async function signInAsApiAdmin(page: Page, adminApi: APIRequestContext) {
  await page.context().addCookies((await adminApi.storageState()).cookies);
}

const optionGroup = (page: Page, number: number) => page.getByRole('group', { name: new RegExp(`^Option group ${number}\\b`) });
const valueRow = (group: Locator, number: number) => group.getByRole('group', { name: `Value ${number}`, exact: true });

async function fillValue(group: Locator, number: number, en: string, bg: string, delta = '') {
  const row = valueRow(group, number);
  await row.getByLabel('Name (English)', { exact: true }).fill(en);
  await row.getByLabel('Name (Bulgarian)', { exact: true }).fill(bg);
  await row.getByLabel('Price difference (BGN)').fill(delta);
}

async function savedProduct(adminApi: APIRequestContext, nameEn: string): Promise<Product> {
  const { products } = (await (await adminApi.get('/api/admin/products')).json()) as { products: Product[] };
  return products.find((product) => product.name.en === nameEn)!;
}

test('a one-of-a-kind piece’s form stays short: its options wait closed behind one line', async ({ page, adminApi }) => {
  await signInAsApiAdmin(page, adminApi);
  await page.goto('/admin?tab=products');
  await page.getByRole('button', { name: 'Add product' }).click();
  await expect(page.getByText('Options, sizes and questions')).toBeVisible();
  await expect(page.getByText('None: the product is sold as it is')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add an option group' })).toBeHidden();
  // The lead time shows for every product: even a piece on hand has its dispatch date.
  await expect(page.getByRole('radio', { name: 'Ready to ship in' })).toBeChecked();
  await expect(page.getByLabel('Working days to dispatch')).toHaveValue('2');
});

test('an owner marks a product hygiene-sealed in its form, and its page tells the buyer before she orders, in both languages', async ({ page, adminApi }) => {
  const nameEn = `Zz Rose Cuticle Oil ${Date.now()}`;
  await signInAsApiAdmin(page, adminApi);
  await page.goto('/admin?tab=products');
  await page.getByRole('button', { name: 'Add product' }).click();
  const rule = page.getByRole('group', { name: 'Right of withdrawal' });
  await expect(rule.getByRole('radio', { name: 'Returnable within 14 days of delivery' })).toBeChecked();
  await page.getByLabel('Name (English)', { exact: true }).fill(nameEn);
  await page.getByLabel('Name (Bulgarian)', { exact: true }).fill(`Яя Масло за кожички ${Date.now()}`);
  await page.getByLabel('Price (BGN)').fill('12.50');
  await page.getByLabel('Description (English)').fill('Jojoba oil for cuticles, in a sealed 10 ml bottle.');
  await page.getByRole('textbox', { name: 'Pieces in stock' }).fill('4');
  await page.getByLabel('Add photos').setInputFiles({ name: 'oil.png', mimeType: 'image/png', buffer: await photo() });
  await rule.getByRole('radio', { name: 'Hygiene-sealed: returnable only while unopened' }).check();
  await page.getByRole('button', { name: 'Save product' }).click();
  await expect(page.getByRole('dialog', { name: 'Success' })).toContainText('Product saved successfully');

  const saved = await savedProduct(adminApi, nameEn);
  expect(saved.returnRule).toBe('hygiene_sealed');
  await page.goto(`/product/${saved.slug}`);
  await expect(page.getByText('Hygiene-sealed: returnable within 14 days only if the seal is unbroken.')).toBeVisible();
  await page.goto(`/product/${saved.slug}?lang=bg`);
  await expect(page.getByText('С хигиенна опаковка: подлежи на връщане в 14-дневния срок само ако опаковката не е отваряна.')).toBeVisible();
});

test('an admin gives a press-on set shape and length options with a count per combination, ten sizes, a question and a lead time', async ({ page, adminApi }, testInfo) => {
  const stamp = Date.now();
  const nameEn = `Zz Rose Quartz Set ${stamp}`;
  const nameBg = `Яя Комплект „Розов кварц“ ${stamp}`;
  await signInAsApiAdmin(page, adminApi);
  await page.goto('/admin?tab=products');
  await page.getByRole('button', { name: 'Add product' }).click();
  await page.getByLabel('Name (English)', { exact: true }).fill(nameEn);
  await page.getByLabel('Name (Bulgarian)', { exact: true }).fill(nameBg);
  await page.getByLabel('Description (English)').fill('Ten press-on nails made in your shape, length and sizes.');
  await page.getByLabel('Price (BGN)').fill('34.90');
  await page.getByLabel('Add photos').setInputFiles({ name: 'rose.png', mimeType: 'image/png', buffer: await photo() });

  await page.getByText('Options, sizes and questions').click();
  await page.getByRole('button', { name: 'Add an option group' }).click();
  const shape = optionGroup(page, 1);
  await shape.getByLabel('Group name (English)').fill('Shape');
  await shape.getByLabel('Group name (Bulgarian)').fill('Форма');
  await fillValue(shape, 1, 'Almond', 'Бадем');
  await shape.getByRole('button', { name: 'Add a value' }).click();
  // A difference that is not a number is refused beside its field, which takes the focus.
  await fillValue(shape, 2, 'Coffin', 'Балерина', 'two');
  await page.getByRole('button', { name: 'Add an option group' }).click();
  const length = optionGroup(page, 2);
  await length.getByLabel('Group name (English)').fill('Length');
  await length.getByLabel('Group name (Bulgarian)').fill('Дължина');
  await fillValue(length, 1, 'Short', 'Къси', '-1');
  await length.getByRole('button', { name: 'Add a value' }).click();
  await fillValue(length, 2, 'Long', 'Дълги');

  await page.getByRole('button', { name: 'Save product' }).click();
  const coffinDelta = valueRow(shape, 2).getByLabel('Price difference (BGN)');
  await expect(coffinDelta).toBeFocused();
  await expect(coffinDelta).toHaveAttribute('aria-invalid', 'true');
  await expect(valueRow(shape, 2)).toContainText('Type the price difference as a number up to BGN 1,000.00, for example 2.50 or -1.');
  await coffinDelta.fill('2,50');
  await expect(coffinDelta).not.toHaveAttribute('aria-invalid', 'true');

  // A count per combination: every combination a row; empty is made to order, "not sold" takes it off sale.
  await page.getByRole('radio', { name: 'A count for each combination' }).check();
  await expect(page.getByRole('rowheader')).toHaveText(['Almond / Short', 'Almond / Long', 'Coffin / Short', 'Coffin / Long']);
  await page.getByLabel('In stock: Almond / Short').fill('3');
  await page.getByLabel('In stock: Coffin / Short').fill('1');
  await page.getByLabel('Not sold: Coffin / Long').check();
  await expect(page.getByLabel('In stock: Coffin / Long')).toBeDisabled();

  await page.getByLabel('Sized: the buyer gives ten nail sizes').check();
  await page.getByRole('button', { name: 'Add a question' }).click();
  const wish = page.getByRole('group', { name: /^Question 1\b/ });
  await wish.getByLabel('Question (English)').fill('Design wish');
  await wish.getByLabel('Question (Bulgarian)').fill('Желание за дизайна');
  await wish.getByLabel('Longest answer (characters)').fill('300');
  await page.getByRole('radio', { name: 'Made to order in' }).check();
  await page.getByLabel('Fewest working days').fill('5');
  await page.getByLabel('Most working days').fill('10');

  expect(await hasHorizontalScroll(page)).toBe(false);
  const audit = new Auditor(page, testInfo);
  await audit.check('admin: product form with options');
  const screenshot = testInfo.outputPath(`product-form-options-en-${testInfo.project.name}.png`);
  await page.screenshot({ path: screenshot, fullPage: true });
  await testInfo.attach('product form with options (English)', { path: screenshot, contentType: 'image/png' });

  await page.getByRole('button', { name: 'Save product' }).click();
  await expect(page.getByRole('dialog', { name: 'Success' })).toContainText('Product saved successfully');
  await page.getByRole('button', { name: 'OK', exact: true }).click();

  const saved = await savedProduct(adminApi, nameEn);
  expect(saved.optionGroups).toEqual([
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
        { id: 'short', name: { en: 'Short', bg: 'Къси' }, priceDeltaMinor: -100 },
        { id: 'long', name: { en: 'Long', bg: 'Дълги' }, priceDeltaMinor: 0 },
      ],
    },
  ]);
  expect(saved.stockMode).toBe('combination');
  expect([...saved.combinations].sort((a, b) => a.key.localeCompare(b.key))).toEqual([
    { key: 'almond/long', stock: null },
    { key: 'almond/short', stock: 3 },
    { key: 'coffin/short', stock: 1 },
  ]);
  expect(saved.sized).toBe(true);
  expect(saved.questions).toEqual([{ id: 'design-wish', label: { en: 'Design wish', bg: 'Желание за дизайна' }, required: false, priceDeltaMinor: 0, kind: 'text', maxLength: 300 }]);
  expect(saved.leadTime).toEqual({ kind: 'made_to_order', minDays: 5, maxDays: 10 });

  // In Bulgarian the saved form reads back with Bulgarian decimal commas, its options open.
  await page.getByRole('button', { name: 'Български' }).click();
  await page.getByRole('row', { name: new RegExp(nameBg) }).getByRole('button').first().click();
  await expect(page.getByRole('group', { name: /^Група опции 1/ }).getByRole('group', { name: 'Стойност 2', exact: true }).getByLabel('Разлика в цената (BGN)')).toHaveValue('2,50');
  await expect(page.getByLabel('Наличност: Бадем / Къси')).toHaveValue('3');
  await expect(page.getByLabel('Не се продава: Балерина / Дълги')).toBeChecked();
  expect(await hasHorizontalScroll(page)).toBe(false);
  await audit.check('admin: product form with options in Bulgarian');
  await audit.report();
  const bulgarian = testInfo.outputPath(`product-form-options-bg-${testInfo.project.name}.png`);
  await page.screenshot({ path: bulgarian, fullPage: true });
  await testInfo.attach('product form with options (Bulgarian)', { path: bulgarian, contentType: 'image/png' });
  await page.getByRole('button', { name: 'English' }).click();

  // Renamed and moved, a value keeps the id that carts and orders name it by.
  const shapeAgain = optionGroup(page, 1);
  await valueRow(shapeAgain, 1).getByLabel('Name (English)', { exact: true }).fill('Almond, soft');
  await shapeAgain.getByRole('button', { name: 'Move Coffin up' }).click();
  await page.getByRole('button', { name: 'Save product' }).click();
  await expect(page.getByRole('dialog', { name: 'Success' })).toContainText('Product saved successfully');
  const edited = await savedProduct(adminApi, nameEn);
  expect(edited.optionGroups[0]!.values.map((value) => [value.id, value.name.en])).toEqual([
    ['coffin', 'Coffin'],
    ['almond', 'Almond, soft'],
  ]);
  expect(edited.combinations).toContainEqual({ key: 'almond/short', stock: 3 });
});
