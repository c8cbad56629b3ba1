import type { Locator, Page } from '@playwright/test';
import { expect, test, uniqueEmail } from './shop-fixtures.js';
import { setOrderStatus, placeOrderThroughApi } from './shop-api.js';
import { PAYMENT_POLL_MS } from '#shared/orders.js';
import { signIn } from './sign-in-steps.js';

/** Signs a new customer in and returns the id of a demo product to order. */
async function customerWithProduct(page: Page, inbox: Parameters<typeof signIn>[1], name: string): Promise<string> {
  await page.goto('/');
  await signIn(page, inbox, uniqueEmail(name));
  const { products } = (await (await page.request.get('/api/products')).json()) as { products: Array<{ id: string }> };
  return products[0]!.id;
}

/** How many lines the text takes where the element shows it (a browser may break a line after a hyphen). */
function linesTaken(element: Locator, text: string): Promise<number> {
  return element.evaluate((root, wanted) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const start = node.textContent!.indexOf(wanted);
      if (start < 0) continue;
      const range = document.createRange();
      range.setStart(node, start);
      range.setEnd(node, start + wanted.length);
      return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
    }
    throw new Error(`"${wanted}" is not one text of the element`);
  }, text);
}

const payButtons = (page: Page) => page.getByRole('button', { name: /^(Open payment link|Pay with card|Complete Payment|Pay BGN)/ });

test('a cancelled order’s payment page and payment window say so, offer no payment and stop asking', async ({ page, inbox, adminApi }) => {
  const productId = await customerWithProduct(page, inbox, 'cancelled');
  const { orderId } = await placeOrderThroughApi(page.request, productId, 'pay_by_link');
  await setOrderStatus(adminApi, orderId, 'cancelled');

  const orderRequests: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === `/api/orders/${orderId}`) orderRequests.push(request.url());
  });
  await page.clock.install();
  await page.goto(`/checkout/payment/${orderId}`);
  await expect(page.getByRole('heading', { name: `Order #${orderId}` })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: `Order #${orderId} was cancelled and can no longer be paid.` })).toBeVisible();
  await expect(page.getByText('Cancelled', { exact: true })).toBeVisible();
  await expect(payButtons(page)).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Payment Successful!' })).toHaveCount(0);
  // A pending order is asked for every 5 seconds; a cancelled one is not asked again.
  const asked = orderRequests.length;
  await page.clock.runFor(PAYMENT_POLL_MS * 2);
  // A request the page sends after the clock has run: a poll the clock started would have gone out before it.
  await page.evaluate(() => fetch('/api/health'));
  expect(orderRequests).toHaveLength(asked);

  for (const query of ['', '?method=card']) {
    await page.goto(`/mock-payment/${orderId}${query}`);
    await expect(page.getByRole('heading', { name: 'Simulated payment' })).toBeVisible();
    await expect(page.getByRole('status')).toHaveText(`Order #${orderId} was cancelled and can no longer be paid.`);
    await expect(payButtons(page)).toHaveCount(0);
    await expect(page.getByLabel('Card number')).toHaveCount(0);
  }
});

test('an order the admin sent without a payment needs none; a paid order keeps the success view', async ({ page, inbox, adminApi }) => {
  const productId = await customerWithProduct(page, inbox, 'sent-unpaid');
  const sent = await placeOrderThroughApi(page.request, productId, 'card');
  await setOrderStatus(adminApi, sent.orderId, 'sent');
  await page.goto(`/checkout/payment/${sent.orderId}`);
  await expect(page.getByRole('status').filter({ hasText: `Order #${sent.orderId} needs no payment: its status is “Sent”.` })).toBeVisible();
  await expect(payButtons(page)).toHaveCount(0);
  await page.goto(`/mock-payment/${sent.orderId}?method=card`);
  await expect(page.getByRole('status')).toHaveText(`Order #${sent.orderId} needs no payment: its status is “Sent”.`);
  await expect(payButtons(page)).toHaveCount(0);

  const paid = await placeOrderThroughApi(page.request, productId, 'card');
  expect((await page.request.post(`/api/orders/${paid.orderId}/payment`, { data: { method: 'card', cardLast4: '4242' } })).ok()).toBe(true);
  await setOrderStatus(adminApi, paid.orderId, 'preparing');
  await page.goto(`/checkout/payment/${paid.orderId}`);
  await expect(page.getByRole('heading', { name: 'Payment Successful!' })).toBeVisible();
  await expect(page.getByText(`Thank you! Order #${paid.orderId} is paid.`)).toBeVisible();
  await expect(payButtons(page)).toHaveCount(0);
  await page.goto(`/mock-payment/${paid.orderId}?method=card`);
  await expect(page.getByRole('status')).toHaveText(`Order #${paid.orderId} is already paid.`);
  await expect(payButtons(page)).toHaveCount(0);
});

