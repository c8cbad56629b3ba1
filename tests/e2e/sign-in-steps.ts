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

/** Signs in through the UI, from the login button to the link in the e-mail. */
export async function signInThroughUi(page: Page, inbox: SmtpInbox, email: string): Promise<void> {
  const link = await requestLinkThroughUi(page, inbox, email);
  await page.getByRole('dialog').getByRole('button', { name: /^(Close|Затворете)$/ }).click();
  await page.goto(link);
  const welcome = page.getByRole('dialog');
  await expect(welcome).toContainText(email);
  await welcome.getByRole('button', { name: /^(OK|Добре)$/ }).click();
  await expect(page.getByRole('banner').getByRole('button', { name: /^(Log out|Изход)$/ })).toBeVisible();
}
