import type { Product } from '#shared/catalog.js';
import { isPlainProduct } from '#shared/product-options.js';
import type { Page } from '@playwright/test';
import { addButtonOf, plainCard } from './fixtures.js';
import { clientAddressHeader, expect, hasHorizontalScroll, test, uniqueEmail } from './shop-fixtures.js';
import { signIn } from './sign-in-steps.js';

const cartLink = (page: Page) => page.getByRole('banner').getByRole('link', { name: /^(Cart|Количка), / });
const card = plainCard;
const productName = async (page: Page, index: number) => (await card(page, index).getByRole('heading').textContent())!;
const priceOf = async (page: Page, index: number) =>
  Number((await card(page, index).getByText(/^BGN/).textContent())!.replace(/[^\d,.]/g, '').replace(',', '.'));

async function serverCart(page: Page) {
  const response = await page.request.get('/api/cart');
  return (await response.json()).items as Array<{ productId: string; name: { en: string; bg: string }; quantity: number }>;
}

test('adds to the cart with a busy button, counts in the badge, totals and removes', async ({ page, inbox }) => {
  await page.goto('/');
  await signIn(page, inbox, uniqueEmail('shopper'));
  await expect(cartLink(page)).toHaveAccessibleName('Cart, 0 items');

  const first = await productName(page, 0);
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('/api/cart/operations', async (route) => {
    await held;
    await route.continue();
  });
  await card(page, 0).getByRole('button', { name: `Add to Cart: ${first}` }).click();
  const busy = card(page, 0).getByRole('button', { name: 'Adding...' });
  await expect(busy).toBeDisabled();
  release();
  await expect(page.getByRole('dialog', { name: 'Success' })).toContainText(`${first} added to cart!`);
  await page.getByRole('button', { name: 'OK', exact: true }).click();
  await page.unroute('/api/cart/operations');

  const second = await productName(page, 1);
  await card(page, 1).getByRole('button', { name: `Add to Cart: ${second}` }).click();
  await expect(page.getByRole('dialog', { name: 'Success' })).toContainText(`${second} added to cart!`);
  await page.getByRole('button', { name: 'OK', exact: true }).click();
  await expect(cartLink(page)).toHaveAccessibleName('Cart, 2 items');

  const expectedTotal = (await priceOf(page, 0)) + (await priceOf(page, 1));
  await cartLink(page).click();
  await expect(page.getByRole('heading', { name: 'Your Cart' })).toBeVisible();
  const lines = page.getByRole('main').getByRole('listitem');
  await expect(lines).toHaveCount(2);
  await expect(page.getByText('Subtotal')).toBeVisible();
  await expect(page.locator('p', { hasText: 'Subtotal' })).toContainText(`BGN ${expectedTotal.toFixed(2)}`);
  expect(await hasHorizontalScroll(page)).toBe(false);

  await page.getByRole('button', { name: `Remove ${first} from cart` }).click();
  await expect(lines).toHaveCount(1);
  await expect(cartLink(page)).toHaveAccessibleName('Cart, 1 item');
  await expect(page.locator('p', { hasText: 'Subtotal' })).toContainText(`BGN ${(await serverCartTotal(page)).toFixed(2)}`);
  expect((await serverCart(page)).map((item) => item.name.en)).toEqual([second]);

  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  await expect(page).toHaveURL(/\/checkout$/);
});

async function serverCartTotal(page: Page) {
  const items = (await (await page.request.get('/api/cart')).json()).items as Array<{ priceMinor: number }>;
  return items.reduce((sum, item) => sum + item.priceMinor, 0) / 100;
}

test('two browsers of one customer see each other’s changes within a second', async ({ page, inbox, browser, baseURL }) => {
  const email = uniqueEmail('two-devices');
  await page.goto('/');
  await signIn(page, inbox, email);
  const phoneContext = await browser.newContext({ baseURL, extraHTTPHeaders: clientAddressHeader() });
  const phone = await phoneContext.newPage();
  await phone.goto('/');
  await signIn(phone, inbox, email);
  await phone.getByRole('banner').getByRole('link', { name: /^Cart/ }).click();
  await expect(phone.getByText('Your cart is empty.')).toBeVisible();

  const name = await productName(page, 2);
  await card(page, 2).getByRole('button', { name: `Add to Cart: ${name}` }).click();
  await expect(page.getByRole('dialog', { name: 'Success' })).toBeVisible();
  await expect(phone.getByRole('listitem').filter({ hasText: name })).toBeVisible({ timeout: 1500 });
  await expect(cartLink(phone)).toHaveAccessibleName('Cart, 1 item');

  await phone.getByRole('button', { name: `Remove ${name} from cart` }).click();
  await expect(cartLink(page)).toHaveAccessibleName('Cart, 0 items', { timeout: 1500 });
  await phoneContext.close();
});

