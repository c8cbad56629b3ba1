import { readFile } from 'node:fs/promises';
import type { AccountExport } from '#shared/account.js';
import type { AdminOrderDetail } from '#shared/admin.js';
import { auditPage, signInRequest } from './accessibility.js';
import { placeOrderThroughApi } from './shop-api.js';
import { expect, hasHorizontalScroll, test, uniqueEmail } from './shop-fixtures.js';

// A customer's rights over their data, from the profile: a copy of everything the shop holds about
// them, and the deletion of their account, after which the shop keeps their orders anonymised.

test('a customer downloads their data, then deletes their account after a wrong e-mail is refused, and is signed out', async ({ page, inbox, adminApi }) => {
  const email = uniqueEmail('gdpr');
  await page.goto('/');
  await signInRequest(page.request, inbox, email);
  const productId = (await (await page.request.get('/api/products')).json()).products[0].id as string;
  const order = await placeOrderThroughApi(page.request, productId, 'pay_by_link');
  await page.goto('/profile');

  const section = page.getByRole('region', { name: 'Your data' });
  await expect(section).toContainText('Download a copy of everything we hold about you, or delete your account.');
  const downloading = page.waitForEvent('download');
  await section.getByRole('button', { name: 'Download my data' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^nail-art-atelier-data-\d{4}-\d{2}-\d{2}\.json$/);
  const data = JSON.parse(await readFile((await download.path())!, 'utf8')) as AccountExport;
  expect(data.account.email).toBe(email);
  expect(data.orders.map((placed) => placed.orderId)).toEqual([order.orderId]);
  expect(data.orders[0]!.items.map((item) => item.productId)).toEqual([productId]);
  expect(data.addresses.map((address) => address.fullName)).toEqual(['Petya Dimitrova']);
  expect(data.sessions.filter((session) => session.current)).toHaveLength(1);
  expect(await hasHorizontalScroll(page)).toBe(false);

  const opener = section.getByRole('button', { name: 'Delete my account' });
  await opener.click();
  const dialog = page.getByRole('dialog', { name: 'Delete your account' });
  await expect(dialog).toContainText('This cannot be undone. We will delete:');
  await expect(dialog.getByRole('listitem')).toHaveText(['your saved addresses', 'your cart', 'your sign-ins: you will be signed out on every device']);
  await expect(dialog).toContainText('We keep your orders, as the law requires for our accounts, but anonymised');
  const field = dialog.getByLabel(`To confirm, type your e-mail address (${email})`);
  await expect(field).toBeFocused();
  expect(await hasHorizontalScroll(page)).toBe(false);

  // A wrong address is refused in words, and nothing is deleted.
  await field.fill(`other-${email}`);
  await field.press('Enter');
  await expect(dialog.getByRole('alert')).toHaveText('This is not the e-mail address of your account. Please type it exactly as shown.');
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(field).toBeFocused();
  expect((await (await page.request.get('/api/auth/me')).json()).user.email).toBe(email);

  await field.fill(email);
  await dialog.getByRole('button', { name: 'Delete my account' }).click();
  const notice = page.getByRole('dialog', { name: 'Account deleted' });
  await expect(notice).toContainText('Your account has been deleted and you have been signed out.');
  await expect(page).toHaveURL(/\/$/);
  await notice.getByRole('button', { name: 'OK', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Featured Art Products' })).toBeVisible();
  await expect(page.getByRole('banner').getByRole('button', { name: 'Log in' })).toBeVisible();

  // Signed out on the server too, and nothing of the customer left in this browser.
  expect((await (await page.request.get('/api/auth/me')).json()).user).toBeNull();
  expect((await page.context().cookies()).filter((cookie) => cookie.name.endsWith('session'))).toEqual([]);
  const kept = await page.evaluate((address) => Object.keys(localStorage).filter((key) => key.includes(address) || key === 'offline_user' || key.startsWith('order_payment_info_')), email);
  expect(kept).toEqual([]);
  await page.goto('/profile');
  await expect(page.getByRole('main').getByRole('button', { name: 'Log in' })).toBeVisible();

  // The shop keeps the order for its accounts, without the person.
  const detail = (await (await adminApi.get(`/api/admin/orders/${order.orderId}`)).json()) as AdminOrderDetail;
  expect(detail.order.customerEmail).toMatch(/^deleted-[0-9a-f]{8}@deleted\.invalid$/);
  expect(detail.order.shippingAddress).toMatchObject({ fullName: '', streetAddress: '', phone: '', country: 'BG' });
  expect(detail.order.pricing.total).toBe(order.pricing.total);
});

test('the data section and the deletion dialog speak Bulgarian, and the dialog closes with Escape having deleted nothing', async ({ page, inbox }) => {
  const email = uniqueEmail('gdpr-bg');
  await page.goto('/');
  await page.getByRole('button', { name: 'Български' }).click();
  await signInRequest(page.request, inbox, email);
  await page.goto('/profile');

  const section = page.getByRole('region', { name: 'Вашите данни' });
  await expect(section).toContainText('Изтеглете копие на всички данни, които пазим за вас, или изтрийте профила си.');
  await expect(section.getByRole('button', { name: 'Изтеглете данните си' })).toBeVisible();
  const opener = section.getByRole('button', { name: 'Изтрийте профила си' });
  await opener.click();

  const dialog = page.getByRole('dialog', { name: 'Изтриване на профила' });
  await expect(dialog).toContainText('Това действие не може да бъде отменено. Ще изтрием:');
  await expect(dialog.getByRole('listitem')).toHaveText(['запазените ви адреси', 'количката ви', 'активните ви сесии: ще излезете от профила си на всички устройства']);
  await expect(dialog).toContainText('Поръчките ви ще запазим, както изисква законът за счетоводството ни, но анонимизирани');
  await expect(dialog).toContainText('Ако някоя поръчка все още пътува към вас, моля, изчакайте да я получите');
  const field = dialog.getByLabel(`За потвърждение въведете имейл адреса си (${email})`);
  await expect(field).toBeFocused();
  await expect(dialog.getByRole('button', { name: 'Отказ' })).toBeVisible();

  await dialog.getByRole('button', { name: 'Изтрийте профила' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Това не е имейл адресът на профила ви. Моля, въведете го точно както е показан.');
  expect((await auditPage(page, 'the account deletion dialog in Bulgarian')).problems).toEqual([]);

  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(opener).toBeFocused();
  expect((await (await page.request.get('/api/auth/me')).json()).user.email).toBe(email);
});
