import type { Page } from '@playwright/test';
import type { Product } from '#shared/catalog.js';
import { adminOrderPath } from '#shared/routes.js';
import { startEcontTestServer, TEST_ECONT_PASSWORD, TEST_ECONT_USERNAME, type EcontTestServer } from '../support/econt-test-server.js';
import { startSmtpInbox, type SmtpInbox } from '../support/smtp-inbox.js';
import { startSpeedyTestServer, TEST_SPEEDY_PASSWORD, TEST_SPEEDY_USERNAME, type SpeedyTestServer } from '../support/speedy-test-server.js';
import { auditPage } from './accessibility.js';
import { acceptTerms } from './checkout-steps.js';
import { expect, test } from './fixtures.js';
import { signedInPage, uniqueEmail } from './shop-fixtures.js';
import { startShopServer, type ShopServer } from './shop-server.js';

// A euro shop sending with Econt and Speedy (local servers that answer as the couriers do): the buyer
// picks an Econt office in Plovdiv and pays on delivery, the admin creates the label, and the buyer's
// e-mail carries the tracking link.

const OWNER = 'owner@couriers.example';

let econt: EcontTestServer;
let speedy: SpeedyTestServer;
let inbox: SmtpInbox;
let shop: ShopServer;

// One worker runs this file's tests in turn: its own shop then starts once per project, not once per worker.
test.describe.configure({ mode: 'default' });

test.beforeAll(async () => {
  [econt, speedy, inbox] = await Promise.all([startEcontTestServer(), startSpeedyTestServer(), startSmtpInbox()]);
  shop = await startShopServer({
    SMTP_URL: inbox.url,
    ADMIN_EMAILS: OWNER,
    TRUST_PROXY: 'true',
    SHOP_CURRENCY: 'EUR',
    STATUS_MAIL_DELAY_SECONDS: '0',
    PAYMENT_METHODS: 'cash_on_delivery,card',
    COURIERS: 'econt,speedy',
    DELIVERY_FEES: 'econt_office=3.20,econt_locker=2.90,speedy_office=3.50,speedy_locker=2.90,speedy_address=courier',
    ECONT_URL: econt.url,
    ECONT_USERNAME: TEST_ECONT_USERNAME,
    ECONT_PASSWORD: TEST_ECONT_PASSWORD,
    ECONT_SENDER_OFFICE: '1127',
    SPEEDY_URL: speedy.url,
    SPEEDY_USERNAME: TEST_SPEEDY_USERNAME,
    SPEEDY_PASSWORD: TEST_SPEEDY_PASSWORD,
  });
});

test.afterAll(async () => {
  await shop?.stop();
  await Promise.all([inbox?.close(), econt?.close(), speedy?.close()]);
});

/** The buyer's saved address and one piece of the first product in her cart, through the API. */
async function readyToCheckOut(page: Page): Promise<Product> {
  const [product] = ((await (await page.request.get('/api/products')).json()) as { products: Product[] }).products;
  const address = await page.request.post('/api/addresses', {
    data: { fullName: 'Мария Петрова', streetAddress: 'ул. Шипка 5', city: 'Пловдив', postalCode: '4000', country: 'BG', phone: '0888 111 222' },
  });
  expect(address.ok()).toBe(true);
  const added = await page.request.post('/api/cart/operations', { data: { operations: [{ id: `add${Date.now()}${Math.random().toString(36).slice(2)}`.padEnd(20, '0'), type: 'add', productId: product!.id }] } });
  expect(added.ok()).toBe(true);
  return product!;
}

