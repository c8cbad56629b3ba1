import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import sharp from 'sharp';
import { RUNTIME_CACHES } from '#shared/service-worker.js';
import type { SmtpInbox } from '../support/smtp-inbox.js';
import { plainCard } from './fixtures.js';
import { expect, test, uniqueEmail } from './shop-fixtures.js';
import { startShopServer, type ShopServer } from './shop-server.js';
import { signIn } from './sign-in-steps.js';

// The offline worker at work. Every other spec blocks it (playwright.config.ts), since it answers
// requests before page.route() sees them; here it runs as it does for a shopper.
test.use({ serviceWorkers: 'allow' });

const cartLink = (page: Page) => page.getByRole('banner').getByRole('link', { name: /^(Cart|Количка), / });
const card = plainCard;
const productName = async (page: Page, index: number) => (await card(page, index).getByRole('heading').textContent())!;
const offlineBar = (page: Page) => page.getByRole('status').filter({ hasText: 'You are offline. Some features may be limited.' });
/** The first part of the page that says it cannot load offline (the profile has two: the orders and the nail sizes). */
const notLoaded = (page: Page) => page.getByRole('status').filter({ hasText: 'You are offline, so this cannot be loaded now.' }).first();
const imageShown = (page: Page, index: number) =>
  card(page, index)
    .getByRole('img')
    .evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth);

/**
 * Waits until the worker controls the page and keeps the catalogue, which it fetches as soon as it
 * starts. Installing precaches the whole build: measured at 2.0 s at most with the browser tests on 3
 * workers beside a build loop (load 10), well within expect's usual 10 s.
 */
async function waitForOfflineReady(page: Page) {
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
  await expect.poll(() => inCache(page, RUNTIME_CACHES.products, '/api/products')).toBe(true);
}

const inCache = (page: Page, cache: string, url: string) =>
  page.evaluate(async ([name, key]) => Boolean(await (await caches.open(name!)).match(key!)), [cache, url]);

async function serverCart(page: Page) {
  const response = await page.request.get('/api/cart');
  return ((await response.json()) as { items: Array<{ name: { en: string; bg: string } }> }).items;
}

/** Signs the browser in through the API, so that the first page it opens is the one the test names. */
async function signInThroughApi(context: BrowserContext, inbox: SmtpInbox, email: string) {
  expect((await context.request.post('/api/auth/sign-in-links', { data: { email } })).ok()).toBe(true);
  const token = new URL(await inbox.waitForSignInLink(email)).searchParams.get('signInToken');
  expect((await context.request.post('/api/auth/sessions', { data: { token, email } })).ok()).toBe(true);
}

