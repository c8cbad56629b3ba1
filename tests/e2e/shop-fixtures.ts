import type { APIRequestContext, Browser, Page, PlaywrightWorkerArgs } from '@playwright/test';
import { startSmtpInbox, type SmtpInbox } from '../support/smtp-inbox.js';
import { test as base } from './fixtures.js';
import { startShopServer, type ShopServer } from './shop-server.js';
import { signIn, signInRequest } from './sign-in-steps.js';

export { expect, hasHorizontalScroll } from './fixtures.js';

export const SHOP_ADMIN_EMAIL = 'owner@example.com';
/**
 * A second admin, signed in once per worker through the API, for tests that only need the admin API
 * (to change a price, to cancel an order): its sign-in links count apart from SHOP_ADMIN_EMAIL's.
 */
export const API_ADMIN_EMAIL = 'back-office@example.com';

/**
 * Tests that sign in get a shop of their own per worker, sending mail to a real SMTP server that the
 * test reads; `page` and `request` point at that shop.
 */
export const test = base.extend<object, { inbox: SmtpInbox; shop: ShopServer; adminApi: APIRequestContext }>({
  inbox: [
    // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object
    async ({}, use) => {
      const inbox = await startSmtpInbox();
      await use(inbox);
      await inbox.close();
    },
    { scope: 'worker' },
  ],
  shop: [
    async ({ inbox }, use) => {
      // TRUST_PROXY lets each test act as a client address of its own (see extraHTTPHeaders), so that
      // the per-client limit on sign-in links counts one test's requests, as it would one visitor's.
      const shop = await startShopServer({ SMTP_URL: inbox.url, ADMIN_EMAILS: `${SHOP_ADMIN_EMAIL},${API_ADMIN_EMAIL}`, TRUST_PROXY: 'true' });
      await use(shop);
      await shop.stop();
    },
    { scope: 'worker' },
  ],
  adminApi: [
    async ({ playwright, shop, inbox }, use) => {
      const api = await signedInApi(playwright, shop.baseURL, inbox, API_ADMIN_EMAIL);
      await use(api);
      await api.dispose();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ shop }, use) => use(shop.baseURL),
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object
  extraHTTPHeaders: async ({}, use) => use(clientAddressHeader()),
});

/** A client of the API signed in as the e-mail's owner (through the link mailed to the inbox), as another customer's browser would be. */
export async function signedInApi(playwright: PlaywrightWorkerArgs['playwright'], baseURL: string, inbox: SmtpInbox, email: string): Promise<APIRequestContext> {
  // A connection per request: a worker's client can sit unused for longer than the shop keeps an idle
  // connection (72 s), and a request sent on one the shop was closing failed with ECONNRESET.
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { ...clientAddressHeader(), connection: 'close' } });
  await signInRequest(api, inbox, email);
  return api;
}

/** A browser page of a shop of its own (a spec's), in the language given, signed in as the e-mail's owner and on the home page. */
export async function signedInPage(browser: Browser, shop: ShopServer, inbox: SmtpInbox, email: string, language: 'en' | 'bg' = 'en'): Promise<Page> {
  const context = await browser.newContext({ baseURL: shop.baseURL, extraHTTPHeaders: clientAddressHeader() });
  await context.addInitScript((chosen) => localStorage.setItem('language', chosen), language);
  const page = await context.newPage();
  await page.goto('/');
  await signIn(page, inbox, email);
  return page;
}

let clients = 0;
/** A header that makes the shop see requests as coming from a client address of their own. */
export const clientAddressHeader = () => ({ 'x-forwarded-for': `10.77.${Math.floor(++clients / 250) % 250}.${clients % 250}.${process.pid % 250}`.split('.').slice(0, 4).join('.') });

/** A new address for each call, so that tests never share a customer. */
export const uniqueEmail = (name: string) => `${name}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
