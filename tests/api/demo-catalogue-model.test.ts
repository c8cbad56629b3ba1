import { eq } from 'drizzle-orm';
import { afterEach, expect, it } from 'vitest';
import type { Product, ProductPageResponse } from '#shared/catalog.js';
import { bgnToEurMinor } from '#shared/money.js';
import { convertCatalogueToEuro } from '#server/catalog/currency.js';
import { seedDemoCatalogue } from '#server/catalog/seed-demo-catalogue.js';
import { products } from '#server/db/schema.js';
import { demoProducts } from '#server/demo/demo-catalogue.js';
import { createTestApp, databaseTargets, type TestApp } from './test-app.js';

let testApp: TestApp | undefined;
afterEach(async () => {
  await testApp?.close();
  testApp = undefined;
});

const productPage = async (app: TestApp, name: string): Promise<Product> => {
  const [row] = await app.database.db.select({ slug: products.slug }).from(products).where(eq(products.nameEn, name));
  return (await app.app.inject({ method: 'GET', url: `/api/products/by-slug/${row!.slug}` })).json<ProductPageResponse>().product;
};

for (const target of databaseTargets) {
  it(`seeds the demo sets with their options, sizes, questions, lead times and counts per combination [${target}]`, async () => {
    testApp = await createTestApp(target);
    expect(await seedDemoCatalogue(testApp.database.db, testApp.images)).toBe(demoProducts.length);
    for (const demo of demoProducts) {
      const product = await productPage(testApp, demo.name);
      const byKey = (list: { key: string }[]) => [...list].sort((a, b) => a.key.localeCompare(b.key));
      expect({ ...product, combinations: byKey(product.combinations) }, demo.name).toMatchObject({ ...demo.model, combinations: byKey(demo.model.combinations), stock: demo.stock });
    }
    const listed = (await testApp.app.inject({ method: 'GET', url: '/api/products?category=nails' })).json<{ products: Product[] }>().products;
    expect(listed.filter((product) => product.sized).length).toBeGreaterThanOrEqual(2);
    expect(listed.find((product) => product.stockMode === 'combination')?.combinations.length).toBeGreaterThan(0);
  });

  it(`converts the price differences with the prices when the catalogue goes to euro [${target}]`, async () => {
    testApp = await createTestApp(target);
    await seedDemoCatalogue(testApp.database.db, testApp.images);
    const demo = demoProducts.find((candidate) => candidate.model.stockMode === 'combination')!;
    await convertCatalogueToEuro(testApp.database.db);
    // Read from the table: this app still serves the catalogue in BGN, which it now refuses to.
    const [product] = await testApp.database.db.select().from(products).where(eq(products.nameEn, demo.name));
    expect(product!.priceMinor).toBe(bgnToEurMinor(demo.priceMinor));
    expect(product!.optionGroups[1]!.values.map((value) => value.priceDeltaMinor)).toEqual(demo.model.optionGroups[1]!.values.map((value) => bgnToEurMinor(value.priceDeltaMinor)));
    const wrapping = product!.questions.find((question) => question.kind === 'choice')!;
    expect(wrapping.kind === 'choice' && wrapping.choices.map((choice) => choice.priceDeltaMinor)).toEqual([bgnToEurMinor(300), bgnToEurMinor(700)]);
  });

  it(`seeds a euro shop's demo with its price differences in euro [${target}]`, async () => {
    testApp = await createTestApp(target);
    await seedDemoCatalogue(testApp.database.db, testApp.images, 'EUR');
    const demo = demoProducts.find((candidate) => candidate.model.sized)!;
    const product = await productPage(testApp, demo.name);
    expect(product.optionGroups[1]!.values.map((value) => value.priceDeltaMinor)).toEqual([0, 0, bgnToEurMinor(300), bgnToEurMinor(600)]);
  });
}
