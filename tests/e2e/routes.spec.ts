import { expect, test } from './fixtures.js';

test.describe('direct visits to every route of the app', () => {
  test('signed-out visitors see the sign-in prompts on profile and cart', async ({ page }) => {
    await page.goto('/profile?tab=addresses');
    await expect(page.getByText('Please sign in to view your profile.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Back to home' })).toBeVisible();
    await page.goto('/cart');
    await expect(page.getByText('Please sign in to view your cart.')).toBeVisible();
    await page.getByRole('link', { name: 'Back to home' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('signed-out visitors are sent home from checkout and admin', async ({ page }) => {
    for (const path of ['/checkout', '/admin']) {
      await page.goto(path);
      await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
      await expect(page.getByRole('heading', { level: 2, name: 'Featured Art Products' })).toBeVisible();
    }
  });

  test('the mock payment page stands alone, without header or footer', async ({ page }) => {
    await page.goto('/mock-payment/ORDER1?method=card');
    await expect(page.getByText('Please sign in to view this order.')).toBeVisible();
    await expect(page.getByRole('banner')).toHaveCount(0);
    await expect(page.getByRole('contentinfo')).toHaveCount(0);
  });

  test('an unknown path loads the app with a not-found page', async ({ page, allowConsoleErrors }) => {
    allowConsoleErrors(/status of 404/);
    const response = await page.goto('/no-such-page');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await expect(page.getByRole('banner')).toBeVisible();
  });
});
