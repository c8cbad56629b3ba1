import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { setTimeout as sleep } from 'node:timers/promises';
import { eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import type { Transaction } from '#server/db/client.js';
import { beforeAll, expect, it } from 'vitest';
import type { CatalogueResponse, Product, ProductPageResponse } from '#shared/catalog.js';
import { CatalogueCache, MAX_STALENESS_MS, type PreparedResponse } from '#server/catalog/catalogue-cache.js';
import { chooseEncoding } from '#server/http/content-encoding.js';
import { listCatalogue } from '#server/catalog/product-queries.js';
import { admins, products } from '#server/db/schema.js';
import { pngImage, productForm } from './product-form.js';
import { dropListeners } from '../support/drop-listeners.js';
import { eventually, fillCart, placeOrder } from './shopper.js';
import { signIn } from './sign-in.js';
import { createTestApp, describeEachDatabase, type TestApp } from './test-app.js';

// The catalogue is served from answers prepared once per query; these tests hold them to the same
// bytes in every encoding and to never being older than a change committed before the request.

const get = (testApp: TestApp, url: string, headers: Record<string, string> = {}) => testApp.app.inject({ method: 'GET', url, headers });

/** The body as the client reads it once it has undone the content encoding. */
function decoded(response: LightMyRequestResponse): Buffer {
  const encoding = response.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(response.rawPayload);
  if (encoding === 'gzip') return gunzipSync(response.rawPayload);
  expect(encoding).toBeUndefined();
  return response.rawPayload;
}

const catalogueOf = async (testApp: TestApp, url = '/api/products') => {
  const response = await get(testApp, url, { 'accept-encoding': 'gzip, deflate, br' });
  expect(response.statusCode, response.body).toBe(200);
  return { etag: String(response.headers.etag), catalogue: JSON.parse(decoded(response).toString()) as CatalogueResponse };
};

async function createProduct(testApp: TestApp, admin: string, name: string, fields: Record<string, string> = {}): Promise<Product> {
  const response = await testApp.app.inject({
    method: 'POST',
    url: '/api/admin/products',
    ...productForm({ nameEn: name, descriptionEn: 'Painted by hand.', price: '12.00', category: 'nails', ...fields }, await pngImage(180), admin),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ product: Product }>().product;
}

async function editPrice(testApp: TestApp, admin: string, product: Product, price: string): Promise<void> {
  const fields = { nameEn: product.name.en, descriptionEn: product.description.en, price, category: product.category };
  const response = await testApp.app.inject({ method: 'PUT', url: `/api/admin/products/${product.id}`, ...productForm(fields, undefined, admin) });
  expect(response.statusCode, response.body).toBe(200);
}

const priceIn = (catalogue: CatalogueResponse, product: Product) => catalogue.products.find((shown) => shown.id === product.id)?.priceMinor;

describeEachDatabase('the prepared catalogue', (context) => {
  let admin: string;
  let pearl: Product;

  beforeAll(async () => {
    const testApp = context();
    await testApp.database.db.insert(admins).values({ id: 'owner@example.com' });
    admin = await signIn(testApp, 'owner@example.com');
    pearl = await createProduct(testApp, admin, 'Pearl Tips', { stock: '3' });
    await createProduct(testApp, admin, 'Opal Tips');
  });

  it('sends the same body plain, gzipped and in brotli, each with its own ETag, by Accept-Encoding', async () => {
    const testApp = context();
    for (const url of ['/api/products', `/api/products/by-slug/${pearl.slug}`]) {
      const answers = await Promise.all(
        (['', 'gzip', 'gzip, deflate, br', 'br;q=0, gzip;q=0.5', '*', 'gzip;q=0, br;q=0'] as const).map((acceptEncoding) => get(testApp, url, acceptEncoding ? { 'accept-encoding': acceptEncoding } : {})),
      );
      expect(answers.map((answer) => answer.headers['content-encoding'])).toEqual([undefined, 'gzip', 'br', 'gzip', 'br', undefined]);
      const plain = answers[0]!.rawPayload;
      for (const answer of answers) {
        expect(answer.statusCode).toBe(200);
        expect(answer.headers).toMatchObject({ 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-cache', vary: 'accept-encoding' });
        expect(answer.headers['content-length']).toBe(String(answer.rawPayload.length));
        expect(decoded(answer).equals(plain)).toBe(true);
      }
      expect(answers[1]!.rawPayload.length).toBeLessThan(plain.length);
      expect(new Set(answers.map((answer) => answer.headers.etag)).size).toBe(3);
    }
    const page = JSON.parse((await get(testApp, `/api/products/by-slug/${pearl.slug}`)).body) as ProductPageResponse;
    expect(page.product.name.en).toBe('Pearl Tips');
    expect(page.related.map((product) => product.name.en)).toEqual(['Opal Tips']);
  });

  it('answers 304 to a client that holds the current answer, and the whole answer to one that holds another', async () => {
    const testApp = context();
    for (const url of ['/api/products?sort=price', `/api/products/by-slug/${pearl.slug}`]) {
      const first = await get(testApp, url, { 'accept-encoding': 'br' });
      const etag = String(first.headers.etag);
      const again = await get(testApp, url, { 'accept-encoding': 'br', 'if-none-match': `"other", ${etag}` });
      expect(again.statusCode).toBe(304);
      expect(again.rawPayload.length).toBe(0);
      expect(again.headers).toMatchObject({ etag, vary: 'accept-encoding', 'cache-control': 'no-cache' });
      expect((await get(testApp, url, { 'accept-encoding': 'br', 'if-none-match': `W/${etag}` })).statusCode).toBe(304);
      // The same validator names the brotli bytes, which a client that asks for plain JSON does not hold.
      expect((await get(testApp, url, { 'if-none-match': etag })).statusCode).toBe(200);
      expect((await get(testApp, url, { 'accept-encoding': 'br', 'if-none-match': '"other"' })).statusCode).toBe(200);
    }
    expect((await get(testApp, '/api/products/by-slug/no-such-product')).statusCode).toBe(404);
  });

  it('answers with the change at the first request after an admin’s edit, in the list and on the product page', async () => {
    const testApp = context();
    const before = await catalogueOf(testApp);
    const pageBefore = await get(testApp, `/api/products/by-slug/${pearl.slug}`);
    await editPrice(testApp, admin, pearl, '14.50');

    const after = await catalogueOf(testApp);
    expect(after.etag).not.toBe(before.etag);
    expect(priceIn(after.catalogue, pearl)).toBe(1450);
    expect(after.catalogue.version).toBe(before.catalogue.version + 1);
    const pageAfter = await get(testApp, `/api/products/by-slug/${pearl.slug}`, { 'if-none-match': String(pageBefore.headers.etag) });
    expect(pageAfter.statusCode).toBe(200);
    expect(pageAfter.json<ProductPageResponse>().product.priceMinor).toBe(1450);
  });

  it('answers with the new count at the first request after an order, and with the old answer again once the order is cancelled', async () => {
    const testApp = context();
    const before = await catalogueOf(testApp);
    const countBefore = before.catalogue.products.find((product) => product.id === pearl.id)!.stock!;
    const buyer = await signIn(testApp, 'buyer@example.com');
    await fillCart(testApp, buyer, [pearl.id]);
    const order = await placeOrder(testApp, buyer);

    const after = await catalogueOf(testApp);
    expect(after.catalogue.products.find((product) => product.id === pearl.id)!.stock).toBe(countBefore - 1);
    expect(after.etag).not.toBe(before.etag);
    const page = await get(testApp, `/api/products/by-slug/${pearl.slug}`);
    expect(page.json<ProductPageResponse>().product.stock).toBe(countBefore - 1);

    const cancelled = await testApp.app.inject({ method: 'PATCH', url: `/api/admin/orders/${order.orderId}/status`, headers: { cookie: admin }, payload: { status: 'cancelled' } });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    // A count back where it was is the same catalogue, so the same bytes.
    expect(await catalogueOf(testApp)).toEqual(before);
  });

  it('answers with a price written straight to the table, as no route would, at the first request after it', async (test) => {
    const testApp = context();
    // PostgreSQL's processes learn of changes from the catalogue's version, which every route that
    // changes a product raises, and from the stock counts; the embedded database's one process hears
    // every write to the products (migration 0010) before its commit returns.
    if (testApp.database.kind !== 'pglite') return test.skip();
    const before = await catalogueOf(testApp);
    await testApp.database.db.update(products).set({ priceMinor: 4321 }).where(eq(products.id, pearl.id));
    expect(priceIn((await catalogueOf(testApp)).catalogue, pearl)).toBe(4321);
    await testApp.database.db.update(products).set({ priceMinor: priceIn(before.catalogue, pearl)! }).where(eq(products.id, pearl.id));
    expect(await catalogueOf(testApp)).toEqual(before);
  });

  it('keeps at most its bound of answers, and reads an answer again only once it was pushed out', async () => {
    const testApp = context();
    const cache = new CatalogueCache(testApp.database.db, 3);
    const reads: string[] = [];
    const answer = (search: string) =>
      cache.answer(search, (tx) => {
        reads.push(search);
        return listCatalogue(tx, { q: search, sort: 'name', page: 1 });
      });
    for (const search of ['pearl', 'opal', 'tips', 'pearl', 'nails']) await answer(search);
    expect(cache.size).toBe(3);
    // 'opal' was the least recently used when 'nails' came.
    expect(reads).toEqual(['pearl', 'opal', 'tips', 'nails']);
    await answer('pearl');
    await answer('opal');
    expect(reads).toEqual(['pearl', 'opal', 'tips', 'nails', 'opal']);
    expect(cache.size).toBe(3);
  });

  it('gives a request that arrives while an answer is being read after a change the new catalogue, and keeps the old one out', async (test) => {
    const testApp = context();
    // PGlite runs one query at a time: the edit could not commit while the old answer's snapshot is open.
    if (testApp.database.kind !== 'postgres') return test.skip();
    const cache = new CatalogueCache(testApp.database.db);
    const read = (tx: Transaction) => listCatalogue(tx, { sort: 'name', page: 1 });
    const catalogue = async (answer: Promise<PreparedResponse>) => JSON.parse((await answer).body.toString()) as CatalogueResponse;
    await catalogue(cache.answer('list', read));

    let readOld!: () => void;
    let oldSnapshotRead!: () => void;
    const oldRead = new Promise<void>((resolve) => (oldSnapshotRead = resolve));
    const release = new Promise<void>((resolve) => (readOld = resolve));
    // A change makes the next request read; this one then waits with its snapshot taken before the next edit.
    await editPrice(testApp, admin, pearl, '30.00');
    const slow = catalogue(
      cache.answer('list', async (tx) => {
        const answer = await read(tx);
        oldSnapshotRead();
        await release;
        return answer;
      }),
    );
    await oldRead;
    await editPrice(testApp, admin, pearl, '31.00');
    expect(priceIn(await catalogue(cache.answer('list', read)), pearl)).toBe(3100);
    readOld();
    // It arrived before the edit, so the older answer is right for it, but it must not be kept.
    expect(priceIn(await slow, pearl)).toBe(3000);
    expect(priceIn(await catalogue(cache.answer('list', read)), pearl)).toBe(3100);
  });

  /** A price written as the routes write it (with a new catalogue version), with the change notices' triggers off, as if its notice were lost. */
  const writeWithoutNotice = (testApp: TestApp, product: Product, priceMinor: number) =>
    testApp.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.update(products).set({ priceMinor }).where(eq(products.id, product.id));
      await tx.execute(sql`update shop_state set value = (value::bigint + 1)::text where key = 'catalogue_version'`);
    });

  it('on PostgreSQL, trusts a state read until a notice, until a write of its own process, and for at most its bound when a notice is lost', async (test) => {
    const testApp = context();
    if (testApp.database.kind !== 'postgres') return test.skip();
    const read = (tx: Transaction) => listCatalogue(tx, { sort: 'name', page: 1 });
    const priceFrom = async (cache: CatalogueCache) => priceIn(JSON.parse((await cache.answer('list', read)).body.toString()) as CatalogueResponse, pearl)!;

    const patient = new CatalogueCache(testApp.database.db);
    const stopPatient = await patient.trustChangeNotices(testApp.database, 60_000);
    const bounded = new CatalogueCache(testApp.database.db);
    const stopBounded = await bounded.trustChangeNotices(testApp.database, 500);
    try {
      const price = await priceFrom(patient);
      // Without its notice, the change is not seen while the state read is trusted: no request reads the state.
      await writeWithoutNotice(testApp, pearl, price + 100);
      expect(await priceFrom(patient)).toBe(price);
      // A request of this process that may have written makes the next one read it.
      patient.distrust();
      expect(await priceFrom(patient)).toBe(price + 100);

      // The bound: once it has passed since the change, every answer has it.
      await priceFrom(bounded);
      await writeWithoutNotice(testApp, pearl, price + 200);
      await sleep(500);
      expect(await priceFrom(bounded)).toBe(price + 200);

      // A change with its notice is seen as soon as the notice arrives, long before the bound.
      await testApp.database.db.update(products).set({ priceMinor: price }).where(eq(products.id, pearl.id));
      await eventually(async () => (await priceFrom(patient)) === price, 2000, 'the change, once its notice arrived');

      // While the notices' connection is down, every request reads the state.
      expect(await dropListeners(testApp.databaseUrl!)).toBeGreaterThanOrEqual(1);
      await eventually(
        async () => {
          await writeWithoutNotice(testApp, pearl, price + 300);
          const seen = (await priceFrom(patient)) === price + 300;
          await writeWithoutNotice(testApp, pearl, price);
          return seen && (await priceFrom(patient)) === price;
        },
        5000,
        'every request to read the state once the notices were lost',
      );
    } finally {
      await stopPatient();
      await stopBounded();
      await testApp.database.db.update(products).set({ priceMinor: 1200 }).where(eq(products.id, pearl.id));
    }
  });
});

describeEachDatabase('the prepared catalogue on two server processes', (context) => {
  it('answers on one process with a change made on another once its notice arrives, well within the bound', async (test) => {
    const testApp = context();
    // PGlite serves one process (a second server on its DATA_DIR is refused), so only PostgreSQL has another process.
    if (testApp.database.kind !== 'postgres') return test.skip();
    const other = await createTestApp('postgres', {}, { databaseUrl: testApp.databaseUrl });
    try {
      await testApp.database.db.insert(admins).values({ id: 'owner@example.com' });
      const admin = await signIn(other, 'owner@example.com');
      const product = await createProduct(other, admin, 'Far Away Florals', { stock: '2' });
      const before = await catalogueOf(testApp);
      expect(priceIn(before.catalogue, product)).toBe(1200);

      await editPrice(other, admin, product, '13.00');
      const edited = Date.now();
      const after = await eventually(async () => {
        const answer = await catalogueOf(testApp);
        return priceIn(answer.catalogue, product) === 1300 && answer;
      }, MAX_STALENESS_MS * 5, 'the price edited on the other process');
      expect(Date.now() - edited).toBeLessThan(MAX_STALENESS_MS * 2);
      expect(after.etag).not.toBe(before.etag);

      const buyer = await signIn(other, 'buyer@example.com');
      await fillCart(other, buyer, [product.id]);
      await placeOrder(other, buyer);
      await eventually(async () => (await catalogueOf(testApp)).catalogue.products.find((shown) => shown.id === product.id)!.stock === 1, MAX_STALENESS_MS * 5, 'the stock taken on the other process');
    } finally {
      await other.close();
    }
  });
});

it('chooses brotli, then gzip, then none, among the encodings a client accepts', () => {
  expect(
    ['', 'gzip, deflate, br, zstd', 'gzip', 'deflate', 'BR;Q=1', 'br;q=0, *', 'br;q=0,gzip;q=0', '*;q=0', 'identity', 'br;q=nonsense, gzip'].map((header) => chooseEncoding(header)),
  ).toEqual(['identity', 'br', 'gzip', 'identity', 'br', 'gzip', 'identity', 'identity', 'identity', 'gzip']);
  expect(chooseEncoding(undefined)).toBe('identity');
  // A header read before is remembered, but what is available is asked each time.
  expect(chooseEncoding('gzip, deflate, br, zstd', (encoding) => encoding !== 'br')).toBe('gzip');
  // A client sending a new header each time changes no answer (what is remembered is bounded).
  const many = Array.from({ length: 200 }, (_, index) => (index % 2 === 0 ? `gzip;q=0.${index + 1}` : `br;q=0, x-${index}`));
  expect(new Set(many.map((header) => chooseEncoding(header)))).toEqual(new Set(['gzip', 'identity']));
  expect(chooseEncoding('br;q=0, x-1')).toBe('identity');
  expect(chooseEncoding('BR;Q=1')).toBe('br');
});
