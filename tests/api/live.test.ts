import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CatalogueResponse, Product } from '#shared/catalog.js';
import { MAX_READY_STOCK_COUNTS, type CatalogueChangeEvent, type LiveReadyEvent } from '#shared/live.js';
import { catalogueChanged } from '#server/catalog/catalogue-state.js';
import { admins, products } from '#server/db/schema.js';
import { inTransaction } from '#server/db/transaction.js';
import { openEventStream, type EventStreamReader } from '../support/event-stream.js';
import { deliverMarker } from './live-marker.js';
import { pngImage, productForm } from './product-form.js';
import { signIn } from './sign-in.js';
import { createTestApp, describeEachDatabase, type TestApp } from './test-app.js';
import { testProduct } from './test-products.js';


async function createProduct(testApp: TestApp, admin: string, name: string, price: string): Promise<Product> {
  const response = await testApp.app.inject({
    method: 'POST',
    url: '/api/admin/products',
    ...productForm({ nameEn: name, descriptionEn: 'Glossy tips painted by hand.', price, category: 'nails' }, await pngImage(200), admin),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ product: Product }>().product;
}

async function editProduct(testApp: TestApp, admin: string, product: Product, changes: { name?: string; price?: string }) {
  const fields = {
    nameEn: changes.name ?? product.name.en,
    descriptionEn: product.description.en,
    price: changes.price ?? (product.priceMinor / 100).toFixed(2),
    category: product.category,
  };
  const response = await testApp.app.inject({ method: 'PUT', url: `/api/admin/products/${product.id}`, ...productForm(fields, undefined, admin) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ product: Product }>().product;
}

async function addPhoto(testApp: TestApp, admin: string, product: Product, image: Buffer) {
  const response = await testApp.app.inject({ method: 'POST', url: `/api/admin/products/${product.id}/photos`, ...productForm({}, image, admin) });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ product: Product }>().product;
}

async function removeProduct(testApp: TestApp, admin: string, product: Product) {
  const response = await testApp.app.inject({ method: 'DELETE', url: `/api/admin/products/${product.id}`, headers: { cookie: admin } });
  expect(response.statusCode, response.body).toBe(204);
}

const catalogue = async (testApp: TestApp) => (await testApp.app.inject({ method: 'GET', url: '/api/products' })).json<CatalogueResponse>();

/** The data of the stream's latest event of that name. */
function latest<T>(stream: EventStreamReader, name: string): T {
  const index = stream.events.lastIndexOf(name);
  if (index < 0) throw new Error(`No "${name}" event (got ${stream.events.join(', ')})`);
  return stream.data[index] as T;
}

/** A visitor's stream from a client address of its own, open once the server listens for it. */
async function openVisitorStream(address: string, clientAddress: string): Promise<EventStreamReader> {
  const stream = await openEventStream(`${address}/api/events`, null, { 'x-forwarded-for': clientAddress });
  await stream.waitFor('ready');
  return stream;
}

describeEachDatabase(
  'the catalogue on the live channel',
  (context) => {
    let address: string;
    let admin: string;
    const streams: EventStreamReader[] = [];
    const track = (stream: EventStreamReader) => (streams.push(stream), stream);

    beforeAll(async () => {
      const testApp = context();
      address = await testApp.app.listen({ port: 0, host: '127.0.0.1' });
      await testApp.database.db.insert(admins).values({ id: 'owner@example.com' });
      admin = await signIn(testApp, 'owner@example.com');
    });
    afterAll(() => {
      for (const stream of streams) stream.close();
    });

    it('tells an open page of a signed-out visitor of every product change, with the catalogue’s new version', async () => {
      const testApp = context();
      const visitor = track(await openVisitorStream(address, '10.20.0.1'));
      const ready = latest<LiveReadyEvent>(visitor, 'ready');
      expect(ready).toEqual({ catalogueVersion: (await catalogue(testApp)).version, stock: {}, signedIn: false });

      const created = await createProduct(testApp, admin, 'Aurora Tips', '18.00');
      await visitor.waitFor('products', 1000);
      const afterCreate = latest<CatalogueChangeEvent>(visitor, 'products').catalogueVersion;
      expect(afterCreate).toBe(ready.catalogueVersion + 1);
      expect(await catalogue(testApp)).toMatchObject({ version: afterCreate, products: expect.arrayContaining([expect.objectContaining({ name: { en: 'Aurora Tips', bg: '' }, priceMinor: 1800 })]) });

      const renamed = await editProduct(testApp, admin, created, { name: 'Aurora Tips II', price: '21.50' });
      await visitor.waitFor('products', 1000);
      expect(latest<CatalogueChangeEvent>(visitor, 'products').catalogueVersion).toBe(afterCreate + 1);
      expect((await catalogue(testApp)).products.find((product) => product.id === created.id)).toMatchObject({ name: { en: 'Aurora Tips II', bg: '' }, priceMinor: 2150 });

      const reimaged = await addPhoto(testApp, admin, renamed, await pngImage(40));
      expect(reimaged.photos.map((photo) => photo.url)).toEqual([renamed.photos[0]!.url, expect.not.stringMatching(renamed.photos[0]!.url)]);
      await visitor.waitFor('products', 1000);

      await removeProduct(testApp, admin, reimaged);
      await visitor.waitFor('products', 1000);
      const final = await catalogue(testApp);
      expect(final.version).toBe(afterCreate + 3);
      expect(latest<CatalogueChangeEvent>(visitor, 'products').catalogueVersion).toBe(final.version);
      expect(final.products.some((product) => product.id === created.id)).toBe(false);
      expect(visitor.events.filter((event) => event === 'products')).toHaveLength(4);
    });

    it('names, when a stream opens, the version of a change the page’s catalogue missed', async () => {
      const testApp = context();
      const seen = await catalogue(testApp);
      await createProduct(testApp, admin, 'Missed Moon Set', '9.90');
      const late = track(await openVisitorStream(address, '10.20.0.2'));
      expect(latest<LiveReadyEvent>(late, 'ready').catalogueVersion).toBe(seen.version + 1);
    });

    it('names, when a stream opens, a change whose notice has not come, on PostgreSQL', async ({ skip }) => {
      const testApp = context();
      // The embedded database tells the process of a change before its commit returns.
      if (!testApp.databaseUrl) return skip('PostgreSQL only: its notices come after the commit');
      const first = track(await openVisitorStream(address, '10.20.0.3'));
      const version = latest<LiveReadyEvent>(first, 'ready').catalogueVersion;
      // A change that sends no notice (triggers off), as one whose notice is still on its way looks.
      const client = new pg.Client({ connectionString: testApp.databaseUrl });
      await client.connect();
      try {
        await client.query("set session_replication_role = replica");
        await client.query("update shop_state set value = (value::integer + 1)::text where key = 'catalogue_version'");
      } finally {
        await client.end();
      }
      const next = track(await openVisitorStream(address, '10.20.0.4'));
      expect(latest<LiveReadyEvent>(next, 'ready').catalogueVersion).toBe(version + 1);
    });

    it('tells a signed-in customer’s page of product changes as well as of their own cart, and of nobody else’s', async () => {
      const testApp = context();
      const customer = await signIn(testApp, 'shopper@example.com');
      const page = track(await openEventStream(`${address}/api/events`, customer));
      await page.waitFor('ready');
      expect(latest<LiveReadyEvent>(page, 'ready').signedIn).toBe(true);
      const visitor = track(await openVisitorStream(address, '10.20.0.3'));

      const product = await createProduct(testApp, admin, 'Cherry Charms', '5.00');
      await page.waitFor('products', 1000);
      await visitor.waitFor('products', 1000);
      const added = await testApp.app.inject({
        method: 'POST',
        url: '/api/cart/operations',
        headers: { cookie: customer },
        payload: { operations: [{ id: randomUUID().replace(/-/g, ''), type: 'add', productId: product.id }] },
      });
      expect(added.statusCode).toBe(200);
      await page.waitFor('cart', 1000);
      await deliverMarker(testApp.database, [visitor]);
      expect(visitor.events).toEqual(['ready', 'products', 'stock']);
    });

    it('bounds a visitor’s streams per client address, and frees a place when one closes', async () => {
      const crowd: EventStreamReader[] = [];
      for (let count = 0; count < 20; count++) crowd.push(track(await openVisitorStream(address, '10.20.1.1')));
      const refused = await fetch(`${address}/api/events`, { headers: { 'x-forwarded-for': '10.20.1.1' } });
      expect(refused.status).toBe(429);
      expect(await refused.json()).toEqual({ error: { code: 'too_many_streams', message: expect.any(String) } });
      // Another address, and a signed-in page from the same one, are not held back.
      track(await openVisitorStream(address, '10.20.1.2'));
      const customer = await signIn(context(), 'crowded@example.com');
      track(await openEventStream(`${address}/api/events`, customer, { 'x-forwarded-for': '10.20.1.1' }));

      crowd[0]!.close();
      const started = Date.now();
      let reopened = await fetch(`${address}/api/events`, { headers: { 'x-forwarded-for': '10.20.1.1' } });
      // The server learns of the closed connection a moment later.
      while (reopened.status === 429 && Date.now() - started < 2000) {
        await reopened.body?.cancel();
        await new Promise((resolve) => setTimeout(resolve, 20));
        reopened = await fetch(`${address}/api/events`, { headers: { 'x-forwarded-for': '10.20.1.1' } });
      }
      expect(reopened.status).toBe(200);
      await reopened.body?.cancel();
    });
  },
  { TRUST_PROXY: 'true' },
);

describeEachDatabase(
  'visitors’ streams in all',
  (context) => {
    it('are bounded per server process, whatever their addresses, while signed-in pages still open theirs', async () => {
      const testApp = context();
      const address = await testApp.app.listen({ port: 0, host: '127.0.0.1' });
      const streams: EventStreamReader[] = [];
      try {
        for (const client of ['10.30.0.1', '10.30.0.2', '10.30.0.3']) streams.push(await openVisitorStream(address, client));
        const refused = await fetch(`${address}/api/events`, { headers: { 'x-forwarded-for': '10.30.0.4' } });
        expect(refused.status).toBe(429);
        expect((await refused.json()).error.code).toBe('too_many_streams');
        const customer = await signIn(testApp, 'late@example.com');
        streams.push(await openEventStream(`${address}/api/events`, customer, { 'x-forwarded-for': '10.30.0.4' }));
      } finally {
        for (const stream of streams) stream.close();
      }
    });
  },
  { TRUST_PROXY: 'true' },
  { liveMaxVisitorStreams: 3 },
);

describeEachDatabase('the catalogue on another server process', (context) => {
  it('reaches a visitor’s page on every process of the same PostgreSQL database', async (test) => {
    const testApp = context();
    // PGlite serves one process (a second server on its DATA_DIR is refused), so only PostgreSQL has another process to tell.
    if (testApp.database.kind !== 'postgres') return test.skip();
    const other = await createTestApp('postgres', {}, { databaseUrl: testApp.databaseUrl });
    let visitor: EventStreamReader | undefined;
    try {
      const otherAddress = await other.app.listen({ port: 0, host: '127.0.0.1' });
      visitor = await openEventStream(`${otherAddress}/api/events`, null);
      await visitor.waitFor('ready');
      await testApp.database.db.insert(admins).values({ id: 'owner@example.com' });
      const admin = await signIn(testApp, 'owner@example.com');
      const product = await createProduct(testApp, admin, 'Far Away Florals', '12.00');
      await visitor.waitFor('products', 1000);
      await editProduct(testApp, admin, product, { price: '13.00' });
      await visitor.waitFor('products', 1000);
      await removeProduct(testApp, admin, product);
      await visitor.waitFor('products', 1000);
      expect(latest<CatalogueChangeEvent>(visitor, 'products').catalogueVersion).toBe((await catalogue(other)).version);
    } finally {
      visitor?.close();
      await other.close();
    }
  });
});

describeEachDatabase('the counts in a new stream’s ready event', (context) => {
  it('carries every counted product’s count, more than a catalogue page of them, and past its limit the lowest counts', async () => {
    const testApp = context();
    const { db } = testApp.database;
    // One more counted product than the event carries: the one with the most pieces is left out.
    const counts = Array.from({ length: MAX_READY_STOCK_COUNTS + 1 }, (_, index) => (index * 7919) % 1000);
    const inserted = await db
      .insert(products)
      .values([...counts.map((stock, index) => testProduct({ name: `Counted ${index}`, priceMinor: 1000, stock })), testProduct({ name: 'Made to Order', priceMinor: 1000, stock: null })])
      .returning({ id: products.id, stock: products.stock });
    await inTransaction(db, (tx) => catalogueChanged(tx));
    const address = await testApp.app.listen({ port: 0, host: '127.0.0.1' });
    const stream = await openVisitorStream(address, '10.40.0.1');
    try {
      const { stock } = latest<LiveReadyEvent>(stream, 'ready');
      const highest = Math.max(...counts);
      const expected = Object.fromEntries(inserted.filter((row) => row.stock !== null && row.stock !== highest).map((row) => [row.id, row.stock]));
      expect(Object.keys(stock)).toHaveLength(MAX_READY_STOCK_COUNTS);
      expect(stock).toEqual(expected);
    } finally {
      stream.close();
    }
  });
});
