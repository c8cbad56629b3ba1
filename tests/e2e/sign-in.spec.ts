import type { Page } from '@playwright/test';
import { expect, SHOP_ADMIN_EMAIL, test, uniqueEmail as unique } from './shop-fixtures.js';
import { requestLinkThroughUi, signIn, signInRequest } from './sign-in-steps.js';

/**
 * Opens the home page and waits until the sign-in dialog's code and texts are there. The page fetches
 * them once it is idle (auth-dialogs.tsx), so that the dialog still opens after the connection drops;
 * on a busy machine that came after Playwright's "networkidle", and a test that went offline then
 * found no dialog to open. The page's own import of each file resolves once it and what it imports
 * have arrived and run, whichever import asked first.
 */
async function openWithSignInDialogReady(page: Page, language: 'en' | 'bg'): Promise<void> {
  const script = (name: RegExp) => page.waitForResponse((response) => name.test(new URL(response.url()).pathname)).then((response) => response.url());
  const code = script(/^\/assets\/login-dialog-[\w-]+\.js$/);
  const texts = script(new RegExp(`^/assets/${language}\\.pages-[\\w-]+\\.js$`));
  await page.goto('/');
  for (const url of await Promise.all([code, texts])) await page.evaluate((moduleUrl) => import(moduleUrl), url);
}

test('signs in with the link from the e-mail, stays signed in after reload, signs out, and the link works only once', async ({ page, inbox, allowConsoleErrors }) => {
  allowConsoleErrors(/status of 400/); // the second use of the link is refused
  const email = unique('shopper');
  await page.goto('/');
  const link = await requestLinkThroughUi(page, inbox, email);
  await expect(page.getByRole('dialog', { name: 'Check your inbox' })).toContainText(`We sent a sign-in link to ${email}.`);
  expect(await page.evaluate(() => localStorage.getItem('emailForSignIn'))).toBe(email);
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();

  await page.goto(link);
  await expect(page.getByRole('dialog', { name: 'Success' })).toContainText(`You are signed in as ${email}.`);
  await page.getByRole('button', { name: 'OK', exact: true }).click();
  expect(new URL(page.url()).search).toBe('');
  expect(await page.evaluate(() => localStorage.getItem('emailForSignIn'))).toBeNull();

  const header = page.getByRole('banner');
  await expect(header.getByRole('link', { name: 'Profile' })).toBeVisible();
  await expect(header.getByRole('link', { name: 'Cart, 0 items' })).toBeVisible();
  await expect(header.getByRole('link', { name: 'Admin' })).toHaveCount(0);

  await page.reload();
  await expect(header.getByRole('button', { name: 'Log out' })).toBeVisible();
  await header.getByRole('button', { name: 'Log out' }).click();
  await expect(header.getByRole('button', { name: 'Log in' })).toBeVisible();
  await expect(header.getByRole('link', { name: 'Profile' })).toHaveCount(0);

  // Signing out forgot the stored e-mail, so the shop asks for it before trying the link.
  await page.goto(link);
  const prompt = page.getByRole('dialog', { name: 'Confirm your e-mail' });
  await prompt.getByRole('textbox').fill(email);
  await prompt.getByRole('button', { name: 'Sign in' }).click();
  const failed = page.getByRole('dialog', { name: 'Sign-in failed' });
  await expect(failed).toContainText('This sign-in link has already been used.');
  await failed.getByRole('button', { name: 'Request a new link' }).click();
  await expect(page.getByRole('dialog', { name: 'Sign in' }).getByRole('textbox')).toHaveValue(email);
  await page.keyboard.press('Escape');
  await expect(header.getByRole('button', { name: 'Log in' })).toBeVisible();
});

