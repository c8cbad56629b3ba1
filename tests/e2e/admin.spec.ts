import sharp from 'sharp';
import { clientAddressHeader, expect, SHOP_ADMIN_EMAIL, test, uniqueEmail } from './shop-fixtures.js';
import { signInThroughUi } from './sign-in-steps.js';

const productImage = () =>
  sharp({ create: { width: 900, height: 900, channels: 3, background: { r: 120, g: 60, b: 200 } } })
    .png()
    .toBuffer();

test('an admin adds a product with an image, sees it on the home page, edits and deletes it', async ({ page, inbox }) => {
  await page.goto('/');
  await signInThroughUi(page, inbox, SHOP_ADMIN_EMAIL);
  await page.getByRole('banner').getByRole('link', { name: 'Admin' }).click();
  await expect(page.getByRole('tab', { name: 'Product Management' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('table')).toBeVisible();

  await page.getByRole('button', { name: 'Add product' }).click();
  await page.getByRole('button', { name: 'Save product' }).click();
  await expect(page.getByRole('alert')).toHaveText('Please fill in all required fields');
  const name = `Violet Dream Set ${Date.now()}`;
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Description').fill('Ten violet press-on nails with a soft shimmer.');
  await page.getByLabel('Price (BGN)').fill('31.5');
  await page.getByLabel('Category').selectOption('nails');
  await page.getByRole('button', { name: 'Save product' }).click();
  await expect(page.getByRole('alert')).toHaveText('Please select an image for the product');
  await page.getByLabel('Image').setInputFiles({ name: 'violet.png', mimeType: 'image/png', buffer: await productImage() });
  await expect(page.getByRole('img', { name: 'Preview of the chosen image' })).toBeVisible();
  await page.getByRole('button', { name: 'Save product' }).click();
  await expect(page.getByRole('dialog', { name: 'Success' })).toContainText('Product saved successfully');
  await page.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByRole('row', { name: new RegExp(name) })).toContainText('BGN 31.50');

  await page.getByRole('banner').getByRole('link', { name: 'Home', exact: true }).click();
  const card = page.getByRole('article').filter({ hasText: name });
  await expect(card).toContainText('BGN 31.50');
  // Card images load lazily, so the card is brought into view first.
  await card.scrollIntoViewIfNeeded();
  await expect.poll(() => card.getByRole('img').evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBeGreaterThan(0);

  await page.getByRole('banner').getByRole('link', { name: 'Admin' }).click();
  await page.getByRole('button', { name: `Edit: ${name}` }).click();
  await page.getByLabel('Price (BGN)').fill('29.90');
  await page.getByRole('button', { name: 'Save product' }).click();
  await page.getByRole('dialog', { name: 'Success' }).getByRole('button', { name: 'OK' }).click();
  await expect(page.getByRole('row', { name: new RegExp(name) })).toContainText('BGN 29.90');

  await page.getByRole('button', { name: `Delete: ${name}` }).click();
  await page.getByRole('dialog', { name: 'Delete product' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('dialog', { name: 'Success' })).toContainText('Product deleted successfully');
  await page.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByRole('row', { name: new RegExp(name) })).toHaveCount(0);
  await page.getByRole('banner').getByRole('link', { name: 'Home', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Featured Art Products' })).toBeVisible();
  await expect(page.getByRole('article').filter({ hasText: name })).toHaveCount(0);
});

test('an admin finds a customer’s order by e-mail, sets it to sent, and the customer’s open profile follows', async ({
  page,
  inbox,
  browser,
  baseURL,
}) => {
  const customerEmail = uniqueEmail('followed');
  const customerContext = await browser.newContext({ baseURL, extraHTTPHeaders: clientAddressHeader() });
  const customer = await customerContext.newPage();
  await customer.goto('/');
  await signInThroughUi(customer, inbox, customerEmail);
  await customer.getByRole('article').first().getByRole('button').click();
  await customer.getByRole('dialog').getByRole('button', { name: 'OK' }).click();
  await customer.goto('/checkout');
  for (const [label, value] of Object.entries({ 'Full name': 'Elena Georgieva', 'Street address': '3 Rila St', City: 'Burgas', 'State / Province': 'Burgas', 'Postal code': '8000' })) {
    await customer.getByLabel(label).first().fill(value);
  }
  await customer.getByLabel('Phone number').fill('0888 765 432');
  await customer.getByRole('button', { name: 'Save address' }).click();
  await customer.getByRole('button', { name: 'Place Order' }).click();
  const orderId = /#(NA-[A-Z2-9]{8})/.exec((await customer.getByRole('dialog', { name: 'Success' }).textContent())!)![1]!;
  await customer.getByRole('button', { name: 'OK' }).click();
  const customerOrder = customer.getByRole('listitem', { name: `Order #${orderId}` });
  await expect(customerOrder.getByText('Pending')).toBeVisible();

  await page.goto('/');
  await signInThroughUi(page, inbox, SHOP_ADMIN_EMAIL);
  await page.goto('/admin');
  await page.getByRole('tab', { name: 'Order Management' }).click();
  await page.getByLabel('Search by customer e-mail or order ID').fill(customerEmail);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText('1 order', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: `Details: ${orderId}` }).click();
  await expect(page.getByText('Elena Georgieva')).toBeVisible();
  await page.getByLabel('Change status').selectOption('sent');
  await expect(page.getByRole('status').filter({ hasText: 'Order status updated to "Sent"' })).toBeVisible();
  await expect(page.locator('.timeline')).toContainText('Sent');

  await expect(customerOrder.getByText('Sent')).toBeVisible({ timeout: 3000 });

  await page.getByRole('button', { name: 'Back to orders' }).click();
  await page.getByLabel('Status').selectOption('sent');
  await expect(page.getByRole('row', { name: new RegExp(orderId) })).toBeVisible();
  await customerContext.close();
});

test('a customer who opens /admin is sent home', async ({ page, inbox, baseURL }) => {
  await page.goto('/');
  await signInThroughUi(page, inbox, uniqueEmail('not-admin'));
  await page.goto('/admin');
  await expect(page).toHaveURL(`${baseURL}/`);
  await expect(page.getByRole('heading', { name: 'Featured Art Products' })).toBeVisible();
});
