import { beforeAll, expect, it } from 'vitest';
import type { CatalogueResponse } from '#shared/catalog.js';
import type { OptionGroup } from '#shared/product-options.js';
import { products } from '#server/db/schema.js';
import { describeEachDatabase, type TestApp } from './test-app.js';
import { testProduct } from './test-products.js';

// The catalogue's filters with their counts: price bands, "available now", and the options the
// matching products offer, each in the address and counted with the other filters applied.

const list = async (testApp: TestApp, query: Record<string, string> = {}) => {
  const response = await testApp.app.inject({ method: 'GET', url: '/api/products', query });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<CatalogueResponse>();
};
const namesOf = (catalogue: CatalogueResponse) => catalogue.products.map((product) => product.name.en).sort();

const value = (id: string, en: string, bg: string) => ({ id, name: { en, bg }, priceDeltaMinor: 0 });
const shapes = (...names: [string, string][]): OptionGroup => ({ id: 'shape', name: { en: 'Shape', bg: 'Форма' }, values: names.map(([en, bg]) => value(en.toLowerCase(), en, bg)) });
const lengths = (...names: [string, string][]): OptionGroup => ({ id: 'length', name: { en: 'Length', bg: 'Дължина' }, values: names.map(([en, bg]) => value(en.toLowerCase(), en, bg)) });
const ALMOND: [string, string] = ['Almond', 'Бадем'];
const COFFIN: [string, string] = ['Coffin', 'Балерина'];
const SHORT: [string, string] = ['Short', 'Къси'];
const LONG: [string, string] = ['Long', 'Дълги'];

