import type { Locator, Page } from '@playwright/test';
import type { Product } from '#shared/catalog.js';
import { isPlainProduct } from '#shared/product-options.js';
import { signInRequest } from './accessibility.js';
import { paymentWindowCompletes } from './checkout-steps.js';
import { addButtonOf, plainCard } from './fixtures.js';
import { expect, test, uniqueEmail } from './shop-fixtures.js';

// The shop by keyboard alone: focus comes back to where it was after every dialog and removal, and a
// whole purchase needs no mouse.

/** Presses the key (Tab by default) until the target has the focus, as a keyboard user moves through the page. */
async function moveFocusTo(page: Page, target: Locator, key = 'Tab', limit = 80): Promise<void> {
  await target.waitFor();
  for (let presses = 0; presses < limit; presses++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press(key);
  }
  throw new Error(`${String(target)} did not get the focus after ${limit} presses of ${key}`);
}

const focusIsOnBody = (page: Page) => page.evaluate(() => document.activeElement === document.body || document.activeElement === null);

test('focus returns to the opener when the login dialog closes by Escape or Cancel', async ({ page }) => {
  await page.goto('/');
  const login = page.getByRole('banner').getByRole('button', { name: 'Log in' });
  await moveFocusTo(page, login);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Sign in' }).getByRole('textbox')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();
  await expect(login).toBeFocused();

  await page.keyboard.press('Enter');
  await moveFocusTo(page, page.getByRole('dialog').getByRole('button', { name: 'Cancel' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog')).toBeHidden();
  await expect(login).toBeFocused();
});

test('focus returns to the Add to Cart button after the message, and a removed cart line hands it on', async ({ page, inbox }) => {
  await signInRequest(page.request, inbox, uniqueEmail('focus'));
  await page.goto('/');
  const addButton = addButtonOf(plainCard(page, 1));
  await moveFocusTo(page, addButton);
  await page.keyboard.press('Enter');
  const added = page.getByRole('dialog', { name: 'Success' });
  await expect(added.getByRole('button', { name: 'OK', exact: true })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(added).toBeHidden();
  await expect(addButton).toBeFocused();

  // Two more lines through the API: the cart page then has three.
  const products = ((await (await page.request.get('/api/products')).json()) as { products: Product[] }).products.filter(isPlainProduct);
  const operations = [2, 3].map((index) => ({ id: `focus-${Date.now()}-${index}`.padEnd(20, '0'), type: 'add', productId: products[index]!.id }));
  expect((await page.request.post('/api/cart/operations', { data: { operations } })).ok()).toBe(true);
  await page.goto('/cart');
  const removeButtons = page.getByRole('main').getByRole('button', { name: /^Remove .+ from cart$/ });
  await expect(removeButtons).toHaveCount(3);
  const names = await removeButtons.evaluateAll((buttons) => buttons.map((button) => button.getAttribute('aria-label')));

  // The first line: focus goes to the next line's button, which is now the first.
  await moveFocusTo(page, removeButtons.first());
  await page.keyboard.press('Enter');
  await expect(removeButtons).toHaveCount(2);
  await expect(page.getByRole('button', { name: names[1]! })).toBeFocused();
  // The last line: there is no next one, so the line before it.
  await moveFocusTo(page, removeButtons.last());
  await page.keyboard.press('Enter');
  await expect(removeButtons).toHaveCount(1);
  await expect(page.getByRole('button', { name: names[1]! })).toBeFocused();
  // The only line: the cart's heading, above the message that it is empty.
  await page.keyboard.press('Enter');
  await expect(page.getByText('Your cart is empty.')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Your Cart' })).toBeFocused();
});

test('a confirmation dialog starts on Cancel, gives focus back on Escape, and never leaves it on the page body', async ({ page, inbox }) => {
  await signInRequest(page.request, inbox, uniqueEmail('confirm-focus'));
  const address = { fullName: 'Petya Dimitrova', streetAddress: '7 Shipka St', city: 'Sofia', state: 'Sofia City', postalCode: '1504', country: 'BG', phone: '0888 123 456' };
  expect((await page.request.post('/api/addresses', { data: address })).status()).toBe(201);
  await page.goto('/profile?tab=addresses');
  const deleteButton = page.getByRole('button', { name: 'Delete', exact: true });
  await moveFocusTo(page, deleteButton);
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog', { name: 'Delete address' });
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  await expect(deleteButton).toBeFocused();

  // Deleted: the button that opened the dialog is gone, and the main content takes the focus.
  await page.keyboard.press('Enter');
  await page.keyboard.press('Shift+Tab');
  await expect(confirm.getByRole('button', { name: 'Delete' })).toBeFocused();
  await page.keyboard.press('Enter');
  const deleted = page.getByRole('dialog', { name: 'Success' });
  await expect(deleted.getByRole('button', { name: 'OK', exact: true })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(deleted).toBeHidden();
  await expect(page.getByText('You have no saved addresses yet.')).toBeVisible();
  expect(await focusIsOnBody(page)).toBe(false);
  await expect(page.getByRole('main')).toBeFocused();
});

test('a control that took the focus back from a dialog and is removed later hands it to the main content', async ({ page, inbox }) => {
  await signInRequest(page.request, inbox, uniqueEmail('late-removal'));
  const address = { fullName: 'Petya Dimitrova', streetAddress: '7 Shipka St', city: 'Sofia', state: 'Sofia City', postalCode: '1504', country: 'BG', phone: '0888 123 456' };
  expect((await page.request.post('/api/addresses', { data: address })).status()).toBe(201);
  const listed = await (await page.request.get('/api/addresses')).json();
  // The deletion happens, but its answer still lists the address, as a list rendered only after the
  // dialog that tells of it has closed would: the Delete button takes the focus back, and stays.
  await page.route('**/api/addresses/*', async (route) => {
    if (route.request().method() !== 'DELETE') return route.fallback();
    const deleted = await route.fetch();
    expect(deleted.status()).toBe(200);
    await route.fulfill({ response: deleted, json: listed });
  });
  await page.goto('/profile?tab=addresses');
  const deleteButton = page.getByRole('button', { name: 'Delete', exact: true });
  await moveFocusTo(page, deleteButton);
  await page.keyboard.press('Enter');
  await page.getByRole('dialog', { name: 'Delete address' }).getByRole('button', { name: 'Delete' }).click();
  const told = page.getByRole('dialog', { name: 'Success' });
  await told.getByRole('button', { name: 'OK', exact: true }).press('Enter');
  await expect(told).toBeHidden();
  await expect(deleteButton).toBeFocused();

  // The list read again (the connection comes back) no longer has it.
  await page.context().setOffline(true);
  await page.context().setOffline(false);
  await expect(page.getByText('You have no saved addresses yet.')).toBeVisible();
  await expect(page.getByRole('main')).toBeFocused();
  expect(await focusIsOnBody(page)).toBe(false);
});

test('a whole purchase by keyboard: sign in, add two products, check out and pay by card', async ({ page, inbox }, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'The keyboard journey is a desktop one; phones have no Tab key.');
  test.setTimeout(90_000);
  const email = uniqueEmail('keyboard');
  await page.goto('/');

  // Sign in: the dialog by keyboard, then the link from the e-mail.
  await moveFocusTo(page, page.getByRole('banner').getByRole('button', { name: 'Log in' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog').getByRole('textbox')).toBeFocused();
  await page.keyboard.type(email);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog').getByRole('status')).toContainText(email);
  await expect(page.getByRole('dialog').getByRole('button', { name: 'Close' })).toBeFocused();
  await page.keyboard.press('Enter');
  await page.goto(await inbox.waitForSignInLink(email));
  const welcome = page.getByRole('dialog', { name: 'Success' });
  await expect(welcome.getByRole('button', { name: 'OK', exact: true })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(welcome).toBeHidden();

  // Two products: each message closes back onto its button, and Tab goes on to the next card.
  for (const index of [0, 1]) {
    const addButton = addButtonOf(plainCard(page, index));
    await moveFocusTo(page, addButton);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('dialog', { name: 'Success' }).getByRole('button', { name: 'OK', exact: true })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(addButton).toBeFocused();
  }
  const cartLink = page.getByRole('banner').getByRole('link', { name: 'Cart, 2 items' });
  await moveFocusTo(page, cartLink, 'Shift+Tab');
  await page.keyboard.press('Enter');
  await moveFocusTo(page, page.getByRole('button', { name: 'Proceed to Checkout' }));
  await page.keyboard.press('Enter');

  // The address, field by field.
  const fields: Array<[string, string]> = [
    ['Full name', 'Maria Ivanova'],
    ['Street address', '12 Vitosha Blvd'],
    ['City', 'Sofia'],
    ['State / Province', 'Sofia City'],
    ['Postal code', '1000'],
    ['Phone number', '0888 123 456'],
  ];
  for (const [label, value] of fields) {
    await moveFocusTo(page, page.getByLabel(label));
    await page.keyboard.type(value);
  }
  await page.keyboard.press('Enter');
  await expect(page.getByRole('radio', { name: /Maria Ivanova/ })).toBeChecked();

  // Card instead of the default payment link: the arrow keys move within the radio group.
  await moveFocusTo(page, page.getByRole('radio', { name: /Pay by link/ }));
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('radio', { name: /Card/ })).toBeChecked();
  await moveFocusTo(page, page.getByRole('checkbox', { name: /accept the terms/ }));
  await page.keyboard.press('Space');
  await expect(page.getByRole('checkbox', { name: /accept the terms/ })).toBeChecked();
  await moveFocusTo(page, page.getByRole('button', { name: 'Place Order' }));
  await page.keyboard.press('Enter');
  const placed = page.getByRole('dialog', { name: 'Success' });
  await expect(placed.getByRole('button', { name: 'OK', exact: true })).toBeFocused();
  const orderId = /#(NA-[A-Z2-9]{8})/.exec((await placed.textContent())!)![1]!;
  await page.keyboard.press('Enter');

  await moveFocusTo(page, page.getByRole('listitem', { name: `Order #${orderId}` }).getByRole('button', { name: 'Pay Now' }));
  await page.keyboard.press('Enter');
  await moveFocusTo(page, page.getByRole('button', { name: 'Pay with card' }));
  await page.clock.install();
  const popupOpened = page.waitForEvent('popup');
  await page.keyboard.press('Enter');
  const popup = await popupOpened;
  await moveFocusTo(popup, popup.getByLabel('Card number'));
  await popup.keyboard.type('4242424242424242');
  await popup.keyboard.press('Tab');
  await popup.keyboard.type('Maria Ivanova');
  await popup.keyboard.press('Tab');
  await popup.keyboard.type('1230');
  await popup.keyboard.press('Tab');
  await popup.keyboard.type('123');
  await popup.keyboard.press('Enter');
  await paymentWindowCompletes(popup);

  await expect(page.getByRole('heading', { name: 'Payment Successful!' })).toBeVisible();
  const paid = (await (await page.request.get(`/api/orders/${orderId}`)).json()).order;
  expect(paid).toMatchObject({ status: 'paid', payment: { method: 'card', cardLast4: '4242' } });
  expect(paid.items).toHaveLength(2);
});
