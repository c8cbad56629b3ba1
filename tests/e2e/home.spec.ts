import { expect, hasHorizontalScroll, test } from './fixtures.js';

/** Runs the idle callbacks that the test held back (see the test of the validation library). */
interface IdleControl {
  runIdleCallbacks(): void;
}

test.describe('home page in English', () => {
  test('shows the hero, the demo catalogue with prices and images, the banner and the footer', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome to Nail Art Atelier' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Featured Art Products' })).toBeVisible();
    await expect(page.getByText('Demo shop: all orders and payments are simulations.')).toBeVisible();

    const cards = page.getByRole('article');
    await expect(cards.first()).toBeVisible();
    expect(await cards.count()).toBeGreaterThanOrEqual(12);
    const firstCard = cards.first();
    await expect(firstCard.getByText(/^BGN \d+\.\d{2}$/)).toBeVisible();
    await expect(firstCard.getByRole('button', { name: /^Add to Cart: .+$/ })).toHaveText('Add to Cart');

    const image = firstCard.getByRole('img');
    await expect(image).toHaveAttribute('width', '640');
    await expect(image).toHaveAttribute('height', '640');
    await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth)).toBeGreaterThan(0);
    expect(await image.evaluate((element: HTMLImageElement) => element.currentSrc)).toMatch(/\/images\/nails\/.+\.webp\?w=\d+$/);

    const names = await page.getByRole('article').getByRole('heading', { level: 3 }).allTextContents();
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));

    const footer = page.getByRole('contentinfo');
    await expect(footer).toContainText(`© ${new Date().getFullYear()} Nail Art Atelier`);
    await expect(footer.getByRole('link', { name: 'support@nail-art.example' })).toHaveAttribute('href', 'mailto:support@nail-art.example');
    expect(await hasHorizontalScroll(page)).toBe(false);
  });

  test('a signed-out visitor who adds to cart is asked to sign in, in a modal that closes three ways', async ({ page }) => {
    await page.goto('/');
    const addButtons = page.getByRole('button', { name: /^Add to Cart: .+$/ });
    const dialog = page.getByRole('dialog', { name: 'Information' });

    await addButtons.first().click();
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('Please sign in to add items to your cart.');
    expect(await page.evaluate(() => document.body.style.overflow)).toBe('hidden');
    await dialog.getByRole('button', { name: 'OK', exact: true }).click();
    await expect(dialog).toBeHidden();
    expect(await page.evaluate(() => document.body.style.overflow)).toBe('');

    await addButtons.nth(1).click();
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();

    await addButtons.nth(2).click();
    await expect(dialog).toBeVisible();
    await page.mouse.click(5, 5); // on the backdrop, outside the box
    await expect(dialog).toBeHidden();
  });

  test('sets the page metadata, structured data and sitemap link', async ({ page, baseURL }) => {
    await page.goto('/');
    await expect(page).toHaveTitle('Nail Art Atelier | Handmade Press-On Nails and Nail Art');
    await expect(page.getByRole('article').first()).toBeVisible();
    const head = page.locator('head');
    await expect(head.locator('meta[name="description"]')).toHaveAttribute('content', /Handmade press-on nails/);
    await expect(head.locator('meta[name="keywords"]')).toHaveAttribute('content', /nail art/);
    await expect(head.locator('link[rel="canonical"]')).toHaveAttribute('href', `${baseURL}/`);
    await expect(head.locator('meta[property="og:title"]')).toHaveAttribute('content', /Nail Art Atelier/);
    await expect(head.locator('meta[property="og:image"]')).toHaveAttribute('content', new RegExp(`^${baseURL}/images/nails/`));
    await expect(head.locator('meta[name="twitter:card"]')).toHaveAttribute('content', 'summary_large_image');
    await expect(head.locator('meta[name="theme-color"]')).toHaveCount(1);
    await expect(head.locator('link[rel="sitemap"]')).toHaveAttribute('href', '/sitemap.xml');
    const blocks = await head
      .locator('script[type="application/ld+json"]')
      .evaluateAll((scripts) => scripts.map((script) => JSON.parse(script.textContent ?? '{}') as { '@type': string }));
    expect(blocks.map((block) => block['@type'])).toEqual(['WebSite', 'WebPage', 'ItemList']);

    const sitemap = await page.request.get('/sitemap.xml');
    expect(await sitemap.text()).toContain(`<loc>${baseURL}/</loc>`);
  });

  test('shows the loading, error and empty states of the product list', async ({ page, allowConsoleErrors }) => {
    allowConsoleErrors(/status of 500/);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/api\/products(\?|$)/, async (route) => {
      await held;
      await route.fulfill({ status: 500, json: { error: { code: 'internal', message: 'down' } } });
    });
    await page.goto('/');
    await expect(page.getByRole('status').filter({ hasText: 'Loading products...' })).toBeVisible();
    release();
    await expect(page.getByRole('alert')).toContainText('Failed to load products. Please try again later.', { timeout: 20_000 });

    await page.unroute(/\/api\/products(\?|$)/);
    await page.route(/\/api\/products(\?|$)/, (route) => route.fulfill({ json: { products: [], total: 0, page: 1, pageSize: 48, version: 0 } }));
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect(page.getByText('No products available yet. Please check back soon.')).toBeVisible();
  });

  test('loads the validation library only once the page is idle, and the login dialog then opens at once', async ({ page }) => {
    // The browser's idle callbacks wait until the test releases them, so that "before idle" is a fixed moment.
    await page.addInitScript(() => {
      const held: IdleRequestCallback[] = [];
      window.requestIdleCallback = (callback) => held.push(callback);
      (window as unknown as IdleControl).runIdleCallbacks = () => {
        for (const callback of held.splice(0)) callback({ didTimeout: false, timeRemaining: () => 50 });
      };
    });
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    const validationChunk = (path: string) => /^\/assets\/validation-[\w-]+\.js$/.test(path);

    await page.goto('/', { waitUntil: 'load' });
    const firstImage = page.getByRole('article').first().getByRole('img');
    await expect.poll(() => firstImage.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    // The first page is whole (texts, products, images) and its own scripts have arrived, the validation library has not.
    expect(scripts.some((path) => /^\/assets\/index-/.test(path))).toBe(true);
    expect(scripts.filter(validationChunk)).toEqual([]);

    // Once the network has been quiet for a moment, the page asks for an idle callback: given it, the dialog's code loads.
    await expect
      .poll(async () => {
        await page.evaluate(() => (window as unknown as IdleControl).runIdleCallbacks());
        return scripts.filter(validationChunk).length;
      })
      .toBe(1);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('dialog', { name: 'Sign in' })).toBeVisible();
  });

  test('shows the connection bar while offline and hides it when back online', async ({ page, context, allowConsoleErrors }) => {
    allowConsoleErrors(/ERR_INTERNET_DISCONNECTED/); // the reconnect attempt, and code preloaded while idle, cannot arrive offline
    await page.goto('/');
    await expect(page.getByRole('article').first()).toBeVisible();
    await context.setOffline(true);
    const bar = page.getByRole('status').filter({ hasText: 'You are offline. Some features may be limited.' });
    await expect(bar).toBeVisible();
    await bar.getByRole('button', { name: 'Try to reconnect' }).click();
    await expect(bar).toBeVisible();
    await context.setOffline(false);
    await expect(bar).toBeHidden();
  });
});

