import type { APIRequestContext } from '@playwright/test';
import type { CartResponse } from '#shared/cart.js';
import { formatMoney } from '#shared/money.js';
import { priceLines } from '#shared/pricing.js';
import { adminOrderPath } from '#shared/routes.js';
import type { Order } from '#shared/orders.js';
import { Auditor } from './accessibility.js';
import { setOrderStatus } from './shop-api.js';
import { API_ADMIN_EMAIL, clientAddressHeader, expect, signedInApi, test, uniqueEmail } from './shop-fixtures.js';
import { signIn } from './sign-in-steps.js';

// The EU withdrawal button: a shopper withdraws from a delivered order without signing in and gets the
// acknowledgement; the admin records the goods received and refunds; her profile shows Refunded.

const key = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`.padEnd(20, '0');

/** A card order of one product, placed in the language and paid, as the signed-in customer. */
async function paidOrder(customer: APIRequestContext, productId: string, language: 'en' | 'bg'): Promise<Order> {
  const address = await customer.post('/api/addresses', {
    data: { fullName: 'Petya Dimitrova', streetAddress: '7 Shipka St', city: 'Sofia', postalCode: '1504', country: 'BG', phone: '0888 123 456' },
  });
  expect(address.ok(), await address.text()).toBe(true);
  const added = await customer.post('/api/cart/operations', { data: { operations: [{ id: key(), type: 'add', productId }] } });
  const { items } = (await added.json()) as CartResponse;
  const placed = await customer.post('/api/orders', { data: { idempotencyKey: key(), paymentMethod: 'card', acceptTerms: true, expectedTotalMinor: priceLines(items).total, language } });
  expect(placed.status(), await placed.text()).toBe(201);
  const order = ((await placed.json()) as { order: Order }).order;
  const paid = await customer.post(`/api/orders/${order.orderId}/payment`, { data: { method: 'card', cardLast4: '4242' } });
  expect(paid.ok(), await paid.text()).toBe(true);
  return order;
}

const TEXTS = {
  en: {
    switchTo: null,
    link: 'Withdraw from contract here',
    orderNumber: 'Order number',
    orderEmail: 'E-mail address of the order',
    next: 'Continue',
    confirm: 'Confirm withdrawal',
    done: 'Your withdrawal is recorded',
    subject: (orderId: string) => `We have received your withdrawal from order #${orderId}`,
    statement: 'hereby give notice that I withdraw',
    returnsTab: 'Returns',
    receive: 'Goods received',
    refund: 'Refund',
    refunded: 'Refunded',
  },
  bg: {
    switchTo: 'Български',
    link: 'Отказ от договора тук',
    orderNumber: 'Номер на поръчката',
    orderEmail: 'Имейл адрес на поръчката',
    next: 'Продължете',
    confirm: 'Потвърждавам отказа',
    done: 'Отказът ви е регистриран',
    subject: (orderId: string) => `Получихме отказа ви от поръчка № ${orderId}`,
    statement: 'уведомявам, че се отказвам',
    returnsTab: 'Връщания',
    receive: 'Стоките са получени',
    refund: 'Възстановете сумата',
    refunded: 'Възстановена сума',
  },
} as const;

