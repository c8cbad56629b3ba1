import { readFile } from 'node:fs/promises';
import { csvRow } from '#shared/csv.js';
import { Auditor } from './accessibility.js';
import { expect, hasHorizontalScroll, test } from './shop-fixtures.js';

const HEADER = ['Handle', 'Title', 'Body (HTML)', 'Type', 'Option1 Name', 'Option1 Value', 'Variant Inventory Tracker', 'Variant Inventory Qty', 'Variant Price', 'Status'];

test('an admin exports the catalogue as Shopify’s CSV, checks another shop’s file, sees what an import would do, and imports it', async ({ page, adminApi }, testInfo) => {
  const audit = new Auditor(page, testInfo);
  const handle = `zz-csv-${testInfo.project.name}-${Date.now()}`;
  const title = `Zz Imported Set ${testInfo.project.name} ${Date.now()}`;
  const file = [
    csvRow(HEADER),
    csvRow([handle, title, '<p>From the <b>old</b> shop</p>', 'Nails', 'Shape', 'Almond', 'shopify', '3', '21.00', 'active']),
    csvRow([handle, '', '', '', '', 'Coffin', 'shopify', '1', '23.00', '']),
  ].join('');
  await page.context().addCookies((await adminApi.storageState()).cookies);
  await page.goto('/admin?tab=products');
  await page.getByText('Import and export products (CSV)').click();

  const exporting = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export all products (Shopify CSV)' }).click();
  const exported = await exporting;
  expect(exported.suggestedFilename()).toBe('products.csv');
  expect(await readFile((await exported.path())!, 'utf8')).toMatch(/^\uFEFFHandle,Title,Title \(bg\),Body \(HTML\)/);

  await page.getByLabel('Product CSV from Shopify or WooCommerce').setInputFiles({ name: 'shopify-products.csv', mimeType: 'text/csv', buffer: Buffer.from(file) });
  await page.getByRole('button', { name: 'Check the file' }).click();
  const report = page.getByRole('status').filter({ hasText: 'An import would give' });
  await expect(report).toContainText('1 new, 0 updated, 0 unchanged, 0 skipped');
  expect(await hasHorizontalScroll(page)).toBe(false);
  await audit.check('admin: a product CSV checked');
  await expect(page.getByRole('row', { name: new RegExp(title) })).toHaveCount(0);

  await page.getByRole('button', { name: 'Import these products' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Imported: 1 created' })).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(title) })).toBeVisible();
  await audit.report();
});
