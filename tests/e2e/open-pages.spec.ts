import type { Page } from '@playwright/test';
import type { CartResponse } from '#shared/cart.js';
import { createProduct, deleteProduct, renameProduct } from './shop-api.js';
import { clientAddressHeader, expect, test, uniqueEmail } from './shop-fixtures.js';
import { requestLinkThroughUi, signIn } from './sign-in-steps.js';
import { acceptTerms } from './checkout-steps.js';

// Open pages stay true: what the shop changes elsewhere (an admin's edit, a sign-in in another tab)
// reaches a page that is already open, without a reload.

const cardOf = (page: Page, name: string) => page.getByRole('article').filter({ has: page.getByRole('heading', { name, exact: true }) });
const addButton = (page: Page, name: string) => cardOf(page, name).getByRole('button', { name: /^(Add|Добави)/ });
const cartLink = (page: Page) => page.getByRole('banner').getByRole('link', { name: /^(Cart|Количка), / });
const okButton = (page: Page) => page.getByRole('dialog').getByRole('button', { name: /^(OK|Добре)$/ });

/** Marks the document, so that a test can tell later that the page was never reloaded. */
const markDocument = (page: Page) => page.evaluate(() => ((window as unknown as { stillOpen: boolean }).stillOpen = true));
const sameDocument = (page: Page) => page.evaluate(() => (window as unknown as { stillOpen?: boolean }).stillOpen === true);

/** Waits until the page's live stream is open, so that what follows is a change it must hear. */
const liveStreamOpened = (page: Page) => page.waitForResponse((response) => new URL(response.url()).pathname === '/api/events');

const serverCart = async (page: Page) => ((await (await page.request.get('/api/cart')).json()) as CartResponse).items;

test('an admin’s edit and deletion reach open shopper pages, signed in or not, and Add takes the new price', async ({ page, browser, baseURL, inbox, adminApi }) => {
  const stamp = `${Date.now()}`.slice(-6);
  await page.goto('/');
  await signIn(page, inbox, uniqueEmail('live-shopper'));
  const visitorContext = await browser.newContext({ baseURL, extraHTTPHeaders: clientAddressHeader() });
  const visitor = await visitorContext.newPage();
  const visitorStream = liveStreamOpened(visitor);
  await visitor.goto('/');
  await visitorStream;
  await expect(visitor.getByRole('article').first()).toBeVisible();
  await markDocument(page);
  await markDocument(visitor);

  // A new product appears on the open pages.
  const product = await createProduct(adminApi, `Zz Live Opal ${stamp}`, '10.00');
  for (const shopper of [page, visitor]) await expect(cardOf(shopper, product.name.en)).toContainText('BGN 10.00');

  // Renamed and repriced: the open pages show the new name and price, and nothing of the old.
  const renamed = await renameProduct(adminApi, product, `Zz Live Aurora ${stamp}`, '12.40');
  for (const shopper of [page, visitor]) {
    await expect(cardOf(shopper, renamed.name.en)).toContainText('BGN 12.40');
    await expect(cardOf(shopper, product.name.en)).toHaveCount(0);
  }

  // Add puts in the cart what the page shows.
  await addButton(page, renamed.name.en).click();
  await expect(page.getByRole('dialog', { name: 'Success' })).toContainText(`${renamed.name.en} added to cart!`);
  await okButton(page).click();
  expect((await serverCart(page)).filter((line) => line.productId === product.id)).toEqual([
    expect.objectContaining({ name: renamed.name, priceMinor: 1240 }),
  ]);
  await expect(cartLink(page)).toHaveAccessibleName('Cart, 1 item');

  // Deleted: it leaves the open pages, and the cart that held it.
  await deleteProduct(adminApi, renamed);
  for (const shopper of [page, visitor]) await expect(cardOf(shopper, renamed.name.en)).toHaveCount(0);
  await expect(cartLink(page)).toHaveAccessibleName('Cart, 0 items');
  expect(await sameDocument(page)).toBe(true);
  expect(await sameDocument(visitor)).toBe(true);
  await visitorContext.close();
});