describeEachDatabase('filters with counts', (context) => {
  beforeAll(async () => {
    await context()
      .database.db.insert(products)
      .values([
        { ...testProduct({ name: 'Facet Rose Almond', priceMinor: 900, category: 'nails', stock: 3 }), optionGroups: [shapes(ALMOND, COFFIN), lengths(SHORT)] },
        { ...testProduct({ name: 'Facet Opal Coffin', priceMinor: 1500, category: 'nails', stock: 0 }), optionGroups: [shapes(COFFIN), lengths(SHORT, LONG)] },
        { ...testProduct({ name: 'Facet Gold Almond', priceMinor: 2500, category: 'nails', stock: null }), optionGroups: [shapes(ALMOND), lengths(LONG)] },
        { ...testProduct({ name: 'Facet Glue Kit', priceMinor: 4500, category: 'kits', stock: 2 }) },
        { ...testProduct({ name: 'Facet Mini Decals', priceMinor: 1000, category: 'nail-art', stock: 0 }) },
        // A product in no category: "All" counts it.
        { ...testProduct({ name: 'Facet Loose Charm', priceMinor: 500, stock: null }) },
        // An admin who named an option in English only: it counts with the others, which name it in Bulgarian too.
        { ...testProduct({ name: 'Facet English Only', priceMinor: 5200, category: 'kits', stock: 1 }), optionGroups: [{ ...shapes(ALMOND), name: { en: 'Shape', bg: '' }, values: [value('almond', 'Almond', '')] }] },
      ]);
  });

  it('counts each price band, "available now" and the categories for a search', async () => {
    const found = await list(context(), { q: 'facet' });
    expect(found.total).toBe(7);
    expect(found.facets.prices).toEqual([
      { band: '0-10', count: 2 },
      { band: '10-20', count: 2 },
      { band: '20-40', count: 1 },
      { band: '40-', count: 2 },
    ]);
    // Sold out: the opal set and the decals; made to order (no count) can be ordered.
    expect(found.facets.available).toBe(5);
    expect(found.facets.all).toBe(7);
    expect(found.facets.categories.filter((category) => category.count > 0)).toEqual([
      { category: 'nails', count: 3 },
      { category: 'nail-art', count: 1 },
      { category: 'kits', count: 2 },
    ]);
    expect(found.facets.options).toEqual([
      {
        group: { en: 'Shape', bg: 'Форма' },
        values: [
          { key: 'Shape:Almond', name: { en: 'Almond', bg: 'Бадем' }, count: 3 },
          { key: 'Shape:Coffin', name: { en: 'Coffin', bg: 'Балерина' }, count: 2 },
        ],
      },
      {
        group: { en: 'Length', bg: 'Дължина' },
        values: [
          { key: 'Length:Long', name: { en: 'Long', bg: 'Дълги' }, count: 2 },
          { key: 'Length:Short', name: { en: 'Short', bg: 'Къси' }, count: 2 },
        ],
      },
    ]);
  });

  it('filters by price band, by what can be ordered now and by options, each counted with the others applied', async () => {
    const testApp = context();
    const tenToTwenty = await list(testApp, { q: 'facet', price: '10-20' });
    expect(namesOf(tenToTwenty)).toEqual(['Facet Mini Decals', 'Facet Opal Coffin']);
    // The bands are counted without the band chosen, the rest with it.
    expect(tenToTwenty.facets.prices.map((band) => band.count)).toEqual([2, 2, 1, 2]);
    expect(tenToTwenty.facets.available).toBe(0);
    expect(tenToTwenty.total).toBe(2);

    const available = await list(testApp, { q: 'facet', available: '1' });
    expect(namesOf(available)).toEqual(['Facet English Only', 'Facet Glue Kit', 'Facet Gold Almond', 'Facet Loose Charm', 'Facet Rose Almond']);
    expect(available.facets.available).toBe(5);
    expect(available.facets.prices.map((band) => band.count)).toEqual([2, 0, 1, 2]);

    const almond = await list(testApp, { q: 'facet', options: 'Shape:Almond', category: 'nails' });
    expect(namesOf(almond)).toEqual(['Facet Gold Almond', 'Facet Rose Almond']);
    // The total is the chosen category's count; "all" counts every category.
    expect(almond.total).toBe(2);
    expect(almond.facets.categories.find((facet) => facet.category === 'nails')?.count).toBe(2);
    expect(almond.facets.all).toBe(3);
    expect(namesOf(await list(testApp, { q: 'facet', options: 'Shape:Almond' }))).toEqual(['Facet English Only', 'Facet Gold Almond', 'Facet Rose Almond']);
    expect(almond.facets.options.find((group) => group.group.en === 'Length')?.values.map((length) => [length.key, length.count])).toEqual([
      ['Length:Long', 1],
      ['Length:Short', 1],
    ]);
    const almondLong = await list(testApp, { options: 'Shape:Almond|Length:Long', category: 'nails' });
    expect(namesOf(almondLong)).toEqual(['Facet Gold Almond']);
    // Every filter at once.
    expect(namesOf(await list(testApp, { options: 'Shape:Almond|Length:Long', price: '20-40', available: '1' }))).toEqual(['Facet Gold Almond']);
  });

  it('reads odd filters as no filter or as text, never as a pattern or a JSON injection', async () => {
    const testApp = context();
    const everything = await list(testApp, { q: 'facet' });
    expect((await list(testApp, { q: 'facet', price: '5-7' })).total).toBe(everything.total);
    expect((await list(testApp, { q: 'facet', available: 'yes' })).total).toBe(everything.total);
    expect((await list(testApp, { q: 'facet', options: 'nocolon|:|Shape:' })).total).toBe(everything.total);
    expect((await list(testApp, { q: 'facet', options: 'Shape:Almond"}]' })).total).toBe(0);
    expect((await list(testApp, { q: 'facet', options: `Shape:${'%'.repeat(300)}` })).total).toBe(0);
    expect((await list(testApp, { q: 'facet', options: 'Shape:Alm_nd' })).total).toBe(0);
    // A search that finds nothing has nothing to count.
    const nothing = await list(testApp, { q: 'zzqxv' });
    expect(nothing.facets.available).toBe(0);
    expect(nothing.facets.options).toEqual([]);
  });

  it('names the filters in the page head’s address as the app does', async () => {
    const page = await context().app.inject({ method: 'GET', url: '/?q=facet&price=20-40&options=Shape:Almond' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Facet Gold Almond');
    expect(page.body).not.toContain('Facet Rose Almond');
  });
});
