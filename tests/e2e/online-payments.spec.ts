import type { Page } from '@playwright/test';
import type { Product } from '#shared/catalog.js';
import { formatIban } from '#shared/withdrawals.js';
import { freePort } from '../support/free-port.js';
import { startSmtpInbox, type SmtpInbox } from '../support/smtp-inbox.js';
import { startStripeTestServer, TEST_STRIPE_KEY, TEST_STRIPE_WEBHOOK_SECRET, type StripeTestServer } from '../support/stripe-test-server.js';
import { acceptTerms } from './checkout-steps.js';
import { expect, test } from './fixtures.js';
import { placeOrderThroughApi } from './shop-api.js';
import { signedInPage, uniqueEmail } from './shop-fixtures.js';
import { startShopServer, type ShopServer } from './shop-server.js';

// A euro shop taking cards through Stripe (a local server that answers as Stripe does) and bank
// transfers: the buyer pays on the provider's page and comes back to what the shop knows; a transfer
// is shown with the account and recorded by the admin.

const OWNER = 'owner@online-payments.example';
const BANK = { BANK_IBAN: 'BG80BNBG96611020345678', BANK_BIC: 'BNBGBGSF', BANK_ACCOUNT_NAME: 'Nail Art Atelier Ltd.' };

let stripe: StripeTestServer;
let inbox: SmtpInbox;
let shop: ShopServer;

// One worker runs this file's tests in turn: its own shop then starts once per project, not once per worker.
test.describe.configure({ mode: 'default' });

test.beforeAll(async () => {
  stripe = await startStripeTestServer();
  inbox = await startSmtpInbox();
  const port = await freePort();
  shop = await startShopServer({
    PORT: String(port),
    // The address Stripe sends the buyer back to.
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    SMTP_URL: inbox.url,
    ADMIN_EMAILS: OWNER,
    TRUST_PROXY: 'true',
    SHOP_CURRENCY: 'EUR',
    PAYMENT_PROVIDER: 'stripe',
    STRIPE_SECRET_KEY: TEST_STRIPE_KEY,
    STRIPE_WEBHOOK_SECRET: TEST_STRIPE_WEBHOOK_SECRET,
    STRIPE_API_URL: stripe.url,
    PAYMENT_METHODS: 'card,bank_transfer',
    ...BANK,
  });
  stripe.webhookUrl = `${shop.baseURL}/api/payments/stripe/webhook`;
});

test.afterAll(async () => {
  await shop?.stop();
  await inbox?.close();
  await stripe?.close();
});

async function firstProduct(page: Page): Promise<Product> {
  const [product] = ((await (await page.request.get('/api/products')).json()) as { products: Product[] }).products;
  return product!;
}

test('a card payment on Stripe’s page brings the buyer back to her paid order, and a cancelled one leaves it payable', async ({ browser }) => {
  const page = await signedInPage(browser, shop, inbox, uniqueEmail('stripe'));
  const order = await placeOrderThroughApi(page.request, (await firstProduct(page)).id, 'card');

  await page.goto('/profile');
  const card = page.getByRole('listitem', { name: new RegExp(order.orderId) });
  await card.getByRole('button', { name: 'Pay Now' }).click();
  await expect(page).toHaveURL(new RegExp(`/checkout/payment/${order.orderId}$`));
  await expect(page.getByText('You pay on Stripe’s secure page and come back here.')).toBeVisible();

  // Gives up on Stripe's page: back to an order that still waits, with a word that it does.
  await page.getByRole('button', { name: 'Pay by card' }).click();
  await expect(page).toHaveURL(new RegExp(`^${stripe.url}/c/pay/cs_test_`));
  await page.getByRole('link', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(new RegExp(`/checkout/payment/${order.orderId}\\?returned=cancelled$`));
  await expect(page.getByRole('status').filter({ hasText: 'The payment was not completed. Your order is kept: you can try again.' })).toBeVisible();

  // Pays: Stripe's page asks for the order's own amount, tells the shop, and sends the buyer back.
  await page.getByRole('button', { name: 'Pay by card' }).click();
  await expect(page.getByText(`Pay ${(order.pricing.total / 100).toFixed(2)} EUR to the shop`)).toBeVisible();
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page).toHaveURL(new RegExp(`/checkout/payment/${order.orderId}\\?returned=back$`));
  await expect(page.getByRole('heading', { name: 'Payment Successful!' })).toBeVisible();
  const paid = (await (await page.request.get(`/api/orders/${order.orderId}`)).json()) as { order: { status: string; payment: { amountMinor: number } } };
  expect(paid.order).toMatchObject({ status: 'paid', payment: { amountMinor: order.pricing.total } });

  // The admin reads what Stripe said: both events of the payment, one recorded, the other a repeat.
  const admin = await signedInPage(browser, shop, inbox, OWNER);
  await admin.goto(`/admin?tab=orders&order=${order.orderId}`);
  const notices = admin.getByRole('region', { name: 'Payment service notices' });
  await expect(notices.getByRole('listitem')).toHaveCount(2);
  await expect(notices.getByRole('listitem').filter({ hasText: 'checkout.session.completed' })).toHaveCount(1);
  await expect(notices.getByRole('listitem').filter({ hasText: 'payment_intent.succeeded' })).toHaveCount(1);
  await expect(notices.getByText('(signed: recorded)')).toHaveCount(1);
  await expect(notices.getByText('(signed: repeat of an earlier notice)')).toHaveCount(1);
  await admin.context().close();
  await page.context().close();
});