test('an open cart page shows the new price of a line the admin repriced', async ({ page, inbox, adminApi }) => {
  const product = await createProduct(adminApi, `Zz Live Cart ${Date.now()}`, '8.00');
  await page.goto('/');
  await signIn(page, inbox, uniqueEmail('live-cart'));
  await addButton(page, product.name.en).click();
  await okButton(page).click();
  await cartLink(page).click();
  const line = page.getByRole('listitem').filter({ hasText: product.name.en });
  await expect(line).toContainText('BGN 8.00');
  await markDocument(page);

  await renameProduct(adminApi, product, product.name.en, '9.50');
  await expect(line).toContainText('Price changed: was BGN 8.00, now BGN 9.50');
  await expect(page.getByText('Subtotal')).toBeVisible();
  await expect(page.getByRole('paragraph').filter({ hasText: 'Subtotal' })).toContainText('BGN 9.50');
  expect(await sameDocument(page)).toBe(true);
  await deleteProduct(adminApi, product);
});

test('a page that has not heard of a new price yet says the price when adding, and then shows it', async ({ page, inbox, adminApi }) => {
  const product = await createProduct(adminApi, `Zz Live Late ${Date.now()}`, '20.00');
  // The news is held back, as by a proxy that lets no stream through.
  await page.route('/api/events', (route) => route.fulfill({ status: 204 }));
  await page.goto('/');
  await signIn(page, inbox, uniqueEmail('live-late'));
  await expect(cardOf(page, product.name.en)).toContainText('BGN 20.00');
  await renameProduct(adminApi, product, product.name.en, '24.00');

  await addButton(page, product.name.en).click();
  await expect(page.getByRole('dialog', { name: 'Success' })).toContainText(`${product.name.en} added to cart! Its price has changed: it is now BGN 24.00.`);
  await okButton(page).click();
  await expect(cardOf(page, product.name.en)).toContainText('BGN 24.00');
  await deleteProduct(adminApi, product);
});

test('a sign-in through the link in another tab signs in the tab that asked for it, and a sign-out there signs it out', async ({ page, context, inbox }) => {
  const email = uniqueEmail('two-tabs');
  await page.goto('/cart');
  await expect(page.getByText('Please sign in to view your cart.')).toBeVisible();
  const link = await requestLinkThroughUi(page, inbox, email);
  await markDocument(page);

  const other = await context.newPage();
  await other.goto(link);
  await expect(other.getByRole('dialog')).toContainText(`You are signed in as ${email}.`);
  await okButton(other).click();

  // The tab still waiting for the link learns of it at once: the dialog closes, and the page is the customer's.
  await expect(page.getByRole('dialog')).toContainText(`You are signed in as ${email}.`, { timeout: 1500 });
  await okButton(page).click();
  await expect(page.getByText('Your cart is empty.')).toBeVisible();
  await expect(page.getByRole('banner').getByRole('button', { name: 'Log out' })).toBeVisible();
  await page.getByRole('banner').getByRole('link', { name: 'Home' }).first().click();
  const first = page.getByRole('article').first();
  const name = (await first.getByRole('heading').textContent())!;
  await first.getByRole('button', { name: /^Add/ }).click();
  await expect(page.getByRole('dialog', { name: 'Success' })).toContainText(`${name} added to cart!`);
  await okButton(page).click();
  await expect(cartLink(other)).toHaveAccessibleName('Cart, 1 item');

  await other.getByRole('banner').getByRole('button', { name: 'Log out' }).click();
  await expect(page.getByRole('banner').getByRole('button', { name: 'Log in' })).toBeVisible({ timeout: 1500 });
  await expect(cartLink(page)).toHaveCount(0);
  await first.getByRole('button', { name: /^Add/ }).click();
  await expect(page.getByRole('dialog')).toContainText('Please sign in to add items to your cart.');
  await okButton(page).click();
  expect(await sameDocument(page)).toBe(true);
});