test('signing out while the cart is still loading ends its request, so the server never refuses it', async ({ page, inbox }) => {
  await signInRequest(page.request, inbox, unique('hurried'));
  // The cart's request reaches the server just after the session has ended there, and its answer reaches
  // the page before the sign-out's does: the order in which a slow network can deliver them.
  let sessionEnded!: () => void;
  const sessionEndedOnServer = new Promise<void>((resolve) => (sessionEnded = resolve));
  let cartAnswered!: () => void;
  const cartAnsweredOnServer = new Promise<void>((resolve) => (cartAnswered = resolve));
  await page.route('**/api/cart', async (route) => {
    await sessionEndedOnServer;
    const response = await route.fetch();
    await route.fulfill({ response }).catch(() => undefined);
    cartAnswered();
  });
  await page.route('**/api/auth/session', async (route) => {
    if (route.request().method() !== 'DELETE') return route.fallback();
    const response = await route.fetch();
    sessionEnded();
    await cartAnsweredOnServer;
    await route.fulfill({ response });
  });
  const cartRequests: string[] = [];
  page.on('response', (response) => response.url().endsWith('/api/cart') && cartRequests.push(`answered ${response.status()}`));
  page.on('requestfailed', (request) => request.url().endsWith('/api/cart') && cartRequests.push('ended by the page'));
  await page.goto('/');
  const header = page.getByRole('banner');
  await header.getByRole('button', { name: 'Log out' }).click();
  await expect(header.getByRole('button', { name: 'Log in' })).toBeVisible();
  expect(cartRequests).toEqual(['ended by the page']);
});

test.describe('in Bulgarian', () => {
  test.use({ locale: 'bg-BG' });

  test('a link opened in another browser asks for the e-mail and then signs in', async ({ page, inbox, browser, baseURL, allowConsoleErrors }) => {
    const email = unique('traveller');
    await page.goto('/');
    const link = await requestLinkThroughUi(page, inbox, email);
    await expect(page.getByRole('dialog', { name: 'Проверете пощата си' })).toBeVisible();

    const otherDevice = await browser.newContext({ locale: 'bg-BG', baseURL });
    const other = await otherDevice.newPage();
    const otherErrors: string[] = [];
    other.on('console', (message) => message.type() === 'error' && otherErrors.push(message.text()));
    await other.goto(link);
    const prompt = other.getByRole('dialog', { name: 'Потвърдете имейла си' });
    await expect(prompt).toBeVisible();
    // The link's token is gone from the address; a Bulgarian page's address names its language.
    expect(new URL(other.url()).search).toBe('?lang=bg');

    await prompt.getByRole('textbox').fill('someone-else@example.com');
    await prompt.getByRole('button', { name: 'Вход' }).click();
    await expect(prompt.getByRole('alert')).toHaveText(
      'Този линк за вход е изпратен на друг имейл адрес. Проверете адреса или поискайте нов линк.',
    );
    await prompt.getByRole('textbox').fill(email);
    await prompt.getByRole('button', { name: 'Вход' }).click();
    await expect(other.getByRole('dialog', { name: 'Готово' })).toContainText(`Влязохте като ${email}.`);
    await other.getByRole('button', { name: 'Добре' }).click();
    await expect(other.getByRole('banner').getByRole('link', { name: 'Профил' })).toBeVisible();
    expect(otherErrors.filter((error) => !/status of 400/.test(error))).toEqual([]);
    await otherDevice.close();
    allowConsoleErrors(/status of 400/);
  });

  test('after three links that wait to be used, the refusal says when to try again', async ({ page, request, allowConsoleErrors }) => {
    allowConsoleErrors(/status of 429/); // the refused request
    const email = unique('forgetful');
    for (let attempt = 0; attempt < 3; attempt++) expect((await request.post('/api/auth/sign-in-links', { data: { email, language: 'bg' } })).status()).toBe(202);
    await page.goto('/');
    await page.getByRole('banner').getByRole('button', { name: 'Вход' }).click();
    const dialog = page.getByRole('dialog', { name: 'Вход' });
    await dialog.getByRole('textbox').fill(email);
    await dialog.getByRole('button', { name: 'Изпратете линк за вход' }).click();
    const alert = dialog.getByRole('alert');
    await expect(alert).toHaveText(
      /^Вече са изпратени твърде много неизползвани линкове за вход\. Моля, използвайте някой от тях или опитайте отново след 1[45] минути \(в \d{1,2}:\d\d\sч\.\)\.$/,
    );
    // The time named is when the oldest of the three links leaves the window, 15 minutes after it was sent.
    const named = /в (\d{1,2}):(\d\d)\sч\./.exec((await alert.textContent())!)!;
    const inFifteen = new Date(Date.now() + 15 * 60_000);
    const namedMinutes = Number(named[1]) * 60 + Number(named[2]);
    const expectedMinutes = inFifteen.getHours() * 60 + inFifteen.getMinutes();
    expect([0, 1, 1439]).toContain((expectedMinutes - namedMinutes + 1440) % 1440);
  });

  test('refuses to send a link while offline', async ({ page, context, allowConsoleErrors }) => {
    allowConsoleErrors(/ERR_INTERNET_DISCONNECTED/); // images that start loading after the switch cannot arrive offline
    await openWithSignInDialogReady(page, 'bg');
    await context.setOffline(true);
    await page.getByRole('banner').getByRole('button', { name: 'Вход' }).click();
    const dialog = page.getByRole('dialog', { name: 'Вход' });
    await dialog.getByRole('textbox').fill('offline@example.com');
    await dialog.getByRole('button', { name: 'Изпратете линк за вход' }).click();
    await expect(dialog.getByRole('alert')).toHaveText(
      'Изглежда нямате връзка с интернет. Моля, проверете връзката си и опитайте отново.',
    );
    await context.setOffline(false);
  });
});

