import type { Page } from '@playwright/test';
import { expect, signedInApi, test, uniqueEmail } from './shop-fixtures.js';
import { createProduct, placeOrderThroughApi, setOrderStatus } from './shop-api.js';
import { signIn } from './sign-in-steps.js';
import { acceptTerms } from './checkout-steps.js';

// Stock as a shopper meets it. Every test makes its own products (the worker's shop is shared by its
// tests, and one of them buying a demo piece would change what another sees).

const productCard = (page: Page, name: string) => page.getByRole('article').filter({ has: page.getByRole('heading', { name, exact: true }) });
const unique = (name: string) => `Zz ${name} ${Date.now().toString(36)}`;

test('a sold-out card cannot be added, a one-of-a-kind card says only 1 is left, in both languages', async ({ page, adminApi }) => {
  const gone = await createProduct(adminApi, unique('Sold Star'), '12.00', 0);
  const last = await createProduct(adminApi, unique('Last Moon'), '14.00', 1);
  const plenty = await createProduct(adminApi, unique('Plenty Set'), '9.00', 20);
  await page.goto('/');

  const soldOut = productCard(page, gone.name.en);
  await expect(soldOut.getByText('Sold out', { exact: true }).first()).toBeVisible();
  const soldOutButton = soldOut.getByRole('button', { name: `${gone.name.en} is sold out` });
  await expect(soldOutButton).toHaveAttribute('aria-disabled', 'true');
  // Pressed anyway (it keeps its focus, so Playwright must be told to press it): nothing is added.
  await soldOutButton.click({ force: true });
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await expect(productCard(page, last.name.en).getByText('Only 1 left')).toBeVisible();
  await expect(productCard(page, last.name.en).getByRole('button', { name: `Add to Cart: ${last.name.en}` })).not.toHaveAttribute('aria-disabled', 'true');
  await expect(productCard(page, plenty.name.en).getByText(/left|Sold out/)).toHaveCount(0);

  await page.getByRole('button', { name: 'Български' }).click();
  await expect(productCard(page, gone.name.en).getByRole('button', { name: `${gone.name.en} – изчерпано` })).toHaveText('Изчерпано');
  await expect(productCard(page, last.name.en).getByText('Остана само 1')).toBeVisible();
});

test('the cart’s quantity stepper raises and lowers a line, stops at the stock with a message, and Remove takes the line', async ({ page, inbox, adminApi }) => {
  const batch = await createProduct(adminApi, unique('Batch Tips'), '10.00', 3);
  await page.goto('/');
  await signIn(page, inbox, uniqueEmail('stepper'));
  await productCard(page, batch.name.en).getByRole('button', { name: `Add to Cart: ${batch.name.en}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'OK', exact: true }).click();
  // Adding it again raises the quantity of its one line.
  await productCard(page, batch.name.en).getByRole('button', { name: `Add to Cart: ${batch.name.en}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'OK', exact: true }).click();
  const cartLink = page.getByRole('banner').getByRole('link', { name: /^Cart, / });
  await expect(cartLink).toHaveAccessibleName('Cart, 2 items');

  await cartLink.click();
  await expect(page.getByRole('main').getByRole('listitem')).toHaveCount(1);
  const count = page.getByRole('status', { name: `Quantity of ${batch.name.en}: 2` });
  await expect(count).toHaveText('2');
  await expect(page.locator('p', { hasText: 'Subtotal' })).toContainText('BGN 20.00');

  await page.getByRole('button', { name: `One more ${batch.name.en}` }).click();
  await expect(page.getByRole('status', { name: `Quantity of ${batch.name.en}: 3` })).toHaveText('3');
  await expect(page.locator('p', { hasText: 'Subtotal' })).toContainText('BGN 30.00');
  await expect(page.getByRole('button', { name: `One more ${batch.name.en}` })).toHaveAttribute('aria-disabled', 'true');
  await page.getByRole('button', { name: `One more ${batch.name.en}` }).click({ force: true });
  await expect(page.getByRole('dialog')).toContainText(`Only 3 pieces of ${batch.name.en} are left.`);
  await page.getByRole('dialog').getByRole('button', { name: 'OK', exact: true }).click();

  await page.getByRole('button', { name: `One fewer ${batch.name.en}` }).click();
  await expect(page.getByRole('status', { name: `Quantity of ${batch.name.en}: 2` })).toHaveText('2');
  await expect(cartLink).toHaveAccessibleName('Cart, 2 items');
  const server = (await (await page.request.get('/api/cart')).json()) as { items: Array<{ quantity: number }> };
  expect(server.items.map((item) => item.quantity)).toEqual([2]);

  await page.getByRole('button', { name: `Remove ${batch.name.en} from cart` }).click();
  await expect(page.getByText('Your cart is empty.')).toBeVisible();
  await expect(cartLink).toHaveAccessibleName('Cart, 0 items');
});

