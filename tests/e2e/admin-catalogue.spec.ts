import sharp from 'sharp';
import type { APIRequestContext, Page } from '@playwright/test';
import type { Product } from '#shared/catalog.js';
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
  await page.goto('/admin?tab=products');
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
  // The server makes every size of three photos before the form says it saved: CPU work that a busy
  // machine stretches past the usual 10 s, so the test waits for the message itself, within its own time.
  await expect(page.getByRole('dialog', { name: 'Success' })).toContainText('Product saved successfully', { timeout: 0 });
  await page.getByRole('button', { name: 'OK', exact: true }).click();
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

/** Which colour is strongest in a stored photo: 0 red, 1 green, 2 blue. */
async function strongestColour(adminApi: APIRequestContext, url: string) {
  const { channels } = await sharp(await (await adminApi.get(`${url}?w=320`)).body()).stats();
  return channels.map((channel) => channel.mean).indexOf(Math.max(...channels.map((channel) => channel.mean)));
}

test('an admin whose photo of too many pixels is refused is told which and why in their language, the others are saved in order, and the product saves without it', async ({
  page,
  adminApi,
  allowConsoleErrors,
}, testInfo) => {
  // The browser reports the refused upload itself.
  allowConsoleErrors(/status of 400 \(Bad Request\) \(.*\/photos\)/);
  const nameEn = `Zz Huge Photo Set ${Date.now()}`;
  const listed = async () => ((await (await adminApi.get('/api/admin/products')).json()) as { products: Product[] }).products.find((product) => product.name.en === nameEn)!;
  await signInAsApiAdmin(page, adminApi);
  await page.goto('/admin?tab=products');
  await page.getByRole('button', { name: 'Add product' }).click();
  await page.getByLabel('Price (BGN)').fill('12.00');
  await page.getByLabel('Name (English)').fill(nameEn);
  await page.getByLabel('Description (English)').fill('A set whose second photo is far too large.');
  await page.getByLabel('Add photos').setInputFiles([
    { name: 'cover.png', mimeType: 'image/png', buffer: await png(220, 30, 30) },
    // 16,000 × 16,000 pixels in some 30 KB: refused from its header, never decoded by the server.
    { name: 'huge.png', mimeType: 'image/png', buffer: hugeBlankPng(16_000, 16_000) },
    { name: 'blue.png', mimeType: 'image/png', buffer: await png(40, 60, 220) },
  ]);
  await page.getByLabel('Alt text (English), photo 3').fill('The set in blue light');
  // The form shows no thumbnail of the huge file: the browser would decode all of it to show one.
  const chosen = page.getByRole('list', { name: 'Photos' }).getByRole('listitem');
  await expect(chosen.nth(0).getByRole('img', { name: 'Photo 1' })).toBeVisible();
  await expect(chosen.nth(2).getByRole('img', { name: 'Photo 3' })).toBeVisible();
  await expect(chosen.nth(1).getByRole('img')).toHaveCount(0);
  await page.getByRole('button', { name: 'Save product' }).click();
  const tooManyPixels = 'This image has too many pixels: at most 50 megapixels are accepted (for example 8,000 × 6,000). Please make it smaller and upload it again.';
  await expect(page.getByRole('alert')).toHaveText(
    `The product is saved, but not with every photo. Photo 2 (huge.png) was refused: ${tooManyPixels} Remove the refused photo to save the product without it.`,
  );
  // The refused file stays in its place with its reason; the photos after it were uploaded all the same.
  const photos = page.getByRole('list', { name: 'Photos' }).getByRole('listitem');
  await expect(photos).toHaveCount(3);
  await expect(photos.nth(1)).toContainText('Refused');
  await expect(photos.nth(1)).toContainText('huge.png');
  await expect(page.getByRole('button', { name: 'Remove photo 2' })).toHaveAccessibleDescription(`${tooManyPixels} Remove this photo to save the product without it.`);
  await expect(photos.nth(2)).not.toContainText('Not uploaded yet');
  await expect(photos.nth(2)).not.toContainText('blue.png');
  expect(await hasHorizontalScroll(page)).toBe(false);
  const screenshot = testInfo.outputPath('product-form-photo-too-many-pixels.png');
  await page.screenshot({ path: screenshot, fullPage: true });
  await testInfo.attach('product form refusing a photo of too many pixels', { path: screenshot, contentType: 'image/png' });
  const saved = await listed();
  expect(saved.photos).toHaveLength(2);
  expect(saved.photos[1]!.alt.en).toBe('The set in blue light');
  expect(await Promise.all(saved.photos.map((photo) => strongestColour(adminApi, photo.url)))).toEqual([0, 2]);

  // In Bulgarian, saving again is refused again, in Bulgarian; without the refused file the product saves.
  await page.getByRole('button', { name: 'Български' }).click();
  const tooManyPixelsBg = 'Изображението има твърде много пиксели: приемат се най-много 50 мегапиксела (например 8000 × 6000). Моля, намалете го и го качете отново.';
  const photosBg = page.getByRole('list', { name: 'Снимки' }).getByRole('listitem');
  await expect(photosBg.nth(1)).toContainText('Отказана');
  await page.getByRole('button', { name: 'Запазете продукта' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    `Продуктът е запазен, но не с всички снимки. Снимка 2 (huge.png) беше отказана: ${tooManyPixelsBg} Премахнете отказаната снимка, за да запазите продукта без нея.`,
  );
  await expect(page.getByRole('button', { name: 'Премахнете снимка 2' })).toHaveAccessibleDescription(`${tooManyPixelsBg} Премахнете тази снимка, за да запазите продукта без нея.`);
  const screenshotBg = testInfo.outputPath('product-form-photo-too-many-pixels-bg.png');
  await page.screenshot({ path: screenshotBg, fullPage: true });
  await testInfo.attach('product form refusing a photo of too many pixels, in Bulgarian', { path: screenshotBg, contentType: 'image/png' });
  await page.getByRole('button', { name: 'Премахнете снимка 2' }).click();
  await expect(photosBg).toHaveCount(2);
  await page.getByRole('button', { name: 'Запазете продукта' }).click();
  await expect(page.getByRole('dialog', { name: 'Готово' })).toContainText('Продуктът е запазен успешно');
  await page.getByRole('button', { name: 'Добре' }).click();
  const final = await listed();
  expect(final.photos.map((photo) => photo.id)).toEqual(saved.photos.map((photo) => photo.id));
  // The next test of this worker starts in English again.
  await page.getByRole('button', { name: 'English' }).click();
});
