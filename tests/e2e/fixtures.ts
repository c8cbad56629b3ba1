import { test as base, expect, type Locator, type Page } from '@playwright/test';

export interface Fixtures {
  /** Lets a test expect console errors that match (for example from a response it made fail on purpose). */
  allowConsoleErrors: (pattern: RegExp) => void;
  allowedConsoleErrors: RegExp[];
  consoleGuard: void;
}

/** Every test fails on a console error or an uncaught page error it did not expect. */
export const test = base.extend<Fixtures>({
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
