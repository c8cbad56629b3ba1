import { expect, type Page } from '@playwright/test';

/** Ticks "I have read and accept the terms and conditions" at checkout, in either language. */
export async function acceptTerms(page: Page): Promise<void> {
  const box = page.getByRole('checkbox', { name: /accept the terms and conditions|приемам общите условия/ });
  await box.check();
  await expect(box).toBeChecked();
}