test('a payment window left open while the admin cancels the order follows the order, and a late payment is refused', async ({
  page,
  inbox,
  adminApi,
  allowConsoleErrors,
}) => {
  const productId = await customerWithProduct(page, inbox, 'cancelled-meanwhile');
  const complete = page.getByRole('button', { name: 'Complete Payment' });
  const cancelledText = (orderId: string) => `Order #${orderId} was cancelled and can no longer be paid.`;

  // The shop tells the open window that the order changed, and the button goes.
  const followed = await placeOrderThroughApi(page.request, productId, 'pay_by_link');
  await page.goto(`/mock-payment/${followed.orderId}`);
  await expect(complete).toBeEnabled();
  await setOrderStatus(adminApi, followed.orderId, 'cancelled');
  await expect(page.getByRole('status')).toHaveText(cancelledText(followed.orderId));
  await expect(payButtons(page)).toHaveCount(0);

  // Without that news (the live stream held back here), the payment itself is refused, and the page says why.
  allowConsoleErrors(/status of 409/); // the browser logs the refused payment itself
  await page.route('/api/events', (route) => route.fulfill({ status: 204 }));
  const late = await placeOrderThroughApi(page.request, productId, 'pay_by_link');
  await page.goto(`/mock-payment/${late.orderId}`);
  await expect(complete).toBeEnabled();
  await setOrderStatus(adminApi, late.orderId, 'cancelled');
  const refused = page.waitForResponse((response) => response.url().endsWith(`/api/orders/${late.orderId}/payment`));
  await complete.click();
  expect((await refused).status()).toBe(409);
  await expect(page.getByRole('status')).toHaveText(cancelledText(late.orderId));
  await expect(payButtons(page)).toHaveCount(0);
  await expect(page.getByText('Payment processing failed. Please try again.')).toHaveCount(0);
  const order = (await (await page.request.get(`/api/orders/${late.orderId}`)).json()).order;
  expect(order).toMatchObject({ status: 'cancelled', payment: null });
});

test.describe('in Bulgarian', () => {
  test.use({ locale: 'bg-BG' });

  test('a cancelled order says so in Bulgarian, on the payment page and in the payment window', async ({ page, inbox, adminApi }) => {
    const productId = await customerWithProduct(page, inbox, 'bg-cancelled');
    const { orderId } = await placeOrderThroughApi(page.request, productId, 'card');
    await setOrderStatus(adminApi, orderId, 'cancelled');
    await page.setViewportSize({ width: 320, height: 700 });
    await page.goto(`/checkout/payment/${orderId}`);
    await expect(page.getByRole('status').filter({ hasText: `Поръчка № ${orderId} е отменена и вече не може да бъде платена.` })).toBeVisible();
    // On the narrowest phones the heading takes two lines, and the number stays whole on one of them.
    const heading = page.getByRole('heading', { level: 1, name: `Поръчка № ${orderId}` });
    expect(await linesTaken(heading, orderId)).toBe(1);
    await expect(page.getByRole('button', { name: /^(Платете с карта|Отворете линка за плащане)$/ })).toHaveCount(0);
    await page.goto(`/mock-payment/${orderId}?method=card`);
    await expect(page.getByRole('status')).toHaveText(`Поръчка № ${orderId} е отменена и вече не може да бъде платена.`);
    await expect(page.getByRole('button')).toHaveCount(0);
  });
});
