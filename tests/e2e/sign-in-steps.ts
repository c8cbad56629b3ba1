import { expect, type Page } from '@playwright/test';
import type { SmtpInbox } from '../support/smtp-inbox.js';

/** Requests a sign-in link through the login dialog and returns the link from the delivered e-mail. */
export async function requestLinkThroughUi(page: Page, inbox: SmtpInbox, email: string): Promise<string> {
  await page.getByRole('banner').getByRole('button', { name: /^(Log in|Вход)$/ }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox').fill(email);
  await dialog.getByRole('button', { name: /^(Send sign-in link|Изпратете линк за вход)$/ }).click();
  await expect(dialog.getByRole('status')).toContainText(email);
  return await inbox.waitForSignInLink(email);
}

/**
 * Signs the page's browser in as the e-mail's owner and leaves it on the home page, signed in, where
 * the link in the e-mail would. The steps a visitor takes are the sign-in journey's test
 * (sign-in.spec.ts); everyone else asks for the link and uses it through the API, as the dialog and
 * the link's page do, which takes a fraction of the time. The API requests share the browser's cookies,
 * so the session cookie lands where a click on the link would put it; the production server is the
 * same, with no way in but the mailed link.
 */
export async function signIn(page: Page, inbox: SmtpInbox, email: string): Promise<void> {
  // The shop the page shows, which need not be the context's baseURL (two-servers.spec.ts).
  const shop = page.url().startsWith('http') ? new URL(page.url()).origin : '';
  const requested = await page.request.post(`${shop}/api/auth/sign-in-links`, { data: { email } });
  if (!requested.ok()) throw new Error(`Requesting the sign-in link of ${email} failed: ${requested.status()}`);
  const token = new URL(await inbox.waitForSignInLink(email)).searchParams.get('signInToken');
  const signedIn = await page.request.post(`${shop}/api/auth/sessions`, { data: { token, email } });
  if (!signedIn.ok()) throw new Error(`The sign-in of ${email} failed: ${signedIn.status()}`);
  await page.goto(`${shop}/`);
  await expect(page.getByRole('banner').getByRole('button', { name: /^(Log out|Изход)$/ })).toBeVisible();
}

/** The name the specs have called signIn by since it went through the UI; new tests call signIn. */
export const signInThroughUi = signIn;
