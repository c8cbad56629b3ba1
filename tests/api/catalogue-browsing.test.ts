import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import type { CartItem } from '#shared/cart.js';
import type { CatalogueResponse, Product, ProductPageResponse } from '#shared/catalog.js';
import { priceLines } from '#shared/pricing.js';
import type { Order } from '#shared/orders.js';
import { admins, products } from '#server/db/schema.js';
import { pngImage, productForm } from './product-form.js';
import { sofia } from './sample-data.js';
import { signIn } from './sign-in.js';
import { describeEachDatabase, type TestApp } from './test-app.js';
import { testProduct } from './test-products.js';

// Browsing the catalogue: the server filters by category, searches names and descriptions in both
// languages (case and accents aside, the search always plain text), sorts and pages; product pages
// are found by slug, also by the slugs a product had before a rename.

const list = async (testApp: TestApp, query: Record<string, string> = {}) => {
  const response = await testApp.app.inject({ method: 'GET', url: '/api/products', query });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<CatalogueResponse>();
};
const namesOf = (catalogue: CatalogueResponse) => catalogue.products.map((product) => product.name.en || product.name.bg);

describeEachDatabase('browsing the catalogue', (context) => {
  beforeAll(async () => {
    const { database } = context();
    const day = (n: number) => new Date(Date.UTC(2026, 0, n));
    await database.db.insert(products).values([
      { ...testProduct({ name: 'Blush Pearl Set', nameBg: 'Комплект „Розова перла“', description: 'Almond tips with glass pearls.', priceMinor: 3400, category: 'nails' }), createdAt: day(1) },
      { ...testProduct({ name: 'Crème Brûlée Tips', nameBg: 'Нокти „Крем брюле“', description: 'Caramel glaze.', descriptionBg: 'Карамелена глазура.', priceMinor: 2900, category: 'nails' }), createdAt: day(2) },
      { ...testProduct({ name: '', nameBg: 'Перлена кутийка', description: '', descriptionBg: 'Кутийка за съхранение с перли.', priceMinor: 1800, category: 'accessories' }), createdAt: day(3) },
      { ...testProduct({ name: '100% Glitter_Kit', description: "A kit for 'sparkle' lovers.", priceMinor: 5100, category: 'kits' }), createdAt: day(4) },
      { ...testProduct({ name: 'Lemon Decals', nameBg: 'Лимонови стикери', description: 'Bright yellow lemons.', priceMinor: 900, category: 'nail-art' }), createdAt: day(5) },
    ]);
  });

  it('finds products by any part of a name or description in either language, whatever the case and accents', async () => {
    const testApp = context();
    expect(namesOf(await list(testApp, { q: 'pearl' }))).toEqual(['Blush Pearl Set']);
    expect(namesOf(await list(testApp, { q: 'PEARL' }))).toEqual(['Blush Pearl Set']);
    expect(namesOf(await list(testApp, { q: 'перл' }))).toEqual(['Blush Pearl Set', 'Перлена кутийка']);
    expect(namesOf(await list(testApp, { q: 'ПЕРЛ' }))).toEqual(['Blush Pearl Set', 'Перлена кутийка']);
    expect(namesOf(await list(testApp, { q: 'creme brulee' }))).toEqual(['Crème Brûlée Tips']);
    expect(namesOf(await list(testApp, { q: 'брюле' }))).toEqual(['Crème Brûlée Tips']);
    expect(namesOf(await list(testApp, { q: 'глазура' }))).toEqual(['Crème Brûlée Tips']);
    expect(namesOf(await list(testApp, { q: 'lem' }))).toEqual(['Lemon Decals']);
  });

  it('searches words only: wildcards, quotes and injection attempts are no pattern, and a long search is bounded', async () => {
    const testApp = context();
    // A search of no word (punctuation alone) has nothing to look for and leaves the catalogue as it is.
    for (const q of ['%', '_', '\\', `${'%'.repeat(600)}${'_'.repeat(600)}`]) expect((await list(testApp, { q })).total, q).toBe(5);
    expect(namesOf(await list(testApp, { q: '0% glitter_' }))).toEqual(['100% Glitter_Kit']);
    expect(namesOf(await list(testApp, { q: "'sparkle'" }))).toEqual(['100% Glitter_Kit']);
    // A % parts two words, and is no wildcard: "pe%rl" is the words "pe" and "rl", and no word starts with "rl".
    expect(namesOf(await list(testApp, { q: 'pearl%set' }))).toEqual(['Blush Pearl Set']);
    expect(namesOf(await list(testApp, { q: 'pe%rl' }))).toEqual([]);
    expect(namesOf(await list(testApp, { q: "x' or '1'='1" }))).toEqual([]);
    expect(namesOf(await list(testApp, { q: "'; drop table products; --" }))).toEqual([]);
    expect(namesOf(await list(testApp, { q: 'a'.repeat(1000) }))).toEqual([]);
    const [count] = await testApp.database.db.select({ total: sql<number>`count(*)::int` }).from(products);
    expect(count?.total).toBe(5);
  });

  it('reads a search holding a NUL, which PostgreSQL cannot take, without it, in the API and the page head', async () => {
    const testApp = context();
    expect(namesOf(await list(testApp, { q: 'pe\u0000arl' }))).toEqual(['Blush Pearl Set']);
    expect(namesOf(await list(testApp, { q: '\u0000' })).length).toBe(5);
    const encoded = await testApp.app.inject({ method: 'GET', url: '/api/products?q=a%00b&category=%00&sort=%00&page=%00&lang=%00' });
    expect(encoded.statusCode, encoded.body).toBe(200);
    const page = await testApp.app.inject({ method: 'GET', url: '/?q=pe%00arl', headers: { accept: 'text/html' } });
    expect(page.statusCode, page.body).toBe(200);
  });

  it('filters by category, ignores an unknown one, and tells how many match', async () => {
    const testApp = context();
    const nails = await list(testApp, { category: 'nails' });
    expect(namesOf(nails)).toEqual(['Blush Pearl Set', 'Crème Brûlée Tips']);
    expect(nails.total).toBe(2);
    expect(namesOf(await list(testApp, { category: 'nails', q: 'caramel' }))).toEqual(['Crème Brûlée Tips']);
    expect((await list(testApp, { category: 'shoes' })).total).toBe(5);
  });

  it('sorts by name in the asked language, by newest, and by price both ways', async () => {
    const testApp = context();
    expect(namesOf(await list(testApp))).toEqual(['100% Glitter_Kit', 'Blush Pearl Set', 'Crème Brûlée Tips', 'Lemon Decals', 'Перлена кутийка']);
    const bulgarian = await list(testApp, { lang: 'bg' });
    // Products named in Bulgarian first, then those with only an English name.
    expect(bulgarian.products.map((product) => product.name.bg || product.name.en)).toEqual([
      'Комплект „Розова перла“',
      'Лимонови стикери',
      'Нокти „Крем брюле“',
      'Перлена кутийка',
      '100% Glitter_Kit',
    ]);
    expect(namesOf(await list(testApp, { sort: 'newest' }))).toEqual(['Lemon Decals', '100% Glitter_Kit', 'Перлена кутийка', 'Crème Brûlée Tips', 'Blush Pearl Set']);
    expect((await list(testApp, { sort: 'price' })).products.map((product) => product.priceMinor)).toEqual([900, 1800, 2900, 3400, 5100]);
    expect((await list(testApp, { sort: 'price-desc' })).products.map((product) => product.priceMinor)).toEqual([5100, 3400, 2900, 1800, 900]);
  });

  it('pages a large catalogue', async () => {
    const testApp = context();
    await testApp.database.db
      .insert(products)
      .values(Array.from({ length: 50 }, (_, index) => testProduct({ name: `Page Charm ${String(index).padStart(2, '0')}`, priceMinor: 500, category: 'kits' })));
    const first = await list(testApp, { q: 'page charm' });
    expect(first).toMatchObject({ total: 50, page: 1, pageSize: 48 });
    expect(first.products).toHaveLength(48);
    const second = await list(testApp, { q: 'page charm', page: '2' });
    expect(namesOf(second)).toEqual(['Page Charm 48', 'Page Charm 49']);
    // A page past the last still tells how many match.
    expect(await list(testApp, { q: 'page charm', page: '3' })).toMatchObject({ products: [], total: 50 });
    expect((await list(testApp, { q: 'page charm', page: 'nonsense' })).page).toBe(1);
    await testApp.database.db.delete(products).where(sql`${products.nameEn} like 'Page Charm%'`);
  });
});

