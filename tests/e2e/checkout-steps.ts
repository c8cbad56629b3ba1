import { expect, type Page } from '@playwright/test';
import { MOCK_PROCESSING_MS, MOCK_SUCCESS_MS } from '#shared/orders.js';

/** Ticks "I have read and accept the terms and conditions" at checkout, in either language. */
export async function acceptTerms(page: Page): Promise<void> {
  const box = page.getByRole('checkbox', { name: /accept the terms and conditions|приемам общите условия/ });
  await box.check();
  await expect(box).toBeChecked();
}

/**
 * Follows the simulated payment window, in either language, from the payment it was told to make to
 * its closing: processing, then the success message, then closed. Its two pauses pass on the page's
 * clock rather than the wall clock, so the test must install the clock (`page.clock.install()`) before
 * the window opens.
 */
export async function paymentWindowCompletes(popup: Page): Promise<void> {
  const closed = popup.waitForEvent('close');
  await expect(popup.getByText(/Processing payment\.\.\.|Плащането се обработва\.\.\./)).toBeVisible();
  await popup.clock.runFor(MOCK_PROCESSING_MS);
  await expect(popup.getByRole('heading', { name: /^(Payment Successful!|Плащането е успешно!)$/ })).toBeVisible();
  await popup.clock.runFor(MOCK_SUCCESS_MS);
  await closed;
}