test('an add made offline waits in the queue and reaches the server exactly once, even when an answer is lost', async ({
  page,
  context,
  inbox,
  allowConsoleErrors,
}) => {
  allowConsoleErrors(/ERR_INTERNET_DISCONNECTED|ERR_FAILED|Failed to fetch/);
  const email = uniqueEmail('offline');
  await page.goto('/');
  await signIn(page, inbox, email);
  await page.waitForLoadState('networkidle');
  const name = await productName(page, 3);

  await context.setOffline(true);
  await expect(page.getByText('You are offline. Some features may be limited.')).toBeVisible();
  await card(page, 3).getByRole('button', { name: `Add to Cart: ${name}` }).click();
  await expect(page.getByRole('dialog', { name: 'Success' })).toContainText(`${name} added to cart!`);
  await page.getByRole('button', { name: 'OK', exact: true }).click();
  await expect(cartLink(page)).toHaveAccessibleName('Cart, 1 item');
  const queue = await page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? '[]'), `pending_purchases_${email}`);
  expect(queue).toEqual([expect.objectContaining({ type: 'add', name: expect.objectContaining({ en: name }), pendingSync: true })]);
  expect(await page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? '[]').length, `user_cart_${email}`)).toBe(1);

  // The first replay reaches the server, but its answer is lost on the way back.
  let attempts = 0;
  await page.route('/api/cart/operations', async (route) => {
    attempts++;
    if (attempts === 1) {
      await route.fetch();
      await route.abort('failed');
    } else {
      await route.continue();
    }
  });
  await context.setOffline(false);
  await expect.poll(() => attempts).toBe(1);
  // The lost answer counts as a lost connection; the shop asks the server again within seconds, by itself.
  await expect.poll(() => attempts, { timeout: 4_000 }).toBe(2);
  await expect.poll(() => page.evaluate((key) => localStorage.getItem(key), `pending_purchases_${email}`)).toBeNull();
  await expect(page.getByRole('status').filter({ hasText: 'Syncing data...' })).toHaveCount(0);

  const items = await serverCart(page);
  expect(items.filter((item) => item.name.en === name)).toHaveLength(1);
  expect(items).toHaveLength(1);
  await cartLink(page).click();
  await expect(page.getByRole('main').getByRole('listitem')).toHaveCount(1);
  await expect(page.getByText('Waiting to sync')).toHaveCount(0);
});

test('an offline add that local storage refuses is reported, and nothing is half-added', async ({ page, context, inbox, allowConsoleErrors }) => {
  allowConsoleErrors(/ERR_INTERNET_DISCONNECTED/);
  await page.goto('/');
  await signIn(page, inbox, uniqueEmail('full-storage'));
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => {
    const setItem = Storage.prototype.setItem;
    Storage.prototype.setItem = function (key: string, value: string) {
      if (key.startsWith('pending_purchases_')) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      return setItem.call(this, key, value);
    };
  });
  await context.setOffline(true);
  const name = await productName(page, 0);
  await card(page, 0).getByRole('button', { name: `Add to Cart: ${name}` }).click();
  await expect(page.getByRole('dialog', { name: 'Error' })).toContainText('Failed to add item to cart: Failed to update offline cart');
  await page.getByRole('button', { name: 'OK', exact: true }).click();
  await expect(cartLink(page)).toHaveAccessibleName('Cart, 0 items');
  await context.setOffline(false);
});

