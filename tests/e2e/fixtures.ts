import { test as base, expect, type APIRequestContext, type Locator, type Page, type PlaywrightWorkerArgs } from '@playwright/test';
import { startSmtpInbox, type SmtpInbox } from '../support/smtp-inbox.js';
import { startShopServer, type ShopServer } from './shop-server.js';
import { signInRequest } from './sign-in-steps.js';

export const SHOP_ADMIN_EMAIL = 'owner@example.com';
/**
 * A second admin, signed in once per worker through the API, for tests that only need the admin API
 * (to change a price, to cancel an order): its sign-in links count apart from SHOP_ADMIN_EMAIL's.
 */
export const API_ADMIN_EMAIL = 'back-office@example.com';

export interface Fixtures {
  /** Lets a test expect console errors that match (for example from a response it made fail on purpose). */
  allowConsoleErrors: (pattern: RegExp) => void;
  allowedConsoleErrors: RegExp[];
  consoleGuard: void;
}

/**
 * A worker's own shop, sending mail to a real SMTP server that the test reads, and an admin of it
 * signed in through the API. Each starts when a test of the worker first asks for it
 * (shop-fixtures.ts points `page` and `request` at the shop).
 */
export interface WorkerFixtures {
  inbox: SmtpInbox;
  shop: ShopServer;
  adminApi: APIRequestContext;
}

/**
 * Every test fails on a console error or an uncaught page error it did not expect.
 *
 * Every spec's tests use this one set of worker fixtures (a spec that needs a shop with settings of its
 * own starts it itself, in `beforeAll` or with its first test): Playwright runs a test only in a worker
 * whose worker fixtures are the same, so a second set would have its workers stopped and others
 * started, each with its browser and its shop, whenever the next test to run came from a spec of the
 * other set.
 */
export const test = base.extend<Fixtures, WorkerFixtures>({
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
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object
  allowedConsoleErrors: async ({}, use) => {
    await use([]);
  },
  allowConsoleErrors: async ({ allowedConsoleErrors }, use) => {
    await use((pattern) => allowedConsoleErrors.push(pattern));
  },
  consoleGuard: [
    async ({ page, allowedConsoleErrors }, use) => {
      const errors: string[] = [];
      watch(page, errors);
      page.context().on('page', (other) => watch(other, errors));
      await use();
      expect(errors.filter((error) => !allowedConsoleErrors.some((pattern) => pattern.test(error)))).toEqual([]);
    },
    { auto: true },
  ],
});

/** A client of the API signed in as the e-mail's owner (through the link mailed to the inbox), as another customer's browser would be. */
export async function signedInApi(playwright: PlaywrightWorkerArgs['playwright'], baseURL: string, inbox: SmtpInbox, email: string): Promise<APIRequestContext> {
  // A connection per request: a worker's client can sit unused for longer than the shop keeps an idle
  // connection (72 s), and a request sent on one the shop was closing failed with ECONNRESET.
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { ...clientAddressHeader(), connection: 'close' } });
  await signInRequest(api, inbox, email);
  return api;
}

let clients = 0;
/** A header that makes the shop see requests as coming from a client address of their own. */
export const clientAddressHeader = () => ({ 'x-forwarded-for': `10.77.${Math.floor(++clients / 250) % 250}.${clients % 250}.${process.pid % 250}`.split('.').slice(0, 4).join('.') });

function watch(page: Page, errors: string[]) {
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => errors.push(error.message));
}

export { expect };

/** True when the page is wider than the screen, which would mean horizontal scrolling. */
export async function hasHorizontalScroll(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
}

/** The button of a catalogue card that adds its product to the cart (its other button is the heart). */
export const addButtonOf = (card: Locator) => card.locator('.product-card__footer').getByRole('button');

/**
 * The catalogue card of the index-th product sold as it is, which its card adds to the cart; a
 * made-to-measure product's card leads to its page instead, where its options are chosen.
 */
export const plainCard = (page: Page, index: number) =>
  page
    .getByRole('article')
    .filter({ has: page.locator('.product-card__footer').getByRole('button') })
    .nth(index);
