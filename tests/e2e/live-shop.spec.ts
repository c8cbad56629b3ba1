import { clientAddressHeader, test as base, expect } from './fixtures.js';
import { startShopServer, type ShopServer } from './shop-server.js';
import { signIn } from './sign-in-steps.js';

// A real shop (SHOP_MODE=live) on its first start: no demo banner, no demo catalogue, and a home page
// that says so kindly, with the way to the first product for its owner.

const OWNER = 'owner@live-shop.example';

let liveShop: ShopServer | undefined;
const test = base.extend({
  baseURL: async ({ inbox }, use) => {
    // Started for the file's first test, whose page opens before any beforeAll hook runs.
    liveShop ??= await startShopServer({ SHOP_MODE: 'live', SMTP_URL: inbox.url, ADMIN_EMAILS: OWNER, TRUST_PROXY: 'true' });
    await use(liveShop.baseURL);
  },
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object
  extraHTTPHeaders: async ({}, use) => use(clientAddressHeader()),
});
test.afterAll(async () => {
  await liveShop?.stop();
  liveShop = undefined;
});

// One worker runs this file's tests in turn: its own shop then starts once per project, not once per worker.
test.describe.configure({ mode: 'default' });

test('a visitor of a new live shop sees no demo banner and a kind word that products are coming, in English and Bulgarian', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome to Nail Art Atelier' })).toBeVisible();
  await expect(page.getByText('No products available yet. Please check back soon.')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Demo notice' })).toHaveCount(0);
  await expect(page.getByText(/Demo shop/)).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Add your first product' })).toHaveCount(0);
  // Nothing to search or sort yet.
  await expect(page.getByRole('combobox', { name: 'Search products' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Български' }).click();
  await expect(page.getByText('Все още няма налични продукти. Заповядайте отново скоро.')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Демонстрационен режим' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Добавете първия си продукт' })).toHaveCount(0);
});

test('the owner of a new live shop is led from the empty home page to the form for the first product, in English and Bulgarian', async ({ page, inbox }) => {
  await page.goto('/');
  await signIn(page, inbox, OWNER);
  await expect(page.getByText('Your shop has no products yet.')).toBeVisible();
  await page.getByRole('link', { name: 'Add your first product' }).click();
  await expect(page).toHaveURL(/\/admin\?tab=products$/);
  await expect(page.getByRole('heading', { name: 'Add product' })).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByText('No products yet.', { exact: true })).toBeVisible();

  await page.getByRole('banner').getByRole('link', { name: 'Home' }).first().click();
  await page.getByRole('button', { name: 'Български' }).click();
  await expect(page.getByText('Магазинът ви все още няма продукти.')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Демонстрационен режим' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Добавете първия си продукт' }).click();
  await expect(page.getByRole('heading', { name: 'Нов продукт' })).toBeVisible();
});