test('the cart calls its sum a subtotal and says that tax and shipping come at checkout, in both languages', async ({ page, inbox }) => {
  await page.goto('/');
  await signIn(page, inbox, uniqueEmail('subtotal'));
  const first = page.getByRole('article').first();
  const price = (await first.getByText(/^BGN/).textContent())!;
  await first.getByRole('button', { name: /^Add/ }).click();
  await okButton(page).click();
  await cartLink(page).click();

  const sum = page.getByRole('paragraph').filter({ hasText: 'Subtotal' });
  await expect(sum).toContainText(price);
  await expect(page.getByText('Tax (5%) and shipping (BGN 5.99) are added at checkout.')).toBeVisible();
  await expect(page.getByText('Total', { exact: true })).toHaveCount(0);

  await page.getByRole('group', { name: 'Language' }).getByRole('button', { name: 'Български' }).click();
  await expect(page.getByRole('paragraph').filter({ hasText: 'Междинна сума' })).toContainText(price.replace('.', ','));
  await expect(page.getByText('Данъкът (5%) и доставката (BGN 5,99) се добавят при поръчката.')).toBeVisible();
});

test('a failed addition says why in the interface’s language, never in the server’s English', async ({ page, inbox, allowConsoleErrors }) => {
  allowConsoleErrors(/status of 500/);
  await page.addInitScript(() => localStorage.setItem('language', 'bg'));
  await page.goto('/');
  await signIn(page, inbox, uniqueEmail('bulgarian-error'));
  await page.route('/api/cart/operations', (route) => route.fulfill({ status: 500, json: { error: { code: 'internal', message: 'Internal error' } } }));
  await page.getByRole('article').first().getByRole('button', { name: /^Добавете/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Грешка' });
  await expect(dialog).toContainText('Неуспешно добавяне в количката: Нещо се обърка от наша страна. Моля, опитайте отново по-късно.');
  await expect(dialog).not.toContainText('Internal error');
  await okButton(page).click();
});

test('a refused order says why in the interface’s language', async ({ page, inbox, allowConsoleErrors }) => {
  allowConsoleErrors(/status of 503/);
  await page.addInitScript(() => localStorage.setItem('language', 'bg'));
  await page.goto('/');
  await signIn(page, inbox, uniqueEmail('bulgarian-checkout'));
  const address = await page.request.post('/api/addresses', {
    data: { fullName: 'Petya Dimitrova', streetAddress: '7 Shipka St', city: 'Sofia', postalCode: '1504', country: 'BG', phone: '0888 123 456' },
  });
  expect(address.ok()).toBe(true);
  await page.getByRole('article').first().getByRole('button', { name: /^Добавете/ }).click();
  await okButton(page).click();
  await page.route('/api/orders', (route) =>
    route.fulfill({ status: 503, json: { error: { code: 'unavailable', message: 'The database is not answering' } } }),
  );
  await page.goto('/checkout');
  await acceptTerms(page);
  await page.getByRole('button', { name: 'Потвърдете поръчката' }).click();
  await expect(page.getByRole('alert')).toHaveText('В момента магазинът не е достъпен. Моля, опитайте отново след няколко минути.');
});

test('a not-found page under /product/ carries no structured data', async ({ page, allowConsoleErrors }) => {
  allowConsoleErrors(/status of 404/);
  const response = await page.goto('/product/anything');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page.locator('script[type="application/ld+json"]')).toHaveCount(0);
  expect(await page.content()).not.toContain('29.99');

  // Nor after arriving from a page that had some.
  await page.goto('/');
  await expect(page.locator('script[type="application/ld+json"]')).not.toHaveCount(0);
  await page.evaluate(() => {
    history.pushState(null, '', '/product/anything-else');
    dispatchEvent(new PopStateEvent('popstate'));
  });
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page.locator('script[type="application/ld+json"]')).toHaveCount(0);
});
