import type { Browser, Page } from '@playwright/test';
import type { SmtpInbox } from '../support/smtp-inbox.js';
import { clientAddressHeader, test as base } from './fixtures.js';
import type { ShopServer } from './shop-server.js';
import { signIn } from './sign-in-steps.js';

export { API_ADMIN_EMAIL, clientAddressHeader, expect, hasHorizontalScroll, SHOP_ADMIN_EMAIL, signedInApi } from './fixtures.js';

/**
 * Tests that sign in use their worker's own shop (fixtures.ts), sending mail to a real SMTP server that
 * the test reads; `page` and `request` point at that shop. Only test-scoped fixtures change here, so
 * these tests share workers with every other spec's.
 */
export const test = base.extend({
  baseURL: async ({ shop }, use) => use(shop.baseURL),
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object
  extraHTTPHeaders: async ({}, use) => use(clientAddressHeader()),
});

/** A browser page of a shop of its own (a spec's), in the language given, signed in as the e-mail's owner and on the home page. */
export async function signedInPage(browser: Browser, shop: ShopServer, inbox: SmtpInbox, email: string, language: 'en' | 'bg' = 'en'): Promise<Page> {
  const context = await browser.newContext({ baseURL: shop.baseURL, extraHTTPHeaders: clientAddressHeader() });
  await context.addInitScript((chosen) => localStorage.setItem('language', chosen), language);
  const page = await context.newPage();
  await page.goto('/');
  await signIn(page, inbox, email);
  return page;
}

/** A new address for each call, so that tests never share a customer. */
export const uniqueEmail = (name: string) => `${name}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