test('the page of a payment Stripe has not confirmed yet waits for the shop’s word, and the browser cannot say it paid', async ({ browser }) => {
  const page = await signedInPage(browser, shop, inbox, uniqueEmail('stripe-wait'), 'bg');
  const order = await placeOrderThroughApi(page.request, (await firstProduct(page)).id, 'card');
  const refused = await page.request.post(`/api/orders/${order.orderId}/payment`, { data: { method: 'card', cardLast4: '4242' } });
  expect(refused.status()).toBe(403);

  await page.goto(`/checkout/payment/${order.orderId}?returned=back`);
  await expect(page.getByRole('status').filter({ hasText: 'Очакваме платежната услуга да потвърди плащането' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Плащането е успешно!' })).toHaveCount(0);
  await page.context().close();
});

for (const language of ['en', 'bg'] as const) {
  test(`in ${language}: a bank transfer order shows the account and reference, and the admin records the transfer`, async ({ browser }) => {
    const texts =
      language === 'en'
        ? { method: /Bank transfer/, place: 'Place Order', heading: 'Bank details', reference: (id: string) => `Order ${id}` }
        : { method: /Банков превод/, place: 'Потвърдете поръчката', heading: 'Банкова сметка', reference: (id: string) => `Поръчка ${id}` };
    const page = await signedInPage(browser, shop, inbox, uniqueEmail(`transfer-${language}`), language);
    const product = await firstProduct(page);
    const address = await page.request.post('/api/addresses', {
      data: { fullName: 'Petya Dimitrova', streetAddress: '7 Shipka St', city: 'Sofia', postalCode: '1504', country: 'BG', phone: '0888 123 456' },
    });
    expect(address.ok()).toBe(true);
    expect((await page.request.post('/api/cart/operations', { data: { operations: [{ id: `transfer${Date.now()}${language}`, type: 'add', productId: product.id }] } })).ok()).toBe(true);

    await page.goto('/checkout');
    await page.getByRole('radio', { name: texts.method }).check();
    await acceptTerms(page);
    await page.getByRole('button', { name: texts.place }).click();
    const placed = page.getByRole('dialog');
    const orderId = /(NA-[A-Z2-9]{8})/.exec((await placed.textContent())!)![1]!;
    await placed.getByRole('button').first().click();

    // The payment page shows where to send the money, and no payment button.
    await expect(page).toHaveURL(new RegExp(`/checkout/payment/${orderId}$`));
    const details = page.getByRole('region', { name: texts.heading });
    await expect(details).toContainText(formatIban(BANK.BANK_IBAN));
    await expect(details).toContainText(BANK.BANK_BIC);
    await expect(details).toContainText(BANK.BANK_ACCOUNT_NAME);
    await expect(details).toContainText(texts.reference(orderId));
    await expect(page.getByRole('button', { name: /Pay|Плат/ })).toHaveCount(0);

    const admin = await signedInPage(browser, shop, inbox, OWNER);
    await admin.goto(`/admin?tab=orders&order=${orderId}`);
    await admin.getByRole('button', { name: 'Record bank transfer' }).click();
    await admin.getByRole('dialog').getByRole('button', { name: 'Record bank transfer' }).click();
    await expect(admin.getByRole('status').filter({ hasText: `The transfer is recorded: order #${orderId} is paid.` })).toBeVisible();
    await expect(admin.getByText('Current status: Paid')).toBeVisible();
    // The buyer's open page follows.
    await expect(page.getByRole('heading', { name: language === 'en' ? 'Payment Successful!' : 'Плащането е успешно!' })).toBeVisible({ timeout: 15_000 });
    await admin.context().close();
    await page.context().close();
  });
}
