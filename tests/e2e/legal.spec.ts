import { test as base, expect, hasHorizontalScroll } from './fixtures.js';
import { startShopServer, type ShopServer } from './shop-server.js';

// The terms, privacy, returns and seller pages, opened from the footer in both languages, on a shop
// of its own whose seller's details are set, at the phone and desktop widths of the two projects.
// accessibility.spec.ts audits the same pages with axe.

const SELLER = {
  SHOP_LEGAL_NAME: 'Ателие Нокти ЕООД',
  SHOP_UIC: '204567893',
  SHOP_VAT_NUMBER: 'BG204567893',
  SHOP_ADDRESS: 'ул. „Шипка“ 7, 1504 София',
  SHOP_PHONE: '+359 88 812 3456',
  SUPPORT_EMAIL: 'hello@atelier.example',
};

let shop: ShopServer | undefined;
const test = base.extend({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object
  baseURL: async ({}, use) => {
    // Started for the file's first test (whose page opens before any beforeAll hook runs). Without the
    // demo catalogue, whose images take long to make; these tests need the pages only.
    shop ??= await startShopServer({ ...SELLER, SEED_DEMO: 'false' });
    await use(shop.baseURL);
  },
});
test.afterAll(async () => {
  await shop?.stop();
  shop = undefined;
});

// One worker runs this file's tests in turn: its own shop then starts once per project, not once per worker.
test.describe.configure({ mode: 'default' });

const LANGUAGES = {
  en: {
    locale: 'en-US',
    footer: 'Legal information',
    pages: [
      { link: 'Terms and conditions', path: '/legal/terms', heading: 'Terms and conditions', title: 'Terms and conditions | Nail Art Atelier' },
      { link: 'Privacy', path: '/legal/privacy', heading: 'Privacy policy', title: 'Privacy policy | Nail Art Atelier' },
      { link: 'Returns', path: '/legal/returns', heading: 'Returns and withdrawal', title: 'Returns and withdrawal | Nail Art Atelier' },
      { link: 'About the seller', path: '/legal/seller', heading: 'About the seller', title: 'About the seller | Nail Art Atelier' },
      { link: 'Withdraw from contract here', path: '/withdrawal', heading: 'Withdraw from contract', title: 'Withdraw from contract | Nail Art Atelier' },
    ],
    withdrawalForm: 'Model withdrawal form',
    formAddressee: `To ${SELLER.SHOP_LEGAL_NAME}, ${SELLER.SHOP_ADDRESS}, e-mail: ${SELLER.SUPPORT_EMAIL}:`,
    sellerLines: [
      `Company name: ${SELLER.SHOP_LEGAL_NAME}`,
      `Unified identification code (UIC): ${SELLER.SHOP_UIC}`,
      `VAT number: ${SELLER.SHOP_VAT_NUMBER}`,
      `Registered office and address: ${SELLER.SHOP_ADDRESS}`,
      `Phone: ${SELLER.SHOP_PHONE}`,
    ],
    email: 'E-mail:',
    returnsLink: 'Returns and withdrawal',
    notFound: 'Page not found',
  },
  bg: {
    locale: 'bg-BG',
    footer: 'Правна информация',
    pages: [
      { link: 'Общи условия', path: '/legal/terms', heading: 'Общи условия', title: 'Общи условия | Nail Art Atelier' },
      { link: 'Поверителност', path: '/legal/privacy', heading: 'Политика за поверителност', title: 'Поверителност | Nail Art Atelier' },
      { link: 'Връщане', path: '/legal/returns', heading: 'Връщане и отказ от поръчка', title: 'Връщане и отказ от поръчка | Nail Art Atelier' },
      { link: 'За търговеца', path: '/legal/seller', heading: 'За търговеца', title: 'За търговеца | Nail Art Atelier' },
      { link: 'Отказ от договора тук', path: '/withdrawal', heading: 'Отказ от договора', title: 'Отказ от договора | Nail Art Atelier' },
    ],
    withdrawalForm: 'Стандартен формуляр за отказ',
    formAddressee: `До ${SELLER.SHOP_LEGAL_NAME}, ${SELLER.SHOP_ADDRESS}, имейл: ${SELLER.SUPPORT_EMAIL}:`,
    sellerLines: [
      `Наименование: ${SELLER.SHOP_LEGAL_NAME}`,
      `ЕИК: ${SELLER.SHOP_UIC}`,
      `ИН по ДДС: ${SELLER.SHOP_VAT_NUMBER}`,
      `Седалище и адрес на управление: ${SELLER.SHOP_ADDRESS}`,
      `Телефон: ${SELLER.SHOP_PHONE}`,
    ],
    email: 'Имейл:',
    returnsLink: 'Връщане и отказ от поръчка',
    notFound: 'Страницата не е намерена',
  },
} as const;