for (const language of ['en', 'bg'] as const) {
  const texts = TEXTS[language];
  test(`a shopper withdraws without signing in, the admin receives the goods and refunds, and the profile shows Refunded [${language}]`, async ({
    page,
    inbox,
    browser,
    baseURL,
    playwright,
    adminApi,
  }, testInfo) => {
    const email = uniqueEmail(`withdraws-${language}`);
    const customerApi = await signedInApi(playwright, baseURL!, inbox, email);
    const productId = (await (await customerApi.get('/api/products')).json()).products[0].id as string;
    const order = await paidOrder(customerApi, productId, language);
    await setOrderStatus(adminApi, order.orderId, 'delivered');

    // A visitor's browser: no session. English uses the footer's button, Bulgarian the e-mail's link.
    const visitorContext = await browser.newContext({ baseURL, extraHTTPHeaders: clientAddressHeader() });
    const visitor = await visitorContext.newPage();
    const audit = new Auditor(visitor, testInfo);
    await visitor.goto('/');
    if (texts.switchTo) {
      await visitor.getByRole('button', { name: texts.switchTo }).click();
      await visitor.goto(`/withdrawal?order=${order.orderId}`);
    } else {
      await visitor.getByRole('contentinfo').getByRole('link', { name: texts.link }).click();
      await expect(visitor).toHaveURL(/\/withdrawal$/);
      await visitor.getByLabel(texts.orderNumber).fill(order.orderId);
    }
    await expect(visitor.getByLabel(texts.orderNumber)).toHaveValue(order.orderId);
    await visitor.getByLabel(texts.orderEmail).fill(email);
    await audit.check(`withdrawal: find the order [${language}]`);
    await visitor.getByRole('button', { name: texts.next }).click();
    // Step one: what will be withdrawn, the name and where the acknowledgement goes.
    await expect(visitor.getByRole('checkbox')).toBeChecked();
    await audit.check(`withdrawal: details [${language}]`);
    await visitor.getByRole('button', { name: texts.next }).click();
    // Step two: only this records anything.
    await audit.check(`withdrawal: confirm [${language}]`);
    await visitor.getByRole('button', { name: texts.confirm }).click();
    await expect(visitor.getByRole('heading', { name: texts.done })).toBeVisible();
    await audit.check(`withdrawal: done [${language}]`);

    const acknowledgement = await inbox.waitForMail(email, 15_000, (mail) => mail.subject === texts.subject(order.orderId));
    expect(acknowledgement.body).toContain(texts.statement);
    expect(acknowledgement.body).toMatch(/\d{1,2}:\d{2}:\d{2}/);

    // The admin's Returns tab: goods received, then the default refund.
    await page.goto('/');
    await signIn(page, inbox, API_ADMIN_EMAIL);
    if (texts.switchTo) await page.getByRole('button', { name: texts.switchTo }).click();
    await page.goto('/admin?tab=returns');
    await expect(page.getByRole('tab', { name: texts.returnsTab })).toHaveAttribute('aria-selected', 'true');
    const card = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: new RegExp(order.orderId) }) });
    await card.getByRole('button', { name: texts.receive }).click();
    await expect(card.getByRole('button', { name: texts.receive })).toHaveCount(0);
    const adminAudit = new Auditor(page, testInfo);
    await adminAudit.check(`admin returns [${language}]`);
    await card.getByRole('button', { name: texts.refund }).click();
    // Money sent back cannot be taken back: the amount is confirmed first.
    await page.getByRole('dialog').getByRole('button', { name: texts.refund }).click();
    await expect(card.getByRole('button', { name: texts.refund })).toHaveCount(0);

    // The customer's profile shows the refund.
    const customerContext = await browser.newContext({ baseURL, extraHTTPHeaders: clientAddressHeader() });
    const customer = await customerContext.newPage();
    await customer.goto('/');
    await signIn(customer, inbox, email);
    if (texts.switchTo) await customer.getByRole('button', { name: texts.switchTo }).click();
    await customer.goto(`/profile?order=${order.orderId}`);
    await expect(customer.getByRole('listitem', { name: new RegExp(order.orderId) })).toContainText(texts.refunded);

    await audit.report();
    await adminAudit.report();
    await visitorContext.close();
    await customerContext.close();
    await customerApi.dispose();
  });
}

test('the admin refunds a paid order she cancelled from its page, and the page shows the refund', async ({ page, inbox, playwright, baseURL, adminApi, allowConsoleErrors }, testInfo) => {
  // The refund without a reason that the server refuses.
  allowConsoleErrors(/status of 400 .*\/refunds\)$/);
  const customerApi = await signedInApi(playwright, baseURL!, inbox, uniqueEmail('refunded-order'));
  const productId = (await (await customerApi.get('/api/products')).json()).products[0].id as string;
  const order = await paidOrder(customerApi, productId, 'en');
  await setOrderStatus(adminApi, order.orderId, 'cancelled');

  await page.goto('/');
  await signIn(page, inbox, API_ADMIN_EMAIL);
  await page.goto(adminOrderPath(order.orderId));
  const refund = page.getByRole('region', { name: 'Refund' });
  // Everything paid, in the shop's currency.
  await expect(refund.getByLabel('Amount to refund (BGN)')).toHaveValue((order.pricing.total / 100).toFixed(2));
  const audit = new Auditor(page, testInfo);
  await audit.check('admin: refund an order');
  // Less than everything needs a reason, which the server asks for beside the form.
  await refund.getByLabel('Amount to refund (BGN)').fill('1.00');
  await refund.getByRole('button', { name: 'Refund' }).click();
  await expect(page.getByRole('dialog', { name: 'Refund' })).toContainText(`Refund ${formatMoney(100, 'BGN', 'en')} of order #${order.orderId}?`);
  await page.getByRole('dialog').getByRole('button', { name: 'Refund' }).click();
  await expect(refund.getByRole('alert')).toHaveText('Please write why less than the default amount is refunded.');
  await refund.getByLabel('Amount to refund (BGN)').fill((order.pricing.total / 100).toFixed(2));
  await refund.getByRole('button', { name: 'Refund' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Refund' }).click();
  await expect(page.getByText('Refund made.')).toBeVisible();
  await expect(refund).toHaveCount(0);
  await expect(page.getByRole('definition').filter({ hasText: formatMoney(order.pricing.total, 'BGN', 'en') })).not.toHaveCount(0);
  await expect(page.getByRole('term').filter({ hasText: /^Refunded$/ })).toBeVisible();
  await audit.report();
  await customerApi.dispose();
});
