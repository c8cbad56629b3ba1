import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.js';

// Each language of an indexable page has its own address: English without a parameter, Bulgarian with
// ?lang=bg. The app keeps the address in step with the language shown, and the head it sets is the one
// the server sent for that address.

/** The head's page tags (and title) of a document, comparable between the served HTML and the live page. */
async function pageHead(page: Page, html?: string) {
  return page.evaluate((source) => {
    const document_ = source === undefined ? document : new DOMParser().parseFromString(source, 'text/html');
    const tags = [...document_.head.querySelectorAll('[data-page-meta]')].map((element) =>
      JSON.stringify([element.tagName, [...element.attributes].map((attribute) => [attribute.name, attribute.value]).sort(), element.textContent]),
    );
    return { title: document_.title, lang: document_.documentElement.lang, tags: tags.sort() };
  }, html);
}

test('switching the language on the home page gives it the language’s own address, kept across reloads', async ({ page, baseURL }) => {
  await page.goto('/?category=nails');
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome to Nail Art Atelier' })).toBeVisible();
  await expect(page).toHaveTitle('Nails | Nail Art Atelier');
  const canonical = page.locator('head link[rel="canonical"]');

  await page.getByRole('button', { name: 'Български' }).click();
  await expect(page).toHaveURL(`${baseURL}/?category=nails&lang=bg`);
  await expect(page.getByRole('heading', { level: 1, name: 'Добре дошли в Nail Art Atelier' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'bg');
  await expect(page).toHaveTitle('Нокти | Nail Art Atelier');
  await expect(canonical).toHaveAttribute('href', `${baseURL}/?category=nails&lang=bg`);
  await expect(page.locator('head link[hreflang="en"]')).toHaveAttribute('href', `${baseURL}/?category=nails`);

  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Добре дошли в Nail Art Atelier' })).toBeVisible();
  await expect(page).toHaveURL(`${baseURL}/?category=nails&lang=bg`);
  await expect(page.locator('html')).toHaveAttribute('lang', 'bg');
  await expect(page).toHaveTitle('Нокти | Nail Art Atelier');
  expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('bg');

  await page.getByRole('button', { name: 'English' }).click();
  await expect(page).toHaveURL(`${baseURL}/?category=nails`);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page).toHaveTitle('Nails | Nail Art Atelier');
  await expect(canonical).toHaveAttribute('href', `${baseURL}/?category=nails`);
});

test('an address that names a language wins over the stored choice, and becomes it', async ({ page, baseURL, allowConsoleErrors }) => {
  allowConsoleErrors(/status of 404 \(Not Found\) \(.*\/no-such-page\)/); // the unknown page is answered with 404 by design
  await page.goto('/');
  await page.evaluate(() => localStorage.setItem('language', 'en'));
  await page.goto('/?lang=bg');
  await expect(page.getByRole('heading', { level: 1, name: 'Добре дошли в Nail Art Atelier' })).toBeVisible();
  await expect(page).toHaveTitle('Nail Art Atelier | Ръчно изработени нокти и нейл арт');
  expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('bg');

  // The choice now holds without the parameter too, and the address says so again.
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Добре дошли в Nail Art Atelier' })).toBeVisible();
  await expect(page).toHaveURL(`${baseURL}/?lang=bg`);

  // Pages that are not indexed keep their address as it is.
  await page.goto('/no-such-page');
  await expect(page.getByRole('link', { name: 'Към началната страница' })).toBeVisible();
  await expect(page).toHaveURL(`${baseURL}/no-such-page`);
});

test('the app sets the same head as the server sent for the address', async ({ page }) => {
  const [first] = (await (await page.request.get('/api/products?category=nails')).json()).products as { slug: string }[];
  // English first: the language shown is the address's, else the one stored by the page before.
  for (const address of ['/?category=kits', `/product/${first!.slug}`, '/?lang=bg', `/product/${first!.slug}?lang=bg`]) {
    const served = await (await page.request.get(address)).text();
    await page.goto(address);
    await expect(page.getByRole('article').first()).toBeVisible();
    const expected = await pageHead(page, served);
    expect(expected.tags.length).toBeGreaterThan(10);
    await expect.poll(() => pageHead(page)).toEqual(expected);
  }
});