test('refuses to send a link while offline, in English', async ({ page, context, allowConsoleErrors }) => {
  allowConsoleErrors(/ERR_INTERNET_DISCONNECTED/); // images that start loading after the switch cannot arrive offline
  await openWithSignInDialogReady(page, 'en');
  await context.setOffline(true);
  await page.getByRole('banner').getByRole('button', { name: 'Log in' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sign in' });
  await dialog.getByRole('textbox').fill('offline@example.com');
  await dialog.getByRole('button', { name: 'Send sign-in link' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('You appear to be offline. Please check your internet connection and try again.');
  await context.setOffline(false);
});

test('after three links that wait to be used, the refusal says when to try again, in English', async ({ page, request, allowConsoleErrors }) => {
  allowConsoleErrors(/status of 429/); // the refused request
  const email = unique('forgetful');
  for (let attempt = 0; attempt < 3; attempt++) expect((await request.post('/api/auth/sign-in-links', { data: { email } })).status()).toBe(202);
  await page.goto('/');
  await page.getByRole('banner').getByRole('button', { name: 'Log in' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sign in' });
  await dialog.getByRole('textbox').fill(email);
  await dialog.getByRole('button', { name: 'Send sign-in link' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(
    /^Too many sign-in links are waiting to be used\. Please use one we already sent, or try again in 1[45] minutes \(at \d\d:\d\d\)\.$/,
  );
});

test('an admin from ADMIN_EMAILS sees the admin link; a customer who opens /admin is sent home', async ({ page, inbox, browser, baseURL }) => {
  await page.goto('/');
  await signIn(page, inbox, SHOP_ADMIN_EMAIL);
  await expect(page.getByRole('banner').getByRole('link', { name: 'Admin' })).toBeVisible();

  const customerContext = await browser.newContext({ baseURL });
  const customer = await customerContext.newPage();
  await customer.goto('/');
  await signIn(customer, inbox, unique('customer'));
  await expect(customer.getByRole('banner').getByRole('link', { name: 'Admin' })).toHaveCount(0);
  await customer.goto('/admin');
  await expect(customer).toHaveURL(`${baseURL}/`);
  await customerContext.close();
});