test('after one visit the shop reloads offline with its catalogue, images and cart, and an addition made offline reaches the server once', async ({
  page,
  context,
  inbox,
  allowConsoleErrors,
}) => {
  // The live-update stream, the session check and images never seen cannot arrive offline.
  allowConsoleErrors(/ERR_INTERNET_DISCONNECTED|ERR_FAILED|Failed to fetch/);
  const email = uniqueEmail('offline-reload');
  await page.goto('/');
  await signIn(page, inbox, email);
  const first = await productName(page, 0);
  await card(page, 0).getByRole('button', { name: `Add to Cart: ${first}` }).click();
  await page.getByRole('dialog', { name: 'Success' }).getByRole('button', { name: 'OK', exact: true }).click();
  await expect(cartLink(page)).toHaveAccessibleName('Cart, 1 item');

  await waitForOfflineReady(page);
  const names = await page.getByRole('article').getByRole('heading').allTextContents();
  const firstPrice = (await card(page, 0).getByText(/^BGN/).textContent())!;
  await expect.poll(() => imageShown(page, 0)).toBeGreaterThan(0);
  const firstImage = await card(page, 0).getByRole('img').evaluate((image: HTMLImageElement) => new URL(image.currentSrc).pathname + new URL(image.currentSrc).search);
  // Seen before the worker took the page, so handed to it to keep.
  await expect.poll(() => inCache(page, RUNTIME_CACHES.images, firstImage)).toBe(true);

  await context.setOffline(true);
  const reloaded = await page.reload();
  expect(reloaded?.fromServiceWorker()).toBe(true);
  await expect(offlineBar(page)).toBeVisible();
  await expect(card(page, 0)).toContainText(firstPrice);
  expect(await page.getByRole('article').getByRole('heading').allTextContents()).toEqual(names);
  await expect.poll(() => imageShown(page, 0)).toBeGreaterThan(0);
  // The customer last signed in here, and their cart as this browser last saw it.
  await expect(cartLink(page)).toHaveAccessibleName('Cart, 1 item');

  const second = await productName(page, 1);
  await card(page, 1).getByRole('button', { name: `Add to Cart: ${second}` }).click();
  await expect(page.getByRole('dialog', { name: 'Success' })).toContainText(`${second} added to cart! It will be saved to your account when you are back online.`);
  await page.getByRole('button', { name: 'OK', exact: true }).click();
  await expect(cartLink(page)).toHaveAccessibleName('Cart, 2 items');

  // The cart page, not opened before, opens offline, and shows the same after another reload.
  await cartLink(page).click();
  const lines = page.getByRole('main').getByRole('listitem');
  await expect(lines).toHaveCount(2);
  await expect(lines.filter({ hasText: second })).toContainText('Waiting to sync');
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Your Cart' })).toBeVisible();
  await expect(lines).toHaveCount(2);
  await expect(lines.filter({ hasText: second })).toContainText('Waiting to sync');
  // Checkout needs the saved addresses, which only the server has.
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  await expect(notLoaded(page)).toBeVisible();
  await page.goBack();

  await context.setOffline(false);
  await expect(offlineBar(page)).toBeHidden();
  await expect.poll(() => page.evaluate((key) => localStorage.getItem(key), `pending_purchases_${email}`)).toBeNull();
  await expect(page.getByText('Waiting to sync')).toHaveCount(0);
  expect((await serverCart(page)).map((item) => item.name.en).sort()).toEqual([first, second].sort());
  await expect(lines).toHaveCount(2);

  // Of the API, the worker kept the public catalogue and nothing else: no cart, session or writes.
  const keptApi = await page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
    return urls.filter((url) => url.startsWith('/api/'));
  });
  expect(keptApi).toEqual(['/api/products']);
});

test('pages opened directly and then cut off say that they are offline instead of loading for ever', async ({
  page,
  context,
  inbox,
  adminApi,
  allowConsoleErrors,
}) => {
  allowConsoleErrors(/ERR_INTERNET_DISCONNECTED|ERR_FAILED|Failed to fetch/);
  await signInThroughApi(context, inbox, uniqueEmail('offline-direct'));
  await page.goto('/cart');
  await expect(page.getByText('Your cart is empty.')).toBeVisible();
  await waitForOfflineReady(page);

  await context.setOffline(true);
  await expect(offlineBar(page)).toBeVisible();
  // Home was never open in this visit; the worker has the catalogue it fetched when it started.
  await page.getByRole('banner').getByRole('link', { name: 'Home', exact: true }).click();
  await expect(card(page, 0).getByRole('button', { name: /^Add to Cart: .+$/ })).toBeVisible();

  await page.getByRole('banner').getByRole('link', { name: 'Profile' }).click();
  await expect(page.getByRole('heading', { name: 'My Profile' })).toBeVisible();
  await expect(notLoaded(page)).toBeVisible();
  await expect(page.getByText('Loading your orders...')).toHaveCount(0);
  await notLoaded(page).getByRole('button', { name: 'Try again' }).click();
  await expect(notLoaded(page)).toBeVisible();
  await page.getByRole('tab', { name: 'My Addresses' }).click();
  await expect(notLoaded(page)).toBeVisible();

  await page.reload();
  await expect(offlineBar(page)).toBeVisible();
  await expect(notLoaded(page)).toBeVisible();
  await page.goto('/checkout/payment/NA-OFFLINE1');
  await expect(notLoaded(page)).toBeVisible();

  // Back online, what waited loads by itself.
  await page.goto('/profile');
  await expect(notLoaded(page)).toBeVisible();
  await context.setOffline(false);
  await expect(page.getByText('You have no orders yet.')).toBeVisible();
  await expect(offlineBar(page)).toBeHidden();

  // The admin dashboard too: its access check waits for the server instead of sending the admin away.
  await context.addCookies((await adminApi.storageState()).cookies);
  await page.goto('/admin');
  await expect(page.getByRole('tab', { name: 'Product Management' })).toBeVisible();
  await context.setOffline(true);
  await page.reload();
  await expect(notLoaded(page)).toBeVisible();
  await expect(page).toHaveURL(/\/admin$/);
  await context.setOffline(false);
  await expect(page.getByRole('tab', { name: 'Product Management' })).toBeVisible();
});

