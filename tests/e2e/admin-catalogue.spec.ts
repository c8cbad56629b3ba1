import sharp from 'sharp';
import type { APIRequestContext, Page } from '@playwright/test';
import type { Product } from '../../src/shared/catalog.js';
import { hugeBlankPng } from '../support/huge-png.js';
import { expect, hasHorizontalScroll, test } from './shop-fixtures.js';

/** A small square PNG of one colour, so that each photo can be told apart by its pixels. */
const png = (red: number, green: number, blue: number) =>
  sharp({ create: { width: 120, height: 120, channels: 3, background: { r: red, g: green, b: blue } } })
    .png()
    .toBuffer();

/** Signs the page in with the worker's API admin session, keeping UI sign-ins under their hourly limit. */
async function signInAsApiAdmin(page: Page, adminApi: APIRequestContext) {
  await page.context().addCookies((await adminApi.storageState()).cookies);
}

test('an admin adds a product with three photos and texts in both languages, reorders a photo, and the shop shows it in each language', async ({
  page,
  adminApi,
}, testInfo) => {
  const stamp = Date.now();
  const nameEn = `Zz Aurora Chrome Set ${stamp}`;
  const nameBg = `Яя Комплект „Аврора“ ${stamp}`;
  await signInAsApiAdmin(page, adminApi);
  await page.goto('/admin');
  await page.getByRole('button', { name: 'Add product' }).click();
  await expect(page.getByRole('heading', { name: 'Add product' })).toBeVisible();

  // A name and a description in one language at least; then the product needs a photo.
  await page.getByLabel('Price (BGN)').fill('42.90');
  await page.getByRole('button', { name: 'Save product' }).click();
  await expect(page.getByRole('alert')).toHaveText('Please fill in all required fields');
  await page.getByLabel('Name (English)').fill(nameEn);
  await page.getByLabel('Name (Bulgarian)').fill(nameBg);
  await page.getByLabel('Description (English)').fill('Ten chrome nails that shift from green to violet.');
  await page.getByLabel('Description (Bulgarian)').fill('Десет хромирани нокътя, които преливат от зелено във виолетово.');
  await page.getByLabel('Category').selectOption('nails');
  await page.getByRole('button', { name: 'Save product' }).click();
  await expect(page.getByRole('alert')).toHaveText('Please select an image for the product');

  await page.getByLabel('Add photos').setInputFiles([
    { name: 'red.png', mimeType: 'image/png', buffer: await png(220, 30, 30) },
    { name: 'green.png', mimeType: 'image/png', buffer: await png(30, 200, 60) },
    { name: 'blue.png', mimeType: 'image/png', buffer: await png(40, 60, 220) },
  ]);
  await expect(page.getByText('3 of 8 photos')).toBeVisible();
  const photos = page.getByRole('list', { name: 'Photos' }).getByRole('listitem');
  await expect(photos).toHaveCount(3);
  await expect(photos.nth(0)).toContainText('red.png');
  await expect(photos.nth(0)).toContainText('Cover');

  // Blue becomes the cover; red then moves one place later, after green. The focus follows the photo.
  await page.getByRole('button', { name: 'Make cover: photo 3' }).click();
  await expect(photos.nth(0)).toContainText('blue.png');
  await expect(page.getByRole('button', { name: 'Make cover: photo 1' })).toBeFocused();
  await page.getByRole('button', { name: 'Move later: photo 2' }).click();
  await expect(page.getByRole('button', { name: 'Move later: photo 3' })).toBeFocused();
  await expect(photos).toContainText(['blue.png', 'green.png', 'red.png']);
  await page.getByLabel('Alt text (English), photo 1').fill('The set in blue light');
  await page.getByLabel('Alt text (Bulgarian), photo 1').fill('Комплектът на синя светлина');
  await expect(page.getByLabel('Alt text (English), photo 2')).toHaveAttribute('placeholder', nameEn);
  expect(await hasHorizontalScroll(page)).toBe(false);
  const screenshot = testInfo.outputPath('product-form-three-photos.png');
  await page.screenshot({ path: screenshot, fullPage: true });
  await testInfo.attach('product form with three photos', { path: screenshot, contentType: 'image/png' });

  await page.getByRole('button', { name: 'Save product' }).click();
  await expect(page.getByRole('dialog', { name: 'Success' })).toContainText('Product saved successfully');
  await page.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByRole('row', { name: new RegExp(nameEn) })).toContainText('BGN 42.90');

  // The server has the photos in the admin's order, the cover first, with its alt texts.
  const listed = ((await (await adminApi.get('/api/admin/products')).json()) as { products: Product[] }).products.find((product) => product.name.en === nameEn)!;
  expect(listed.name).toEqual({ en: nameEn, bg: nameBg });
  expect(listed.photos).toHaveLength(3);
  expect(listed.photos[0]!.alt).toEqual({ en: 'The set in blue light', bg: 'Комплектът на синя светлина' });
  const colours = await Promise.all(
    listed.photos.map(async (photo) => {
      const { channels } = await sharp(await (await adminApi.get(`${photo.url}?w=320`)).body()).stats();
      return channels.map((channel) => channel.mean).indexOf(Math.max(...channels.map((channel) => channel.mean)));
    }),
  );
  expect(colours).toEqual([2, 1, 0]);

  // Editing shows the saved photos in that order.
  await page.getByRole('button', { name: `Edit: ${nameEn}` }).click();
  await expect(page.getByText('3 of 8 photos')).toBeVisible();
  await expect(page.getByLabel('Alt text (English), photo 1')).toHaveValue('The set in blue light');
  await page.getByRole('button', { name: 'Cancel' }).click();

  await page.getByRole('banner').getByRole('link', { name: 'Home', exact: true }).click();
  await page.goto(`/?q=${stamp}`);
  const card = page.getByRole('article').filter({ hasText: nameEn });
  await expect(card).toBeVisible();
  await expect(card).toContainText('BGN 42.90');

  await page.getByRole('button', { name: 'Български' }).click();
  const cardBg = page.getByRole('article').filter({ hasText: nameBg });
  await expect(cardBg).toBeVisible();
  await expect(cardBg).toContainText('BGN 42,90');
  await expect(page.getByRole('article').filter({ hasText: nameEn })).toHaveCount(0);
  // The next test of this worker starts in English again.
  await page.getByRole('button', { name: 'English' }).click();
});