test('a full cart says so when adding, and offline additions that no longer fit are reported while offline removals are kept', async ({
  page,
  context,
  inbox,
  allowConsoleErrors,
}) => {
  allowConsoleErrors(/status of 409|ERR_INTERNET_DISCONNECTED/);
  const email = uniqueEmail('full-cart');
  await page.goto('/');
  await signIn(page, inbox, email);
  const { products } = (await (await page.request.get('/api/products')).json()) as { products: Product[] };
  // 100 pieces of three made-to-order products sold as they are (no stock limits them), the first a single piece.
  const [single, many, more] = products.filter((product) => product.stock === null && isPlainProduct(product));
  const operations = [
    [single!, 1],
    [many!, 50],
    [more!, 49],
  ].map(([product, quantity], index) => ({ id: `fill-${Date.now()}-${index}`, type: 'set', productId: (product as { id: string }).id, quantity }));
  expect((await page.request.post('/api/cart/operations', { data: { operations } })).ok()).toBe(true);
  await page.reload();
  await expect(cartLink(page)).toHaveAccessibleName('Cart, 100 items');

  const name = await productName(page, 4);
  await card(page, 4).getByRole('button', { name: `Add to Cart: ${name}` }).click();
  await expect(page.getByRole('dialog', { name: 'Error' })).toContainText(
    'Failed to add item to cart: Your cart is full. It holds at most 100 items; please remove some before adding more.',
  );
  await page.getByRole('button', { name: 'OK', exact: true }).click();
  await expect(cartLink(page)).toHaveAccessibleName('Cart, 100 items');

  // Offline: one line removed, two products added. Back online, the removal is kept and the additions are reported.
  // The cart page is opened once online, so that its code is there offline.
  await cartLink(page).click();
  await page.getByRole('link', { name: 'Continue Shopping' }).click();
  await page.waitForLoadState('networkidle');
  await context.setOffline(true);
  const [fifth, sixth] = [await productName(page, 5), await productName(page, 6)];
  for (const index of [5, 6]) {
    await addButtonOf(card(page, index)).click();
    await page.getByRole('dialog', { name: 'Success' }).getByRole('button', { name: 'OK', exact: true }).click();
  }
  await cartLink(page).click();
  await page.getByRole('button', { name: /^Remove .* from cart$/ }).first().click();
  await expect(cartLink(page)).toHaveAccessibleName('Cart, 101 items');
  await context.setOffline(false);
  const warning = page.getByRole('dialog', { name: 'Warning' });
  await expect(warning).toContainText(`Your cart is full (at most 100 items), so the products you added while offline could not be added: ${fifth}, ${sixth}`);
  await warning.getByRole('button', { name: 'OK', exact: true }).click();
  await expect(cartLink(page)).toHaveAccessibleName('Cart, 99 items');
  expect((await serverCart(page)).map((line) => line.quantity)).toEqual([50, 49]);
  expect(await page.evaluate((key) => localStorage.getItem(key), `pending_purchases_${email}`)).toBeNull();
});

test.describe('in Bulgarian', () => {
  test.use({ locale: 'bg-BG' });

  test('the cart speaks Bulgarian, offline too', async ({ page, context, inbox, allowConsoleErrors }) => {
    allowConsoleErrors(/ERR_INTERNET_DISCONNECTED/); // images below the fold cannot load while offline
    await page.goto('/');
    await signIn(page, inbox, uniqueEmail('bg-cart'));
    await cartLink(page).click();
    await expect(page.getByRole('heading', { name: 'Вашата количка' })).toBeVisible();
    await expect(page.getByText('Количката ви е празна.')).toBeVisible();
    await page.getByRole('link', { name: 'Разгледайте продуктите' }).click();
    await page.waitForLoadState('networkidle');

    const name = await productName(page, 0);
    await context.setOffline(true);
    await card(page, 0).getByRole('button', { name: `Добавете в количката: ${name}` }).click();
    await expect(page.getByRole('dialog', { name: 'Готово' })).toContainText(`${name} в количката!`);
    await page.getByRole('button', { name: 'Добре' }).click();
    await cartLink(page).click();
    await expect(page.getByText('Чака синхронизиране')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Опитайте да се свържете отново' })).toBeVisible();
    await expect(page.locator('p', { hasText: 'Междинна сума' })).toContainText(/BGN \d+,\d{2}/);
    await context.setOffline(false);
    await expect(page.getByText('Чака синхронизиране')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Продължете пазаруването' }).or(page.getByRole('link', { name: 'Продължете пазаруването' }))).toBeVisible();
  });
});