describeEachDatabase('product pages and names in both languages', (context) => {
  let admin = '';
  beforeAll(async () => {
    const testApp = context();
    await testApp.database.db.insert(admins).values({ id: 'maker@example.com' });
    admin = await signIn(testApp, 'maker@example.com');
  });

  const create = async (testApp: TestApp, fields: Record<string, string>) => {
    const response = await testApp.app.inject({ method: 'POST', url: '/api/admin/products', ...productForm({ price: '25.00', category: 'nails', ...fields }, await pngImage(), admin) });
    return response;
  };
  const edit = (testApp: TestApp, product: Product, fields: Record<string, string>) =>
    testApp.app.inject({
      method: 'PUT',
      url: `/api/admin/products/${product.id}`,
      ...productForm({ nameEn: product.name.en, nameBg: product.name.bg, descriptionEn: product.description.en, descriptionBg: product.description.bg, price: '25.00', ...fields }, undefined, admin),
    });
  const page = (testApp: TestApp, slug: string) => testApp.app.inject({ method: 'GET', url: `/api/products/by-slug/${slug}` });

  it('keeps a name and a description in each language, and needs them in at least one', async () => {
    const testApp = context();
    const both = await create(testApp, { nameEn: 'Opal Moon', nameBg: 'Опалова луна', descriptionEn: 'Milky opal tips.', descriptionBg: 'Млечни опалови нокти.' });
    expect(both.statusCode, both.body).toBe(201);
    expect(both.json<{ product: Product }>().product).toMatchObject({
      slug: 'opal-moon',
      name: { en: 'Opal Moon', bg: 'Опалова луна' },
      description: { en: 'Milky opal tips.', bg: 'Млечни опалови нокти.' },
    });
    const bulgarianOnly = await create(testApp, { nameBg: 'Перлен комплект', descriptionBg: 'Нокти с перли.' });
    expect(bulgarianOnly.statusCode, bulgarianOnly.body).toBe(201);
    expect(bulgarianOnly.json<{ product: Product }>().product).toMatchObject({ slug: 'perlen-komplekt', name: { en: '', bg: 'Перлен комплект' } });
    const incomplete: Record<string, string>[] = [{ descriptionEn: 'No name.' }, { nameEn: 'No description' }, { nameEn: '  ', nameBg: ' ', descriptionEn: 'x' }];
    for (const fields of incomplete) {
      const refused = await create(testApp, fields);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.message).toContain('admin.products.messages.requiredFields');
    }
  });

  it('gives each product a unique slug from its name, and keeps old slugs leading to it after a rename', async () => {
    const testApp = context();
    const first = (await create(testApp, { nameEn: 'Star Dust', descriptionEn: 'Silver.' })).json<{ product: Product }>().product;
    const twin = (await create(testApp, { nameEn: 'Star Dust!', descriptionEn: 'Gold.' })).json<{ product: Product }>().product;
    expect([first.slug, twin.slug]).toEqual(['star-dust', 'star-dust-2']);

    const found = await page(testApp, 'star-dust');
    expect(found.statusCode).toBe(200);
    expect(found.json<ProductPageResponse>().product.id).toBe(first.id);

    // Changing only the description or the case of the name keeps the address.
    const described = (await edit(testApp, first, { descriptionEn: 'Silver dust.', nameEn: 'Star dust' })).json<{ product: Product }>().product;
    expect(described.slug).toBe('star-dust');

    const renamed = (await edit(testApp, described, { nameEn: 'Moon Dust' })).json<{ product: Product }>().product;
    expect(renamed.slug).toBe('moon-dust');
    const old = await page(testApp, 'star-dust');
    expect(old.statusCode).toBe(200);
    expect(old.json<ProductPageResponse>().product).toMatchObject({ id: first.id, slug: 'moon-dust' });

    // A new product may not take an address that still leads to another.
    const third = (await create(testApp, { nameEn: 'Star Dust', descriptionEn: 'Bronze.' })).json<{ product: Product }>().product;
    expect(third.slug).toBe('star-dust-3');

    // Renamed back, the product has its first address again.
    expect((await edit(testApp, renamed, { nameEn: 'Star Dust' })).json<{ product: Product }>().product.slug).toBe('star-dust');
    expect((await page(testApp, 'moon-dust')).json<ProductPageResponse>().product.slug).toBe('star-dust');

    await testApp.app.inject({ method: 'DELETE', url: `/api/admin/products/${twin.id}`, headers: { cookie: admin } });
    for (const slug of ['star-dust-2', 'no-such-product', 'Star-Dust', '..%2Fetc', 'a'.repeat(90)]) expect((await page(testApp, slug)).statusCode, slug).toBe(404);
  });

  it('shows other products of the same category on a product page', async () => {
    const testApp = context();
    const rows = await testApp.database.db
      .insert(products)
      .values([testProduct({ name: 'Kit One', priceMinor: 100, category: 'kits' }), testProduct({ name: 'Kit Two', priceMinor: 100, category: 'kits' })])
      .returning();
    const answer = (await page(testApp, rows[0]!.slug)).json<ProductPageResponse>();
    expect(answer.product.name.en).toBe('Kit One');
    expect(answer.related.map((product) => product.name.en)).toContain('Kit Two');
    expect(answer.related.every((product) => product.category === 'kits' && product.id !== answer.product.id)).toBe(true);
  });

  it('gives cart lines the product’s current names in both languages, and keeps in an order the names it was placed with', async () => {
    const testApp = context();
    const [product] = await testApp.database.db.insert(products).values(testProduct({ name: 'Rose Glass File', nameBg: 'Розова стъклена пила', priceMinor: 1500 })).returning();
    const cookie = await signIn(testApp, 'shopper@example.com');
    await testApp.app.inject({ method: 'POST', url: '/api/addresses', headers: { cookie }, payload: sofia });
    const added = await testApp.app.inject({
      method: 'POST',
      url: '/api/cart/operations',
      headers: { cookie },
      payload: { operations: [{ id: randomUUID().replace(/-/g, ''), type: 'add', productId: product!.id }] },
    });
    const items = added.json<{ items: CartItem[] }>().items;
    expect(items[0]!.name).toEqual({ en: 'Rose Glass File', bg: 'Розова стъклена пила' });
    const placed = await testApp.app.inject({
      method: 'POST',
      url: '/api/orders',
      headers: { cookie },
      payload: { idempotencyKey: randomUUID(), acceptTerms: true, expectedTotalMinor: priceLines(items).total },
    });
    expect(placed.statusCode, placed.body).toBe(201);
    const orderId = placed.json<{ order: Order }>().order.orderId;
    await testApp.database.db.update(products).set({ nameEn: 'Blue Glass File', nameBg: 'Синя стъклена пила' }).where(eq(products.id, product!.id));
    const order = (await testApp.app.inject({ method: 'GET', url: `/api/orders/${orderId}`, headers: { cookie } })).json<{ order: Order }>().order;
    expect(order.items.map((item) => item.name)).toEqual([{ en: 'Rose Glass File', bg: 'Розова стъклена пила' }]);
  });
});