test('the shop can be installed on a phone: a manifest in the page\'s language, with icons and colours', async ({ page, request }) => {
  await page.goto('/');
  const manifestLink = () => page.evaluate(() => document.querySelector<HTMLLinkElement>('link[rel="manifest"]')?.getAttribute('href'));
  expect(await manifestLink()).toBe('/manifest.webmanifest');
  const manifest = await (await request.get('/manifest.webmanifest')).json();
  expect(manifest).toMatchObject({
    name: 'Nail Art Atelier',
    short_name: 'Nail Art',
    lang: 'en',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    theme_color: '#9d2b6b',
    background_color: '#fdf7fa',
  });
  const icons = manifest.icons as Array<{ src: string; sizes: string; type: string; purpose: string }>;
  expect(icons.map((icon) => `${icon.sizes} ${icon.purpose}`)).toEqual(['192x192 any', '512x512 any', '512x512 maskable']);
  for (const icon of icons) {
    const response = await request.get(icon.src);
    expect(response.headers()['content-type']).toBe('image/png');
    const { width, height, format } = await sharp(await response.body()).metadata();
    expect(`${width}x${height}`).toBe(icon.sizes);
    expect(format).toBe('png');
  }
  // A maskable icon has no transparent corners: the launcher cuts its own shape out of it.
  const maskable = await (await request.get(icons[2]!.src)).body();
  const { data } = await sharp(maskable).ensureAlpha().extract({ left: 0, top: 0, width: 1, height: 1 }).raw().toBuffer({ resolveWithObject: true });
  expect(data[3]).toBe(255);

  await page.getByRole('button', { name: 'Български' }).click();
  await expect.poll(manifestLink).toBe('/manifest.bg.webmanifest');
  expect(await (await request.get('/manifest.bg.webmanifest')).json()).toMatchObject({ ...manifest, lang: 'bg', description: expect.stringContaining('Ръчно изработени') });
});

test.describe('before the worker is installed', () => {
  test.use({ serviceWorkers: 'block', locale: 'bg-BG' });

  test('a page cut off says so, in Bulgarian, and loads once the connection is back', async ({ page, context, inbox, allowConsoleErrors }) => {
    allowConsoleErrors(/ERR_INTERNET_DISCONNECTED|ERR_FAILED|Failed to fetch/);
    await signInThroughApi(context, inbox, uniqueEmail('offline-no-worker'));
    await page.goto('/cart');
    await expect(page.getByText('Количката ви е празна.')).toBeVisible();
    await context.setOffline(true);
    await page.getByRole('banner').getByRole('link', { name: 'Начало', exact: true }).click();
    const offline = page.getByRole('status').filter({ hasText: 'Няма връзка с интернет, затова това не може да се зареди сега.' });
    await expect(offline).toBeVisible();
    await expect(page.getByText('Зареждане на продуктите...')).toHaveCount(0);
    // A page whose code was never downloaded cannot open, and says so.
    await page.getByRole('banner').getByRole('link', { name: 'Профил' }).click();
    await expect(page.getByRole('alert')).toContainText('Тази част от магазина не можа да се зареди.');

    await page.getByRole('banner').getByRole('link', { name: 'Начало', exact: true }).click();
    await expect(offline).toBeVisible();
    await context.setOffline(false);
    await expect(card(page, 0).getByRole('button', { name: /^Добавете в количката: .+$/ })).toBeVisible();
  });
});

/** Where Chromium says a response came from: the worker's static route that matched, and what served it. */
interface RoutedResponse {
  url: string;
  serviceWorkerRouterInfo?: { matchedSourceType?: string; actualSourceType?: string };
}

test('the API goes to the network past the worker, all but the catalogue the worker keeps for offline use', async ({ page, context, allowConsoleErrors }) => {
  // Two of the addresses asked for below do not exist: their 404s are what the page logs.
  allowConsoleErrors(/404 \(Not Found\).*\/no-such-/);
  await page.goto('/');
  await waitForOfflineReady(page);
  const browser = await context.newCDPSession(page);
  await browser.send('Network.enable');
  const servedBy = new Map<string, string | undefined>();
  browser.on('Network.responseReceived', ({ response }) => {
    const { url, serviceWorkerRouterInfo } = response as RoutedResponse;
    servedBy.set(new URL(url).pathname, serviceWorkerRouterInfo?.actualSourceType);
  });
  const addresses = ['/api/auth/me', '/api/health', '/api/events/no-such-stream', '/api/products', '/api/products/by-slug/no-such-product'];
  await page.evaluate((urls) => Promise.all(urls.map((url) => fetch(url))), addresses);
  await expect.poll(() => servedBy.size).toBe(addresses.length);
  expect(Object.fromEntries(servedBy)).toEqual({
    '/api/auth/me': 'network',
    '/api/health': 'network',
    '/api/events/no-such-stream': 'network',
    '/api/products': 'fetch-event',
    '/api/products/by-slug/no-such-product': 'fetch-event',
  });
});

