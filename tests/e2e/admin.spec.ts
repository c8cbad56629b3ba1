import sharp from 'sharp';
import type { Page, APIRequestContext } from '@playwright/test';
import type { Product } from '#shared/catalog.js';
import type { Order } from '#shared/orders.js';
import { placeOrderThroughApi } from './shop-api.js';
import { addButtonOf } from './fixtures.js';
import { clientAddressHeader, expect, SHOP_ADMIN_EMAIL, test, uniqueEmail } from './shop-fixtures.js';
import { signIn } from './sign-in-steps.js';
import { acceptTerms } from './checkout-steps.js';

const productImage = () =>
  sharp({ create: { width: 900, height: 900, channels: 3, background: { r: 120, g: 60, b: 200 } } })
    .png()
    .toBuffer();

test('an admin adds a product with an image, sees it on the home page, edits and deletes it', async ({ page, inbox }) => {
  await page.goto('/');
  await signIn(page, inbox, SHOP_ADMIN_EMAIL);
  await page.getByRole('banner').getByRole('link', { name: 'Admin' }).click();
  // The dashboard comes first; the products are the next tab.
  await expect(page.getByRole('tab', { name: 'Dashboard' })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('tab', { name: 'Product Management' }).click();
  await expect(page.getByRole('table')).toBeVisible();

  await page.getByRole('button', { name: 'Add product' }).click();
  await page.getByRole('button', { name: 'Save product' }).click();
  await expect(page.getByRole('alert')).toHaveText('Please fill in all required fields');
  const name = `Violet Dream Set ${Date.now()}`;
  await page.getByLabel('Name (English)').fill(name);
  await page.getByLabel('Description (English)').fill('Ten violet press-on nails with a soft shimmer.');
  // A third decimal is refused, not rounded to a price the admin did not type.
  await page.getByLabel('Price (BGN)').fill('31.555');
  await page.getByRole('button', { name: 'Save product' }).click();
  await expect(page.getByRole('alert')).toHaveText('The price can have at most two decimal places, for example 12.99.');
  await page.getByLabel('Price (BGN)').fill('31.5');
  await page.getByLabel('Category').selectOption('nails');
  await page.getByRole('button', { name: 'Save product' }).click();
  await expect(page.getByRole('alert')).toHaveText('Please select an image for the product');
  await page.getByLabel('Add photos').setInputFiles({ name: 'violet.png', mimeType: 'image/png', buffer: await productImage() });
  await expect(page.getByRole('img', { name: 'Photo 1' })).toBeVisible();
  await expect(page.getByText('1 of 8 photos')).toBeVisible();
  await page.getByRole('button', { name: 'Save product' }).click();
  await expect(page.getByRole('dialog', { name: 'Success' })).toContainText('Product saved successfully');
  await page.getByRole('button', { name: 'OK', exact: true }).click();
  await expect(page.getByRole('row', { name: new RegExp(name) })).toContainText('BGN 31.50');

  await page.getByRole('banner').getByRole('link', { name: 'Home', exact: true }).click();
  const card = page.getByRole('article').filter({ hasText: name });
  await expect(card).toContainText('BGN 31.50');
  // Card images load lazily, so the card is brought into view first.
  await card.scrollIntoViewIfNeeded();
  await expect.poll(() => card.getByRole('img').evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBeGreaterThan(0);

  await page.getByRole('banner').getByRole('link', { name: 'Admin' }).click();
  await page.getByRole('tab', { name: 'Product Management' }).click();
  await page.getByRole('button', { name: `Edit: ${name}` }).click();
  await page.getByLabel('Price (BGN)').fill('29.90');
  await page.getByRole('button', { name: 'Save product' }).click();
  await page.getByRole('dialog', { name: 'Success' }).getByRole('button', { name: 'OK', exact: true }).click();
  await expect(page.getByRole('row', { name: new RegExp(name) })).toContainText('BGN 29.90');

  await page.getByRole('button', { name: `Delete: ${name}` }).click();
  await page.getByRole('dialog', { name: 'Delete product' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('dialog', { name: 'Success' })).toContainText('Product deleted successfully');
  await page.getByRole('button', { name: 'OK', exact: true }).click();
  await expect(page.getByRole('row', { name: new RegExp(name) })).toHaveCount(0);
  await page.getByRole('banner').getByRole('link', { name: 'Home', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Featured Art Products' })).toBeVisible();
  await expect(page.getByRole('article').filter({ hasText: name })).toHaveCount(0);
});

test('an admin finds a customer’s order by part of the e-mail, sets it to sent with the button, and the customer’s open profile follows', async ({
  page,
  inbox,
  browser,
  baseURL,
}) => {
  const customerEmail = uniqueEmail('followed');
  const customerContext = await browser.newContext({ baseURL, extraHTTPHeaders: clientAddressHeader() });
  const customer = await customerContext.newPage();
  await customer.goto('/');
  await signIn(customer, inbox, customerEmail);
  await addButtonOf(customer.getByRole('article').first()).click();
  await customer.getByRole('dialog').getByRole('button', { name: 'OK', exact: true }).click();
  await customer.goto('/checkout');
  for (const [label, value] of Object.entries({ 'Full name': 'Elena Georgieva', 'Street address': '3 Rila St', City: 'Burgas', 'State / Province': 'Burgas', 'Postal code': '8000' })) {
    await customer.getByLabel(label).first().fill(value);
  }
  await customer.getByLabel('Phone number').fill('0888 765 432');
  await customer.getByRole('button', { name: 'Save address' }).click();
  await acceptTerms(customer);
  await customer.getByRole('button', { name: 'Place Order' }).click();
  const orderId = /#(NA-[A-Z2-9]{8})/.exec((await customer.getByRole('dialog', { name: 'Success' }).textContent())!)![1]!;
  await customer.getByRole('button', { name: 'OK', exact: true }).click();
  const customerOrder = customer.getByRole('listitem', { name: `Order #${orderId}` });
  await expect(customerOrder.getByText('Pending')).toBeVisible();

  await page.goto('/');
  await signIn(page, inbox, SHOP_ADMIN_EMAIL);
  await page.goto('/admin');
  await page.getByRole('tab', { name: 'Order Management' }).click();
  // Any part of the address finds it: here its middle, without "followed-" or the domain.
  await page.getByLabel('Search by customer e-mail or order ID').fill(customerEmail.slice('followed-'.length, customerEmail.indexOf('@')));
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText('1 order', { exact: true })).toBeVisible();
  await page.getByRole('link', { name: `Details: ${orderId}` }).click();
  await expect(page.getByText('Elena Georgieva')).toBeVisible();

  // Going through the statuses in the select, by arrow key or by choosing one, changes nothing yet.
  const statusSelect = page.getByLabel('Change status');
  const updateButton = page.getByRole('button', { name: 'Update status' });
  await expect(updateButton).toHaveAttribute('aria-disabled', 'true');
  await statusSelect.focus();
  await page.keyboard.press('ArrowDown');
  await expect(statusSelect).toHaveValue('accepted');
  await page.keyboard.press('ArrowDown');
  await expect(statusSelect).toHaveValue('paid');
  await statusSelect.selectOption('sent');
  await expect(updateButton).toHaveAttribute('aria-disabled', 'false');
  const stored = await page.request.get(`/api/admin/orders/${orderId}`);
  expect(((await stored.json()) as { order: Order }).order).toMatchObject({ status: 'pending', statusHistory: [{ status: 'pending' }] });
  await expect(page.getByText('Order status updated')).toHaveCount(0);
  await expect(customerOrder.getByText('Pending')).toBeVisible();
  const timeline = page.getByRole('list', { name: 'Timeline' });
  await expect(timeline.getByRole('listitem')).toHaveText([/^Pending/]);

  await updateButton.click();
  await expect(page.getByRole('status').filter({ hasText: 'Order status updated to "Sent"' })).toBeVisible();
  await expect(timeline.getByRole('listitem')).toHaveText([/^Pending/, /^Sent/]);
  await expect(page.getByText('Current status: Sent')).toBeVisible();
  await expect(updateButton).toBeFocused();

  await expect(customerOrder.getByText('Sent')).toBeVisible({ timeout: 3000 });

  await page.getByRole('link', { name: 'Back to orders' }).click();
  await expect(page.getByRole('link', { name: `Details: ${orderId}` })).toBeFocused();
  await page.getByLabel('Status', { exact: true }).selectOption('sent');
  await expect(page.getByRole('row', { name: new RegExp(orderId) })).toBeVisible();
  await customerContext.close();
});

test('a customer who opens /admin is sent home', async ({ page, inbox, baseURL }) => {
  await page.goto('/');
  await signIn(page, inbox, uniqueEmail('not-admin'));
  await page.goto('/admin');
  await expect(page).toHaveURL(`${baseURL}/`);
  await expect(page.getByRole('heading', { name: 'Featured Art Products' })).toBeVisible();
});

/** Signs the page in with the worker's API admin session, keeping the UI sign-ins of SHOP_ADMIN_EMAIL under its hourly limit. */
async function signInAsApiAdmin(page: Page, adminApi: APIRequestContext) {
  await page.context().addCookies((await adminApi.storageState()).cookies);
}

test('the admin tabs follow the arrow keys, Home and End, with one tab stop', async ({ page, adminApi, baseURL }) => {
  await signInAsApiAdmin(page, adminApi);
  await page.goto('/admin');
  const dashboardTab = page.getByRole('tab', { name: 'Dashboard' });
  const productsTab = page.getByRole('tab', { name: 'Product Management' });
  const ordersTab = page.getByRole('tab', { name: 'Order Management' });
  const workListTab = page.getByRole('tab', { name: 'Work list' });
  const sizeChartTab = page.getByRole('tab', { name: 'Size chart' });
  const returnsTab = page.getByRole('tab', { name: 'Returns' });
  const discountsTab = page.getByRole('tab', { name: 'Discounts' });
  const giftCardsTab = page.getByRole('tab', { name: 'Gift cards' });
  const requestsTab = page.getByRole('tab', { name: 'Requests' });
  const reviewsTab = page.getByRole('tab', { name: 'Reviews' });
  const synonymsTab = page.getByRole('tab', { name: 'Search synonyms' });
  await expect(dashboardTab).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tabpanel', { name: 'Dashboard' })).toBeVisible();
  // Every tab shows whole, none hidden past the page's edge: the row wraps.
  const { width } = page.viewportSize()!;
  for (const tab of await page.getByRole('tab').all()) {
    const box = (await tab.boundingBox())!;
    expect(box.x + box.width, (await tab.textContent())!).toBeLessThanOrEqual(width);
  }

  await dashboardTab.focus();
  const steps: [string, typeof productsTab, string][] = [
    ['ArrowRight', productsTab, '/admin?tab=products'],
    ['ArrowRight', ordersTab, '/admin?tab=orders'],
    ['ArrowRight', workListTab, '/admin?tab=work-list'],
    ['ArrowRight', sizeChartTab, '/admin?tab=size-chart'],
    ['ArrowRight', returnsTab, '/admin?tab=returns'],
    ['ArrowRight', discountsTab, '/admin?tab=discounts'],
    ['ArrowRight', giftCardsTab, '/admin?tab=gift-cards'],
    ['ArrowRight', requestsTab, '/admin?tab=requests'],
    ['ArrowRight', reviewsTab, '/admin?tab=reviews'],
    ['ArrowRight', synonymsTab, '/admin?tab=synonyms'],
    ['ArrowRight', dashboardTab, '/admin'],
    ['ArrowLeft', synonymsTab, '/admin?tab=synonyms'],
    ['Home', dashboardTab, '/admin'],
    ['End', synonymsTab, '/admin?tab=synonyms'],
    ['ArrowLeft', reviewsTab, '/admin?tab=reviews'],
    ['ArrowLeft', requestsTab, '/admin?tab=requests'],
    ['ArrowLeft', giftCardsTab, '/admin?tab=gift-cards'],
    ['ArrowLeft', discountsTab, '/admin?tab=discounts'],
    ['ArrowLeft', returnsTab, '/admin?tab=returns'],
    ['ArrowLeft', sizeChartTab, '/admin?tab=size-chart'],
    ['ArrowLeft', workListTab, '/admin?tab=work-list'],
    ['ArrowLeft', ordersTab, '/admin?tab=orders'],
  ];
  for (const [key, tab, url] of steps) {
    await page.keyboard.press(key);
    await expect(tab, key).toBeFocused();
    await expect(tab, key).toHaveAttribute('aria-selected', 'true');
    await expect(page).toHaveURL(`${baseURL}${url}`);
  }
  await expect(page.getByRole('tabpanel', { name: 'Order Management' })).toBeVisible();
  // Only the selected tab is in the Tab order; Tab goes on into its panel.
  await expect(dashboardTab).toHaveAttribute('tabindex', '-1');
  await expect(ordersTab).toHaveAttribute('tabindex', '0');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Status', { exact: true })).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(ordersTab).toBeFocused();
});

test('the admin’s tab, search and open order are in the address, so reload and Back keep them', async ({ page, adminApi, baseURL }) => {
  const [product] = ((await (await adminApi.get('/api/products')).json()) as { products: Product[] }).products;
  const order = await placeOrderThroughApi(adminApi, product!.id, 'card');
  await signInAsApiAdmin(page, adminApi);
  await page.goto('/admin');
  await page.getByRole('tab', { name: 'Order Management' }).click();
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Order Management' })).toHaveAttribute('aria-selected', 'true');

  const search = page.getByLabel('Search by customer e-mail or order ID');
  await search.fill(order.orderId.toLowerCase());
  await search.press('Enter');
  const listUrl = `${baseURL}/admin?tab=orders&q=${order.orderId.toLowerCase()}`;
  await expect(page).toHaveURL(listUrl);
  const details = page.getByRole('link', { name: `Details: ${order.orderId}` });
  await details.click();
  await expect(page).toHaveURL(`${listUrl}&order=${order.orderId}`);
  const title = page.getByRole('heading', { name: `Order #${order.orderId}` });
  await expect(title).toBeFocused();

  await page.reload();
  await expect(title).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Order Management' })).toHaveAttribute('aria-selected', 'true');

  await page.goBack();
  await expect(page).toHaveURL(listUrl);
  await expect(search).toHaveValue(order.orderId.toLowerCase());
  await expect(details).toBeFocused();
  await page.goBack();
  await expect(page).toHaveURL(`${baseURL}/admin?tab=orders`);
  await expect(search).toHaveValue('');
  await page.goBack();
  await expect(page).toHaveURL(`${baseURL}/admin`);
  await expect(page.getByRole('tab', { name: 'Dashboard' })).toHaveAttribute('aria-selected', 'true');
  await page.goForward();
  await page.goForward();
  await page.goForward();
  await expect(title).toBeVisible();

  await page.getByRole('link', { name: 'Back to orders' }).click();
  await expect(page).toHaveURL(listUrl);
  await expect(details).toBeFocused();
});