test('a buyer picks an Econt office in Plovdiv and pays on delivery; the admin’s label sends her the tracking link', async ({ browser }) => {
  const email = uniqueEmail('plovdiv');
  const page = await signedInPage(browser, shop, inbox, email, 'bg');
  await readyToCheckOut(page);
  await page.goto('/checkout');

  const delivery = page.getByRole('group', { name: 'Доставка' });
  await delivery.getByRole('radio', { name: /Офис на Еконт/ }).check();
  await expect(delivery.getByText('3,20 €', { exact: true })).toBeVisible();
  await page.getByRole('radio', { name: /Наложен платеж/ }).check();

  // Typed in Latin letters, found in Cyrillic; the mobile station, which takes no cash, is not offered.
  const search = page.getByRole('searchbox', { name: 'Град или офис' });
  await search.fill('plovdiv');
  await expect(page.getByRole('status').filter({ hasText: 'Намерени са 3 места.' })).toBeVisible();
  const found = page.getByRole('group', { name: 'Намерени офиси' });
  await expect(found.getByRole('radio')).toHaveCount(3);
  await expect(found.getByText('Пловдив Смирненски мобилна станция')).toHaveCount(0);
  expect((await auditPage(page, 'office picker')).problems).toEqual([]);

  // Chosen by keyboard: the arrows move through the offices and choose.
  await found.getByRole('radio').first().focus();
  await page.keyboard.press('Space');
  await page.keyboard.press('ArrowDown');
  const chosen = await found.getByRole('radio').nth(1).getAttribute('value');
  await expect(page.getByText('Пратката ще пристигне в:')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('office-picker.png'), fullPage: true });

  await acceptTerms(page);
  await page.getByRole('button', { name: 'Потвърдете поръчката' }).click();
  await expect(page).toHaveURL(/\/profile/);
  const orders = (await (await page.request.get('/api/orders')).json()) as { orders: Array<{ orderId: string; delivery: { office: { id: string; name: { bg: string } } } }> };
  const order = orders.orders[0]!;
  expect(order.delivery.office.id).toBe(chosen);

  // The admin creates the label: the order is Sent, the label is there to print.
  const admin = await signedInPage(browser, shop, inbox, OWNER, 'bg');
  await admin.goto(adminOrderPath(order.orderId));
  await admin.getByRole('button', { name: 'Създайте пратката с Еконт' }).click();
  await expect(admin.getByText(/Номер на пратката: \d+/).first()).toBeVisible();
  await expect(admin.getByRole('link', { name: 'Отпечатайте товарителницата (PDF)' })).toBeVisible();
  const number = [...econt.labels.keys()].at(-1)!;
  expect(econt.labels.get(number)!.label).toMatchObject({ receiverOfficeCode: chosen, services: { cdType: 'get', cdCurrency: 'EUR' } });

  const mail = await inbox.waitForMail(email, 15_000, (received) => received.subject.includes('на път'));
  expect(mail.html).toContain(`https://www.econt.com/services/track-shipment/${number}`);
  expect(mail.text).toContain(order.delivery.office.name.bg);
});

test('a method its courier prices shows the courier’s price for the parcel before the order, and charges it', async ({ browser }) => {
  const page = await signedInPage(browser, shop, inbox, uniqueEmail('quoted'), 'en');
  const product = await readyToCheckOut(page);
  await page.goto('/checkout');

  const delivery = page.getByRole('group', { name: 'Delivery' });
  await expect(delivery.getByText('price from Speedy')).toBeVisible();
  await delivery.getByRole('radio', { name: /Speedy to your address/ }).check();
  await expect(page.getByRole('status').filter({ hasText: 'Speedy’s price for your parcel: €6.90' })).toBeVisible();
  const summary = page.locator('.pricing');
  await expect(summary.getByText('Shipping (Speedy to your address)')).toBeVisible();
  await expect(summary.getByText('€6.90')).toBeVisible();
  const total = ((await (await page.request.get('/api/cart')).json()) as { items: Array<{ priceMinor: number; quantity: number }> }).items.reduce((sum, item) => sum + item.priceMinor * item.quantity, 0);
  expect(total).toBe(product.priceMinor);

  await page.getByRole('radio', { name: /Cash on delivery/ }).check();
  await acceptTerms(page);
  await page.getByRole('button', { name: 'Place Order' }).click();
  await expect(page).toHaveURL(/\/profile/);
  const orders = (await (await page.request.get('/api/orders')).json()) as { orders: Array<{ pricing: { shipping: number }; delivery: { method: string } }> };
  expect(orders.orders[0]).toMatchObject({ pricing: { shipping: 690 }, delivery: { method: 'speedy_address' } });
});
