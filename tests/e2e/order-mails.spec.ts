import { randomUUID } from 'node:crypto';
import type { ReceivedMail } from '../support/smtp-inbox.js';
import { API_ADMIN_EMAIL, clientAddressHeader, expect, test, uniqueEmail } from './shop-fixtures.js';
import { signIn } from './sign-in-steps.js';
import { acceptTerms } from './checkout-steps.js';

const linkAfter = (mail: ReceivedMail, label: string) => new RegExp(`${label}: (\\S+)`).exec(mail.body)?.[1];

test('the confirmation comes in the checkout’s language and opens the order; the admin sees each e-mail of the order and sends one again', async ({
  page,
  inbox,
  browser,
  baseURL,
}) => {
  const email = uniqueEmail('mailed');
  const customerContext = await browser.newContext({ baseURL, extraHTTPHeaders: clientAddressHeader() });
  const customer = await customerContext.newPage();
  await customer.goto('/');
  await signIn(customer, inbox, email);
  // The scene through the API (the page's own cookies); the checkout itself in the browser, in Bulgarian.
  const address = await customer.request.post('/api/addresses', {
    data: { fullName: 'Petya Dimitrova', streetAddress: '7 Shipka St', city: 'Sofia', postalCode: '1504', country: 'BG', phone: '0888 123 456' },
  });
  expect(address.ok()).toBe(true);
  const productId = (await (await customer.request.get('/api/products')).json()).products[0].id as string;
  const added = await customer.request.post('/api/cart/operations', { data: { operations: [{ id: randomUUID().replace(/-/g, ''), type: 'add', productId }] } });
  expect(added.ok()).toBe(true);
  await customer.getByRole('button', { name: 'Български' }).click();
  await customer.goto('/checkout');
  await acceptTerms(customer);
  await customer.getByRole('button', { name: 'Потвърдете поръчката' }).click();
  // Paying by link, the customer is taken to their orders.
  await expect(customer).toHaveURL(/\/profile/);
  const orderId = (await (await customer.request.get('/api/orders')).json()).orders[0].orderId as string;

  const confirmation = await inbox.waitForMail(email);
  expect(confirmation.subject).toBe(`Получихме поръчката ви № ${orderId}`);
  expect(confirmation.body).toMatch(/^Здравейте,$/m);
  // The e-mail's link opens the order in the profile, marked and focused.
  const orderLink = linkAfter(confirmation, 'Вижте поръчката си');
  expect(orderLink).toBe(`${baseURL}/profile?order=${orderId}`);
  await customer.goto(orderLink!);
  const card = customer.getByRole('listitem', { name: `Поръчка № ${orderId}` });
  await expect(card).toHaveAttribute('aria-current', 'true');
  await expect(card).toBeFocused();

  await page.goto('/');
  // The second admin: the first one's sign-in links are counted by the tests that sign it in.
  await signIn(page, inbox, API_ADMIN_EMAIL);
  await page.goto(`/admin?tab=orders&order=${orderId}`);
  const mails = page.getByRole('list', { name: 'E-mails' });
  const confirmationItem = mails.getByRole('listitem').filter({ hasText: 'Order confirmation' });
  await expect(confirmationItem).toContainText(`To ${email}, in Bulgarian`);
  await expect(confirmationItem).toContainText(/Sent \d/);
  // Every admin hears of the new order.
  await expect(mails.getByRole('listitem').filter({ hasText: 'New-order notice to the shop' })).toHaveCount(2);

  await page.getByRole('button', { name: `Send again: Order confirmation to ${email}` }).click();
  await expect(page.getByRole('status').filter({ hasText: 'E-mail queued to be sent again.' })).toBeVisible();
  await expect(confirmationItem).toHaveCount(2);
  // The copy leaves the queue by itself, and the page follows.
  await expect(confirmationItem.nth(1)).toContainText(/Sent \d/, { timeout: 15_000 });
  expect((await inbox.waitForMail(email)).subject).toBe(`Получихме поръчката ви № ${orderId}`);

  // A status update waits a while (a second change would replace it), and meanwhile it cannot be sent twice.
  await page.getByLabel('Change status').selectOption('preparing');
  await page.getByRole('button', { name: 'Update status' }).click();
  const update = mails.getByRole('listitem').filter({ hasText: 'Status update: Preparing' });
  await expect(update).toContainText('Queued, to be sent at');
  await expect(update.getByRole('button')).toHaveCount(0);
  // No try has failed, so it waits to be sent rather than for a "next try".
  await page.getByRole('button', { name: 'Български' }).click();
  await expect(page.getByRole('list', { name: 'Имейли' }).getByRole('listitem').filter({ hasText: 'Промяна на състоянието: Подготвя се' })).toContainText('Чака изпращане в');
  await customerContext.close();
});