test.describe('home page in Bulgarian', () => {
  test.use({ locale: 'bg-BG' });

  test('a Bulgarian browser gets Bulgarian, and the language switch persists across reloads', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: 'Добре дошли в Nail Art Atelier' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Избрани продукти' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'bg');
    await expect(page.getByRole('article').first().getByText(/^BGN \d+,\d{2}$/)).toBeVisible();
    await expect(page.getByRole('contentinfo')).toContainText('Всички права запазени.');
    expect(await hasHorizontalScroll(page)).toBe(false);

    await page.getByRole('article').first().getByRole('button', { name: /^Добавете в количката: .+$/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Информация' });
    await expect(dialog).toContainText('Моля, влезте в профила си, за да добавяте продукти в количката.');
    await dialog.getByRole('button', { name: 'Добре' }).click();

    await page.getByRole('button', { name: 'English' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome to Nail Art Atelier' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'English' })).toHaveAttribute('aria-pressed', 'true');
    // The address drops its ?lang=bg just after the page is shown in English (language-address.ts); an
    // address that names a language wins at a load, so the reload waits for it.
    await expect(page).not.toHaveURL(/[?&]lang=/);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome to Nail Art Atelier' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('en');

    await page.getByRole('button', { name: 'Български' }).click();
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Добре дошли в Nail Art Atelier' })).toBeVisible();
    await expect(page).toHaveTitle('Nail Art Atelier | Ръчно изработени нокти и нейл арт');
  });

  test('shows the offline bar in Bulgarian', async ({ page, context, allowConsoleErrors }) => {
    allowConsoleErrors(/ERR_INTERNET_DISCONNECTED/); // code the page preloads while idle cannot arrive offline
    await page.goto('/');
    await expect(page.getByRole('article').first()).toBeVisible();
    await context.setOffline(true);
    await expect(page.getByText('Няма връзка с интернет. Някои функции може да са ограничени.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Опитайте да се свържете отново' })).toBeVisible();
    await context.setOffline(false);
  });
});
