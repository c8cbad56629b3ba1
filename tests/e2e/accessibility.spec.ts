import type { Page } from '@playwright/test';
import type { Product } from '#shared/catalog.js';
import { LEGAL_PAGES } from '#shared/legal.js';
import { legalPath } from '#shared/routes.js';
import { Auditor, signInRequest } from './accessibility.js';
import { placeOrderThroughApi } from './shop-api.js';
import { addButtonOf, plainCard } from './fixtures.js';
import { clientAddressHeader, expect, test, uniqueEmail } from './shop-fixtures.js';
import { acceptTerms } from './checkout-steps.js';

// axe-core over every page and dialog of the shop, in both languages, at the desktop and phone widths
// of the two projects, signed out, as a customer and as an admin. Each test walks one role's pages in
// one language and signs in once; the results of every page are reported together at the end.

const LANGUAGES = {
  en: {
    locale: 'en-US',
    login: 'Log in',
    sendLink: 'Send sign-in link',
    close: 'Close',
    signIn: 'Sign in',
    browse: 'Browse products',
    saveAddress: 'Save address',
    placeOrder: 'Place Order',
    cardNumber: 'Card number',
    addressesTab: 'My Addresses',
    delete: 'Delete',
    addProduct: 'Add product',
    dashboardSales: 'Sales per day',
    saveProduct: 'Save product',
    cancel: 'Cancel',
    ordersTab: 'Order Management',
    details: 'Details',
  },
  bg: {
    locale: 'bg-BG',
    login: 'Вход',
    sendLink: 'Изпратете линк за вход',
    close: 'Затворете',
    signIn: 'Вход',
    browse: 'Разгледайте продуктите',
    saveAddress: 'Запазете адреса',
    placeOrder: 'Потвърдете поръчката',
    cardNumber: 'Номер на картата',
    addressesTab: 'Моите адреси',
    delete: 'Изтрийте',
    addProduct: 'Добавете продукт',
    dashboardSales: 'Продажби по дни',
    saveProduct: 'Запазете продукта',
    cancel: 'Отказ',
    ordersTab: 'Управление на поръчки',
    details: 'Подробности',
  },
} as const;

const firstCard = (page: Page) => plainCard(page, 0);