for (const [language, text] of Object.entries(LANGUAGES)) {
  test.describe(`legal pages in ${language}`, () => {
    test.use({ locale: text.locale });

    test('the footer opens each page, which fits the screen', async ({ page }) => {
      await page.goto('/');
      const footerLinks = page.getByRole('contentinfo').getByRole('navigation', { name: text.footer }).getByRole('link');
      await expect(footerLinks).toHaveText(text.pages.map((legal) => legal.link));
      expect(await hasHorizontalScroll(page)).toBe(false);

      for (const legal of text.pages) {
        await page.getByRole('contentinfo').getByRole('link', { name: legal.link, exact: true }).click();
        await expect(page).toHaveURL(legal.path);
        await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toHaveText(legal.heading);
        await expect(page).toHaveTitle(legal.title);
        await expect(page.locator('html')).toHaveAttribute('lang', language);
        // A page opened from the bottom of another starts at its top.
        expect(await page.evaluate(() => window.scrollY)).toBe(0);
        expect(await hasHorizontalScroll(page), legal.path).toBe(false);
      }
    });

    test('the seller page shows the seller’s details from the settings', async ({ page }) => {
      await page.goto('/legal/seller');
      const article = page.getByRole('main').getByRole('article');
      for (const line of text.sellerLines) await expect(article.getByRole('listitem').filter({ hasText: line })).toHaveCount(1);
      await expect(article.getByRole('listitem').filter({ hasText: text.email }).getByRole('link', { name: SELLER.SUPPORT_EMAIL })).toHaveAttribute(
        'href',
        `mailto:${SELLER.SUPPORT_EMAIL}`,
      );
      await expect(article.getByRole('link', { name: 'kzp.bg' }).first()).toHaveAttribute('rel', 'noopener noreferrer');
    });

    test('the terms lead to the returns page, whose withdrawal form names the seller', async ({ page }) => {
      await page.goto('/legal/terms');
      const article = page.getByRole('main').getByRole('article');
      await article.getByRole('link', { name: text.returnsLink }).click();
      await expect(page).toHaveURL('/legal/returns');
      await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toHaveText(text.pages[2]!.heading);
      await expect(page.getByRole('heading', { level: 2, name: text.withdrawalForm })).toBeVisible();
      await expect(page.getByRole('main').getByRole('listitem').filter({ hasText: text.formAddressee })).toHaveCount(1);
    });

    test('an unknown legal page is the not-found page', async ({ page, allowConsoleErrors }) => {
      allowConsoleErrors(/status of 404/); // the not-found page comes with its status
      const response = await page.goto('/legal/cookies');
      expect(response?.status()).toBe(404);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(text.notFound);
    });
  });
}

test('the page follows the language switch', async ({ page }) => {
  await page.goto('/legal/privacy');
  await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toHaveText('Privacy policy');
  await page.getByRole('button', { name: 'Български' }).click();
  await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toHaveText('Политика за поверителност');
  await expect(page.getByRole('main').getByRole('article')).toHaveAttribute('lang', 'bg');
  await expect(page).toHaveTitle('Поверителност | Nail Art Atelier');
});

test('shows the loading and error states', async ({ page, allowConsoleErrors }) => {
  allowConsoleErrors(/status of 500/);
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/legal/terms?*', async (route) => {
    await held;
    await route.fulfill({ status: 500, json: { error: { code: 'internal', message: 'down' } } });
  });
  await page.goto('/legal/terms');
  await expect(page.getByRole('status').filter({ hasText: 'Loading the page...' })).toBeVisible();
  release();
  await expect(page.getByRole('alert')).toContainText('This page could not be loaded. Please try again.', { timeout: 20_000 });
  await page.unroute('**/api/legal/terms?*');
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toHaveText('Terms and conditions');
});