test('a new deployment installs beside the old one, says so, and takes over when the visitor reloads', async ({ page, context, allowConsoleErrors }) => {
  // The live stream of an open page tries again while the server restarts, and the browser reports the
  // refusal, or the reset of a connection the closing server had accepted; a check of who is signed in
  // that one of the tabs sends meanwhile may meet the closing or the restarting server too.
  allowConsoleErrors(/ERR_CONNECTION_(REFUSED|RESET) .*\/api\/events/);
  allowConsoleErrors(/ERR_CONNECTION_(REFUSED|RESET) .*\/api\/auth\/me/);
  // A copy of the build, changed as the next build would change it: a different page, hence a different worker.
  const clientDir = await mkdtemp(path.join(tmpdir(), 'shop-build-'));
  const dataDir = await mkdtemp(path.join(tmpdir(), 'shop-e2e-'));
  await cp('dist/client', clientDir, { recursive: true });
  // Without the demo catalogue, whose images take long to make; this test needs the pages only.
  const environment = { E2E_CLIENT_DIR: clientDir, DATA_DIR: dataDir, SEED_DEMO: 'false' };
  let server: ShopServer | undefined = await startShopServer(environment);
  const { baseURL } = server;
  try {
    await page.goto(baseURL);
    await waitForOfflineReady(page);
    const otherTab = await context.newPage();
    await otherTab.goto(`${baseURL}/cart`);
    await expect(otherTab.getByText('Please sign in to view your cart.')).toBeVisible();

    const indexFile = path.join(clientDir, 'index.html');
    await writeFile(indexFile, (await readFile(indexFile, 'utf8')).replace('<div id="root"></div>', '<p>Deployment 2</p><div id="root"></div>'));
    await server.stop();
    server = undefined;
    server = await startShopServer({ ...environment, PORT: new URL(baseURL).port });

    // What the browser does at navigations and the app every hour: ask for the worker again.
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())!.update());
    const updateBar = page.getByRole('status').filter({ hasText: 'A new version of the shop is ready. Reload the page to use it.' });
    await expect(updateBar).toBeVisible();
    // Until the visitor agrees, the old worker serves the old version whole, to new tabs as well.
    const newTab = await context.newPage();
    await newTab.goto(`${baseURL}/profile`);
    await expect(newTab.getByText('Please sign in to view your profile.')).toBeVisible();
    await expect(newTab.getByText('Deployment 2')).toHaveCount(0);
    await newTab.close();
    await expect(page.getByText('Deployment 2')).toHaveCount(0);

    // What the bar says from the click to the reload, kept across the reload.
    await page.evaluate(() =>
      new MutationObserver(() => {
        const said = document.querySelector('.update-bar')?.textContent;
        if (said) sessionStorage.setItem('update-bar-said', `${sessionStorage.getItem('update-bar-said') ?? ''}|${said}`);
      }).observe(document.body, { subtree: true, childList: true, characterData: true }),
    );
    await updateBar.getByRole('button', { name: 'Reload' }).click();
    // The waiting worker takes over, then the page reloads; meanwhile the bar says that it is on its way.
    await expect(page.getByText('Deployment 2')).toBeVisible();
    expect(await page.evaluate(() => sessionStorage.getItem('update-bar-said'))).toContain('Loading the new version of the shop…');
    await expect(page.getByText('No products available yet. Please check back soon.')).toBeVisible();
    await expect(updateBar).toBeHidden();
    expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())!.waiting)).toBeNull();
    // The tab still on the old version is told that it must reload, and its reload brings the new one.
    const required = otherTab.getByRole('status').filter({ hasText: 'The shop was updated in another tab. Please reload this page to continue.' });
    await expect(required).toBeVisible();
    await required.getByRole('button', { name: 'Reload' }).click();
    await expect(otherTab.getByText('Deployment 2')).toBeVisible();
  } finally {
    await server?.stop();
    await rm(clientDir, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  }
});
