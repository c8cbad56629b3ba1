import { expect, test } from './shop-fixtures.js';

// Product names are bilingual: the admin's table follows the language the admin reads it in.

test('the admin’s product table is sorted by the names in the admin’s language, and sorted again when it changes', async ({ page, adminApi }) => {
  await page.context().addCookies((await adminApi.storageState()).cookies);
  type Names = Record<'en' | 'bg', string>;
  const shown = (name: Names, language: 'en' | 'bg') => name[language] || name[language === 'en' ? 'bg' : 'en'];
  /** The catalogue's names in the order the shop sorts them in a language. */
  const sortedIn = async (language: 'en' | 'bg') =>
    ((await (await page.request.get(`/api/products?lang=${language}&sort=name`)).json()) as { products: { name: Names }[] }).products.map((product) => product.name);

  await page.goto('/admin?tab=products');
  const names = page.getByRole('table').getByRole('rowheader');
  await expect(names.first()).toBeVisible();
  const byEnglish = await sortedIn('en');
  const bulgarian = (await sortedIn('bg')).map((name) => shown(name, 'bg'));
  // The demo catalogue's Bulgarian names in the English order are not in Bulgarian order, which is what this shows.
  expect(byEnglish.map((name) => shown(name, 'bg'))).not.toEqual(bulgarian);
  await expect(names).toHaveText(byEnglish.map((name) => shown(name, 'en')));

  await page.getByRole('button', { name: 'Български' }).click();
  await expect(names).toHaveText(bulgarian);
});