test('a checkout is refused when another customer bought the last piece a moment earlier, and the cart stays', async ({ page, inbox, adminApi, playwright, baseURL, allowConsoleErrors }) => {
  allowConsoleErrors(/\/api\/events\)$/);
  allowConsoleErrors(/status of 409 \(Conflict\) \(http:\/\/[^)]+\/api\/orders\)$/);
  const lily = await createProduct(adminApi, unique('Last Lily'), '18.00', 1);
  // This page hears no live news, as a phone whose connection dropped: only the order's answer can tell it.
  await page.route('/api/events', (route) => route.abort());
  await page.goto('/');
  await signIn(page, inbox, uniqueEmail('too-late'));
  const address = await page.request.post('/api/addresses', {
    data: { fullName: 'Petya Dimitrova', streetAddress: '7 Shipka St', city: 'Sofia', postalCode: '1504', country: 'BG', phone: '0888 123 456' },
  });
  expect(address.ok()).toBe(true);
  await productCard(page, lily.name.en).getByRole('button', { name: `Add to Cart: ${lily.name.en}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'OK', exact: true }).click();
  await page.goto('/checkout');
  const placeOrder = page.getByRole('button', { name: 'Place Order' });
  await expect(placeOrder).toBeEnabled();

  const quicker = await signedInApi(playwright, baseURL!, inbox, uniqueEmail('quicker'));
  await placeOrderThroughApi(quicker, lily.id, 'card');
  await quicker.dispose();

  await acceptTerms(page);
  await placeOrder.click();
  await expect(page.getByRole('alert')).toContainText(`Someone else was quicker: not enough pieces are left. ${lily.name.en} is sold out.`);
  await expect(page).toHaveURL(/\/checkout$/);
  await expect(page.getByText('Sold out: remove it to order')).toBeVisible();
  await expect(placeOrder).toBeDisabled();
  const cart = (await (await page.request.get('/api/cart')).json()) as { items: Array<{ productId: string; quantity: number }> };
  expect(cart.items.map((item) => [item.productId, item.quantity])).toEqual([[lily.id, 1]]);
  const orders = (await (await page.request.get('/api/orders')).json()) as { orders: unknown[] };
  expect(orders.orders).toEqual([]);
});

test('cancelling an order returns its piece, and an open page shows it for sale again at once', async ({ page, inbox, adminApi, playwright, baseURL }) => {
  const opal = await createProduct(adminApi, unique('Opal Drop'), '22.00', 1);
  await page.goto('/');
  const card = productCard(page, opal.name.en);
  await expect(card.getByText('Only 1 left')).toBeVisible();

  const buyer = await signedInApi(playwright, baseURL!, inbox, uniqueEmail('changes-mind'));
  const order = await placeOrderThroughApi(buyer, opal.id, 'pay_by_link');
  await buyer.dispose();
  await expect(card.getByRole('button', { name: `${opal.name.en} is sold out` })).toHaveAttribute('aria-disabled', 'true', { timeout: 3000 });

  await setOrderStatus(adminApi, order.orderId, 'cancelled');
  await expect(card.getByText('Only 1 left')).toBeVisible({ timeout: 3000 });
  await expect(card.getByRole('button', { name: `Add to Cart: ${opal.name.en}` })).not.toHaveAttribute('aria-disabled', 'true');
  expect(await page.evaluate(() => performance.getEntriesByType('resource').filter((entry) => entry.name.endsWith('/api/products')).length)).toBe(1);
});

test('an addition queued offline that meets a sold-out product on sync is dropped with a message, and the rest syncs', async ({
  page,
  context,
  inbox,
  adminApi,
  playwright,
  baseURL,
  allowConsoleErrors,
}) => {
  allowConsoleErrors(/ERR_INTERNET_DISCONNECTED/);
  const star = await createProduct(adminApi, unique('Offline Star'), '15.00', 1);
  const custom = await createProduct(adminApi, unique('Offline Custom'), '11.00');
  await page.goto('/');
  await signIn(page, inbox, uniqueEmail('offline-stock'));
  await page.waitForLoadState('networkidle');

  await context.setOffline(true);
  for (const product of [star, custom]) {
    await productCard(page, product.name.en).getByRole('button', { name: `Add to Cart: ${product.name.en}` }).click();
    await page.getByRole('dialog', { name: 'Success' }).getByRole('button', { name: 'OK', exact: true }).click();
  }
  // Meanwhile another customer buys the one piece.
  const quicker = await signedInApi(playwright, baseURL!, inbox, uniqueEmail('online-buyer'));
  await placeOrderThroughApi(quicker, star.id, 'card');
  await quicker.dispose();

  await context.setOffline(false);
  const warning = page.getByRole('dialog', { name: 'Warning' });
  await expect(warning).toContainText(`${star.name.en} is sold out.`);
  await warning.getByRole('button', { name: 'OK', exact: true }).click();
  await expect(page.getByRole('banner').getByRole('link', { name: /^Cart, / })).toHaveAccessibleName('Cart, 1 item');
  const cart = (await (await page.request.get('/api/cart')).json()) as { items: Array<{ productId: string }> };
  expect(cart.items.map((item) => item.productId)).toEqual([custom.id]);
});
