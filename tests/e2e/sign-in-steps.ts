import { expect, type APIRequestContext, type Page } from '@playwright/test';
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
 * Signs an API client in as the e-mail's owner the only way the shop offers: it asks for a link, reads
 * the link from the e-mail, and uses it, as the login dialog and the link's page do. `shop` is the
 * shop's origin when it is not the client's baseURL.
 */
export async function signInRequest(request: APIRequestContext, inbox: SmtpInbox, email: string, shop = ''): Promise<void> {
  const requested = await request.post(`${shop}/api/auth/sign-in-links`, { data: { email } });
  expect(requested.ok(), `requesting the sign-in link of ${email}: ${await requested.text()}`).toBe(true);
  const token = new URL(await inbox.waitForSignInLink(email)).searchParams.get('signInToken');
  const signedIn = await request.post(`${shop}/api/auth/sessions`, { data: { token, email } });
  expect(signedIn.ok(), `signing in as ${email}: ${await signedIn.text()}`).toBe(true);
}

/**
 * Signs the page's browser in as the e-mail's owner and leaves it on the home page, signed in, where
 * the link in the e-mail would. The steps a visitor takes are the sign-in journey's own tests
 * (sign-in.spec.ts, open-pages.spec.ts); here the link is asked for and used through the API, which
 * takes a fraction of the time. `page.request` shares the browser context's cookies, so the session
 * cookie lands where a click on the link would have put it.
 */
export async function signIn(page: Page, inbox: SmtpInbox, email: string): Promise<void> {
  // The shop the page shows, which need not be the context's baseURL (two-servers.spec.ts).
  const shop = page.url().startsWith('http') ? new URL(page.url()).origin : '';
  await signInRequest(page.request, inbox, email, shop);
  await page.goto(`${shop}/`);
  await expect(page.getByRole('banner').getByRole('button', { name: /^(Log out|Изход)$/ })).toBeVisible();
}