for (const [language, text] of Object.entries(LANGUAGES)) {
  test.describe(`accessibility in ${language}`, () => {
    test.use({ locale: text.locale });

    test('on a phone, the first screen of the home page shows the first product with its price and button', async ({ page }, testInfo) => {
      test.skip(testInfo.project.name !== 'phone', 'This measures the first screen of a phone, 375 by 740 pixels.');
      await page.goto('/');
      const card = firstCard(page);
      await expect(card.getByText(/^BGN/)).toBeInViewport({ ratio: 1 });
      await expect(addButtonOf(card)).toBeInViewport({ ratio: 1 });
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
    });

    test('signed out: home, dialogs, sign-in prompts, legal pages, not found and completing a sign-in', async ({ page, inbox, allowConsoleErrors }, testInfo) => {
      allowConsoleErrors(/status of 404/); // the not-found page comes with its status
      const audit = new Auditor(page, testInfo);
      await page.goto('/');
      await expect(firstCard(page).getByRole('img')).toBeVisible();
      await audit.check('home');

      await addButtonOf(firstCard(page)).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await audit.check('dialog: sign in to add to the cart');
      await page.keyboard.press('Escape');

      await page.getByRole('banner').getByRole('button', { name: text.login }).click();
      const dialog = page.getByRole('dialog');
      await expect(dialog.getByRole('textbox')).toBeFocused();
      await audit.check('login dialog');
      await dialog.getByRole('button', { name: text.sendLink }).click();
      await expect(dialog.getByRole('textbox')).toHaveAttribute('aria-invalid', 'true');
      await audit.check('login dialog: invalid e-mail');
      const email = uniqueEmail('axe-visitor');
      await dialog.getByRole('textbox').fill(email);
      await dialog.getByRole('button', { name: text.sendLink }).click();
      await expect(dialog.getByRole('status')).toContainText(email);
      await audit.check('login dialog: link sent');
      await dialog.getByRole('button', { name: text.close }).click();

      await page.goto('/cart');
      await expect(page.getByRole('main').getByRole('button', { name: text.login })).toBeVisible();
      await audit.check('cart: sign-in prompt');
      await page.goto('/profile');
      await expect(page.getByRole('main').getByRole('button', { name: text.login })).toBeVisible();
      await audit.check('profile: sign-in prompt');
      await page.goto('/mock-payment/NA-AAAAAAAA');
      await expect(page.getByRole('main').getByRole('button', { name: text.login })).toBeVisible();
      await audit.check('mock payment: sign-in prompt');
      for (const legal of LEGAL_PAGES) {
        await page.goto(legalPath(legal));
        await expect(page.getByRole('main').getByRole('article').getByRole('heading', { level: 1 })).toBeVisible();
        await audit.check(`legal page: ${legal}`);
      }
      await page.goto('/no-such-page');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await audit.check('not found');

      // The link opened where the e-mail is not known: the dialog asks for it, then welcomes.
      await page.evaluate(() => localStorage.clear());
      await page.goto(await inbox.waitForSignInLink(email));
      await expect(page.getByRole('dialog').getByRole('textbox')).toBeVisible();
      await audit.check('sign-in dialog: confirm the e-mail');
      await page.getByRole('dialog').getByRole('textbox').fill(email);
      await page.getByRole('dialog').getByRole('button', { name: text.signIn }).click();
      await expect(page.getByRole('dialog')).toContainText(email);
      await audit.check('dialog: signed in');
      await audit.report();
    });

    test('customer: cart, checkout, order, payment pages and profile', async ({ page, inbox }, testInfo) => {
      test.setTimeout(120_000);
      const audit = new Auditor(page, testInfo);
      // page.request shares the browser's cookies: this signs the page in.
      await signInRequest(page.request, inbox, uniqueEmail('axe-customer'));

      await page.goto('/cart');
      await expect(page.getByRole('link', { name: text.browse })).toBeVisible();
      await audit.check('cart: empty');

      await page.goto('/');
      await expect(firstCard(page).getByRole('img')).toBeVisible();
      await audit.check('home');
      for (const index of [0, 1]) {
        await addButtonOf(plainCard(page, index)).click();
        const added = page.getByRole('dialog');
        await expect(added).toBeVisible();
        if (index === 0) await audit.check('dialog: added to the cart');
        await added.getByRole('button').click();
        await expect(added).toBeHidden();
      }

      await page.goto('/cart');
      await expect(page.getByRole('main').getByRole('listitem')).toHaveCount(2);
      await audit.check('cart: two lines');

      await page.goto('/checkout');
      await expect(page.getByRole('button', { name: text.saveAddress })).toBeVisible();
      await audit.check('checkout: address form');
      await page.getByRole('button', { name: text.saveAddress }).click();
      await expect(page.getByRole('main').getByRole('alert').first()).toBeVisible();
      await audit.check('checkout: address form with an error');
      const address = { fullName: 'Petya Dimitrova', streetAddress: '7 Shipka St', city: 'Sofia', state: 'Sofia City', postalCode: '1504', country: 'BG', phone: '0888 123 456' };
      expect((await page.request.post('/api/addresses', { data: address })).status()).toBe(201);
      expect((await page.request.post('/api/addresses', { data: { ...address, fullName: 'Maria Ivanova', city: 'Plovdiv' } })).status()).toBe(201);
      await page.reload();
      await expect(page.getByRole('radio', { name: /Maria Ivanova/ })).toBeVisible();
      await expect(page.getByRole('radio', { name: /Maria Ivanova|Petya Dimitrova/, checked: true })).toHaveCount(1);
      await audit.check('checkout: saved addresses');

      await acceptTerms(page);
      await page.getByRole('button', { name: text.placeOrder }).click();
      const placed = page.getByRole('dialog');
      await expect(placed).toContainText(/NA-[A-Z2-9]{8}/);
      await audit.check('dialog: order placed');
      const orderId = /(NA-[A-Z2-9]{8})/.exec((await placed.textContent())!)![1]!;
      await placed.getByRole('button').click();
      await expect(page.getByRole('main').getByRole('heading', { level: 2, name: new RegExp(orderId) })).toBeVisible();
      await audit.check('profile: orders');

      await page.goto(`/checkout/payment/${orderId}`);
      await expect(page.getByRole('heading', { level: 1, name: new RegExp(orderId) })).toBeVisible();
      await audit.check('payment page');
      await page.goto(`/mock-payment/${orderId}?method=card`);
      await expect(page.getByLabel(text.cardNumber)).toBeVisible();
      await audit.check('mock payment: card form');
      await page.getByRole('button', { name: /BGN/ }).click();
      await expect(page.getByRole('alert')).toBeVisible();
      await audit.check('mock payment: card form with an error');

      await page.goto('/profile?tab=addresses');
      await expect(page.getByRole('tab', { name: text.addressesTab })).toHaveAttribute('aria-selected', 'true');
      await expect(page.getByRole('button', { name: text.delete, exact: true })).toHaveCount(2);
      await audit.check('profile: addresses');
      await page.getByRole('button', { name: text.delete, exact: true }).last().click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await audit.check('dialog: delete an address');
      await page.keyboard.press('Escape');
      await audit.report();
    });

    test('admin: products, product form, orders and an order', async ({ page, inbox, adminApi, playwright, baseURL }, testInfo) => {
      const audit = new Auditor(page, testInfo);
      const customer = await playwright.request.newContext({ baseURL, extraHTTPHeaders: clientAddressHeader() });
      await signInRequest(customer, inbox, uniqueEmail('axe-buyer'));
      const { products } = (await (await customer.get('/api/products')).json()) as { products: Product[] };
      await placeOrderThroughApi(customer, products[0]!.id, 'card');
      await customer.dispose();
      // The worker's admin session, shared with this page, rather than one more sign-in link.
      await page.context().addCookies((await adminApi.storageState()).cookies);

      await page.goto('/admin');
      await expect(page.getByRole('heading', { name: text.dashboardSales })).toBeVisible();
      await audit.check('admin: dashboard');
      await page.goto('/admin?tab=products');
      await expect(page.getByRole('table')).toBeVisible();
      await audit.check('admin: products');
      await page.getByRole('button', { name: text.delete, exact: false }).first().click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await audit.check('dialog: delete a product');
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: text.addProduct }).click();
      await page.getByRole('button', { name: text.saveProduct }).click();
      await expect(page.getByRole('alert')).toBeVisible();
      await audit.check('admin: product form with an error');
      await page.getByRole('button', { name: text.cancel }).click();

      await page.getByRole('tab', { name: text.ordersTab }).click();
      await expect(page.getByRole('table')).toBeVisible();
      await audit.check('admin: orders');
      await page.getByRole('link', { name: new RegExp(`^${text.details}`) }).first().click();
      await expect(page.getByRole('heading', { level: 2, name: /NA-[A-Z2-9]{8}/ })).toBeVisible();
      await audit.check('admin: order');
      await audit.report();
    });
  });
}
