import { eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import type { AccountExport } from '#shared/account.js';
import type { ProductListResponse } from '#shared/catalog.js';
import { MAX_FAVOURITES, type FavouritesResponse } from '#shared/favourites.js';
import { favourites, products } from '#server/db/schema.js';
import { signIn } from './sign-in.js';
import { describeEachDatabase, type TestApp } from './test-app.js';
import { testProduct } from './test-products.js';

// The heart on cards and product pages: a signed-in customer's favourites, the same on each of her devices.

describeEachDatabase('favourites', (context) => {
  let productIds: string[];

  beforeAll(async () => {
    const rows = await context()
      .database.db.insert(products)
      .values(['Heart Pearl Set', 'Heart Opal Set', 'Heart Gold Foil'].map((name) => testProduct({ name, priceMinor: 1500, stock: 3 })))
      .returning({ id: products.id });
    productIds = rows.map((row) => row.id);
  });

  const put = (testApp: TestApp, cookie: string, productId: string) => testApp.app.inject({ method: 'PUT', url: `/api/favourites/${productId}`, headers: { cookie } });
  const remove = (testApp: TestApp, cookie: string, productId: string) => testApp.app.inject({ method: 'DELETE', url: `/api/favourites/${productId}`, headers: { cookie } });
  const list = async (testApp: TestApp, cookie: string) => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/favourites', headers: { cookie } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<FavouritesResponse>().productIds;
  };

  it('reads the products of a page of favourites in the order asked, leaving out those since deleted', async () => {
    const testApp = context();
    const [pearl, opal, gold] = productIds as [string, string, string];
    const byIds = (ids: string) => testApp.app.inject({ method: 'GET', url: `/api/products/by-ids?ids=${ids}` });
    const found = await byIds([gold, crypto.randomUUID(), pearl, gold].join(','));
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json<ProductListResponse>().products.map((product) => product.id)).toEqual([gold, pearl]);
    expect(found.json<ProductListResponse>().version).toEqual(expect.any(Number));
    expect((await byIds('')).json<ProductListResponse>().products).toEqual([]);
    expect((await byIds(`${opal},not-an-id`)).statusCode).toBe(400);
    expect((await byIds(Array.from({ length: 49 }, () => crypto.randomUUID()).join(','))).statusCode).toBe(400);
  });

  it('keeps each customer’s hearts, newest first, the same from every session, and only for her', async () => {
    const testApp = context();
    const [pearl, opal, gold] = productIds as [string, string, string];
    const phone = await signIn(testApp, 'hearts@example.com');
    const laptop = await signIn(testApp, 'hearts@example.com');
    const other = await signIn(testApp, 'other-hearts@example.com');
    for (const productId of [pearl, gold, opal, gold]) expect((await put(testApp, phone, productId)).statusCode).toBe(204);
    expect(new Set(await list(testApp, laptop))).toEqual(new Set([pearl, gold, opal]));
    expect((await list(testApp, laptop))[0]).toBe(opal);
    expect(await list(testApp, other)).toEqual([]);
    expect((await remove(testApp, laptop, gold)).statusCode).toBe(204);
    expect((await remove(testApp, laptop, gold)).statusCode).toBe(204);
    expect(new Set(await list(testApp, phone))).toEqual(new Set([pearl, opal]));

    // A visitor has none to read or change; unknown products and bad ids are refused.
    expect((await testApp.app.inject({ method: 'GET', url: '/api/favourites' })).statusCode).toBe(401);
    expect((await testApp.app.inject({ method: 'PUT', url: `/api/favourites/${pearl}` })).statusCode).toBe(401);
    expect((await put(testApp, phone, crypto.randomUUID())).statusCode).toBe(404);
    expect((await put(testApp, phone, 'not-an-id')).statusCode).toBe(404);

    // Her copy of her data holds them; deleting her account forgets them.
    const copy = (await testApp.app.inject({ method: 'GET', url: '/api/account/export', headers: { cookie: phone } })).json<AccountExport>();
    expect(new Set(copy.favourites)).toEqual(new Set([pearl, opal]));
    const heartsOf = async (productId: string) => (await testApp.database.db.select().from(favourites).where(eq(favourites.productId, productId))).length;
    expect(await heartsOf(opal)).toBe(1);
    const deleted = await testApp.app.inject({ method: 'DELETE', url: '/api/account', headers: { cookie: phone }, payload: { email: 'hearts@example.com' } });
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    expect(await heartsOf(opal)).toBe(0);
  });

  it('takes many hearts and un-hearts of one product at once without a failure, and keeps one heart at most', async () => {
    const testApp = context();
    const [pearl] = productIds as [string];
    const cookie = await signIn(testApp, 'toggles@example.com');
    // 20 at once, half each way: none fails, and one row at most.
    const answers = await Promise.all(Array.from({ length: 20 }, (_, index) => (index % 2 ? remove(testApp, cookie, pearl) : put(testApp, cookie, pearl))));
    expect(answers.map((answer) => answer.statusCode)).toEqual(answers.map(() => 204));
    expect((await list(testApp, cookie)).length).toBeLessThanOrEqual(1);
    // Then 20 hearts at once: one row.
    await Promise.all(Array.from({ length: 20 }, () => put(testApp, cookie, pearl)));
    expect(await list(testApp, cookie)).toEqual([pearl]);
    const rows = await testApp.database.db.select().from(favourites).where(eq(favourites.productId, pearl));
    expect(rows.filter((row) => row.userId === rows[0]!.userId)).toHaveLength(1);
  });

  it('joins a browser’s hearts to the account’s at sign-in, leaving out products that are gone, and refuses a list that is too long', async () => {
    const testApp = context();
    const [pearl, opal, gold] = productIds as [string, string, string];
    const cookie = await signIn(testApp, 'merge@example.com');
    expect((await put(testApp, cookie, pearl)).statusCode).toBe(204);
    const merged = await testApp.app.inject({ method: 'POST', url: '/api/favourites/merge', headers: { cookie }, payload: { productIds: [gold, pearl, crypto.randomUUID(), opal] } });
    expect(merged.statusCode, merged.body).toBe(200);
    expect(new Set(merged.json<FavouritesResponse>().productIds)).toEqual(new Set([pearl, opal, gold]));
    const tooMany = await testApp.app.inject({ method: 'POST', url: '/api/favourites/merge', headers: { cookie }, payload: { productIds: Array.from({ length: 101 }, () => crypto.randomUUID()) } });
    expect(tooMany.statusCode).toBe(400);
    const notIds = await testApp.app.inject({ method: 'POST', url: '/api/favourites/merge', headers: { cookie }, payload: { productIds: ['x'] } });
    expect(notIds.statusCode).toBe(400);
  });

  it(`keeps at most ${MAX_FAVOURITES} per customer`, async () => {
    const testApp = context();
    const many = await testApp.database.db
      .insert(products)
      .values(Array.from({ length: MAX_FAVOURITES + 1 }, (_, index) => testProduct({ name: `Many Hearts ${index}`, priceMinor: 100 })))
      .returning({ id: products.id });
    const cookie = await signIn(testApp, 'many@example.com');
    const merged = await testApp.app.inject({ method: 'POST', url: '/api/favourites/merge', headers: { cookie }, payload: { productIds: many.slice(0, 100).map((row) => row.id) } });
    expect(merged.json<FavouritesResponse>().productIds).toHaveLength(100);
    for (let start = 100; start < MAX_FAVOURITES; start += 100) {
      await testApp.app.inject({ method: 'POST', url: '/api/favourites/merge', headers: { cookie }, payload: { productIds: many.slice(start, start + 100).map((row) => row.id) } });
    }
    expect(await list(testApp, cookie)).toHaveLength(MAX_FAVOURITES);
    const refused = await put(testApp, cookie, many[MAX_FAVOURITES]!.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({ messageKey: 'favourites.errors.tooMany' });
    // One already kept is still no error.
    expect((await put(testApp, cookie, many[0]!.id)).statusCode).toBe(204);
  });
});