test('an admin who uploads a photo of too many pixels is told so in their language, and the product keeps its photos', async ({ page, adminApi, allowConsoleErrors }, testInfo) => {
  // The browser reports the refused upload itself.
  allowConsoleErrors(/status of 400 \(Bad Request\) \(.*\/photos\)/);
  const nameEn = `Zz Huge Photo Set ${Date.now()}`;
  await signInAsApiAdmin(page, adminApi);
  await page.goto('/admin');
  await page.getByRole('button', { name: 'Add product' }).click();
  await page.getByLabel('Price (BGN)').fill('12.00');
  await page.getByLabel('Name (English)').fill(nameEn);
  await page.getByLabel('Description (English)').fill('A set whose second photo is far too large.');
  await page.getByLabel('Add photos').setInputFiles([
    { name: 'cover.png', mimeType: 'image/png', buffer: await png(220, 30, 30) },
    // 16,000 × 16,000 pixels in some 30 KB: refused from its header, never decoded by the server.
    { name: 'huge.png', mimeType: 'image/png', buffer: hugeBlankPng(16_000, 16_000) },
  ]);
  await page.getByRole('button', { name: 'Save product' }).click();
  await expect(page.getByRole('alert')).toContainText(
    'photo 2 (huge.png) could not be uploaded: This image has too many pixels: at most 50 megapixels are accepted (for example 8,000 × 6,000). Please make it smaller and upload it again.',
  );
  const screenshot = testInfo.outputPath('product-form-photo-too-many-pixels.png');
  await page.screenshot({ path: screenshot, fullPage: true });
  await testInfo.attach('product form refusing a photo of too many pixels', { path: screenshot, contentType: 'image/png' });
  const listed = ((await (await adminApi.get('/api/admin/products')).json()) as { products: Product[] }).products.find((product) => product.name.en === nameEn)!;
  expect(listed.photos).toHaveLength(1);
});
