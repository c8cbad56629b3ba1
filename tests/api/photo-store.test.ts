import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_IMAGE_WIDTHS, type Product } from '#shared/catalog.js';
import { seedDemoCatalogue } from '#server/catalog/seed-demo-catalogue.js';
import { admins, imageVariants, productPhotos, products } from '#server/db/schema.js';
import { demoProducts, readDemoPhoto } from '#server/demo/demo-catalogue.js';
import { copyImagesToDatabase } from '#server/images/copy-images-to-database.js';
import { DatabaseImageStore } from '#server/images/database-image-store.js';
import { FileImageStore } from '#server/images/file-image-store.js';
import { imageEtag } from '#server/images/image-store.js';
import { ProductImages } from '#server/images/product-images.js';
import { projectPath } from '#server/project-path.js';
import { pngImage, productForm } from './product-form.js';
import { signIn } from './sign-in.js';
import { createTestApp, databaseTargets, describeEachDatabase, type TestApp } from './test-app.js';
import { testProduct } from './test-products.js';
import { serverCommand } from '../support/server-code.js';

const fields = { nameEn: 'Opal Set', nameBg: 'Опалов комплект', descriptionEn: 'Ten opal nails.', descriptionBg: 'Десет опалови нокътя.', price: '30', category: 'nails' };
const CACHE_FOR_A_YEAR = 'public, max-age=31536000, immutable';
const onPostgres = databaseTargets.includes('postgres');

async function adminOf(testApp: TestApp): Promise<string> {
  await testApp.database.db.insert(admins).values({ id: 'keeper@example.com' }).onConflictDoNothing();
  return signIn(testApp, 'keeper@example.com');
}

async function newProduct(testApp: TestApp, admin: string, red = 40): Promise<Product> {
  const response = await testApp.app.inject({ method: 'POST', url: '/api/admin/products', ...productForm(fields, await pngImage(red), admin) });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ product: Product }>().product;
}

const keyOf = (url: string) => url.replace(/^\/images\//, '');
const image = (testApp: TestApp, url: string, width: number, headers: Record<string, string> = {}) => testApp.app.inject({ method: 'GET', url: `${url}?w=${width}`, headers });

describeEachDatabase('the product photo store', (context) => {
  let admin: string;
  beforeAll(async () => {
    admin = await adminOf(context());
  });

  it('keeps photos in PostgreSQL when the shop runs on it, and as files under DATA_DIR on the embedded database', async () => {
    const testApp = context();
    const key = keyOf((await newProduct(testApp, admin)).photos[0]!.url);
    const rows = await testApp.database.db.select().from(imageVariants).where(eq(imageVariants.key, key));
    const files = PRODUCT_IMAGE_WIDTHS.filter((width) => existsSync(new FileImageStore(testApp.dataDir).variantPath(key, width)));
    if (testApp.database.kind === 'postgres') {
      expect(rows.map((row) => row.width).sort((a, b) => a - b)).toEqual([...PRODUCT_IMAGE_WIDTHS]);
      for (const row of rows) expect(row.etag).toBe(imageEtag(row.bytes));
      expect(files).toEqual([]);
    } else {
      expect(rows).toEqual([]);
      expect(files).toEqual([...PRODUCT_IMAGE_WIDTHS]);
    }
  });

  it('serves each width for a year with its length and an ETag, and answers a matching If-None-Match with 304', async () => {
    const testApp = context();
    const { url } = (await newProduct(testApp, admin, 90)).photos[0]!;
    const etags = new Set<string>();
    for (const width of PRODUCT_IMAGE_WIDTHS) {
      const response = await image(testApp, url, width);
      expect(response.statusCode).toBe(200);
      expect(response.headers).toMatchObject({ 'content-type': 'image/webp', 'cache-control': CACHE_FOR_A_YEAR, 'content-length': String(response.rawPayload.length) });
      expect(response.headers.etag).toBe(imageEtag(response.rawPayload));
      etags.add(String(response.headers.etag));
    }
    expect(etags.size).toBe(PRODUCT_IMAGE_WIDTHS.length);

    const etag = String((await image(testApp, url, 320)).headers.etag);
    for (const ifNoneMatch of [etag, `W/${etag}`, `"elsewhere", ${etag}`, '*']) {
      const revalidated = await image(testApp, url, 320, { 'if-none-match': ifNoneMatch });
      expect(revalidated.statusCode, ifNoneMatch).toBe(304);
      expect(revalidated.rawPayload.length).toBe(0);
      expect(revalidated.headers).toMatchObject({ etag, 'cache-control': CACHE_FOR_A_YEAR });
    }
    // Another width's ETag, or one the image never had, gets the image itself.
    for (const ifNoneMatch of [String((await image(testApp, url, 640)).headers.etag), '"not-this-one"']) {
      const response = await image(testApp, url, 320, { 'if-none-match': ifNoneMatch });
      expect(response.statusCode).toBe(200);
      expect(response.headers.etag).toBe(etag);
    }
  });

  it('lists the stored images for orphan cleanup, and forgets a deleted product’s', async () => {
    const testApp = context();
    const product = await newProduct(testApp, admin, 150);
    const key = keyOf(product.photos[0]!.url);
    const referenced = (await testApp.database.db.select({ key: productPhotos.imageKey }).from(productPhotos)).map((row) => row.key);
    expect((await testApp.images.listKeys()).sort()).toEqual([...referenced].sort());
    const deleted = await testApp.app.inject({ method: 'DELETE', url: `/api/admin/products/${product.id}`, headers: { cookie: admin } });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await testApp.images.listKeys()).not.toContain(key);
    expect((await image(testApp, product.photos[0]!.url, 320)).statusCode).toBe(404);
  });
});

describeEachDatabase('the demo catalogue’s shipped photos', (context) => {
  it('become the demo products’ covers, stored and served byte for byte as shipped', async () => {
    const { app, database, images } = context();
    expect(await seedDemoCatalogue(database.db, images)).toBe(demoProducts.length);
    const listed = (await app.inject({ method: 'GET', url: '/api/products' })).json<{ products: Product[] }>().products;
    expect(listed).toHaveLength(demoProducts.length);
    for (const demo of demoProducts) {
      const product = listed.find((item) => item.name.en === demo.name);
      expect(product?.photos, demo.name).toHaveLength(1);
      const shipped = await readDemoPhoto(demo.photo);
      for (const width of PRODUCT_IMAGE_WIDTHS) {
        const response = await app.inject({ method: 'GET', url: `${product!.photos[0]!.url}?w=${width}` });
        expect(response.statusCode).toBe(200);
        expect(response.rawPayload.equals(shipped.get(width)!), `${demo.name} at ${width}`).toBe(true);
      }
    }
  });
});

describe.skipIf(!onPostgres)('photos on two server processes of one PostgreSQL database [postgres]', () => {
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    first = await createTestApp('postgres');
    second = await createTestApp('postgres', {}, { databaseUrl: first.databaseUrl });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('serves a photo uploaded through one process from the other, which has a DATA_DIR of its own', async () => {
    expect(second.dataDir).not.toBe(first.dataDir);
    const product = await newProduct(first, await adminOf(first), 70);
    const { url } = product.photos[0]!;
    for (const width of PRODUCT_IMAGE_WIDTHS) {
      const [here, there] = await Promise.all([image(first, url, width), image(second, url, width)]);
      expect(there.statusCode).toBe(200);
      expect(there.rawPayload.equals(here.rawPayload)).toBe(true);
      expect(there.headers.etag).toBe(here.headers.etag);
      // A browser that had it from one process revalidates it with the other.
      expect((await image(second, url, width, { 'if-none-match': String(here.headers.etag) })).statusCode).toBe(304);
    }

    // And the other way round: a photo added on the second process, then removed on the first.
    const secondAdmin = await adminOf(second);
    const added = await second.app.inject({ method: 'POST', url: `/api/admin/products/${product.id}/photos`, ...productForm({}, await pngImage(220), secondAdmin) });
    expect(added.statusCode, added.body).toBe(201);
    const photo = added.json<{ product: Product }>().product.photos[1]!;
    expect((await image(first, photo.url, 640)).statusCode).toBe(200);
    const removed = await first.app.inject({ method: 'DELETE', url: `/api/admin/products/${product.id}/photos/${photo.id}`, headers: { cookie: await adminOf(first) } });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await image(second, photo.url, 640)).statusCode).toBe(404);
  });
});

const run = promisify(execFile);

/** Runs npm run photos:to-database's program as its own process; its exit code and what it printed. */
async function moveCommand(environment: Record<string, string>): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, serverCommand('photos-to-database-cli.ts'), { cwd: projectPath(), env: { ...process.env, NODE_ENV: 'test', ...environment } });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

describe('npm run photos:to-database', () => {
  it('says what to do when DATABASE_URL is not set, and changes nothing', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'shop-photos-'));
    try {
      await new ProductImages(new FileImageStore(dataDir)).storeUpload(crypto.randomUUID(), await pngImage());
      const { code, output } = await moveCommand({ DATA_DIR: dataDir, DATABASE_URL: '' });
      expect(code).toBe(2);
      expect(output).toContain('DATABASE_URL is not set');
      expect(output).toContain('DATABASE_URL=postgres://');
      expect(await new FileImageStore(dataDir).listKeys()).toHaveLength(1);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  describe.skipIf(!onPostgres)('on PostgreSQL [postgres]', () => {
    let testApp: TestApp;
    let oldDataDir: string;
    let files: FileImageStore;
    const keys: string[] = [];

    beforeAll(async () => {
      testApp = await createTestApp('postgres');
      // The DATA_DIR of a shop that kept its photos as files: its products are in the database already.
      oldDataDir = await mkdtemp(path.join(tmpdir(), 'shop-old-data-'));
      files = new FileImageStore(oldDataDir);
      const filed = new ProductImages(files);
      for (const red of [30, 130]) {
        const [row] = await testApp.database.db.insert(products).values(testProduct({ name: `Filed ${red}`, priceMinor: 1000 })).returning();
        const imageKey = await filed.storeUpload(row!.id, await pngImage(red));
        await testApp.database.db.insert(productPhotos).values({ productId: row!.id, position: 0, imageKey });
        keys.push(imageKey);
      }
    });
    afterAll(async () => {
      await testApp?.close();
      await rm(oldDataDir, { recursive: true, force: true });
    });

    it('copies every photo into the database, where the app serves it as it was, and copies nothing twice', async () => {
      const url = (key: string) => `/images/${key}`;
      expect((await image(testApp, url(keys[0]!), 320)).statusCode).toBe(404);

      const database = new DatabaseImageStore(testApp.database.db);
      expect(await copyImagesToDatabase(files, database)).toEqual({ found: 2, copied: 2, alreadyThere: 0, incomplete: [] });
      for (const key of keys) {
        for (const width of PRODUCT_IMAGE_WIDTHS) {
          const served = await image(testApp, url(key), width);
          const filed = (await files.read(key, width))!;
          expect(served.statusCode).toBe(200);
          expect(served.rawPayload.equals(filed.bytes)).toBe(true);
          // The same ETag as before the move: browsers keep their copies.
          expect(served.headers.etag).toBe(filed.etag);
        }
      }
      expect(await copyImagesToDatabase(files, database)).toEqual({ found: 2, copied: 0, alreadyThere: 2, incomplete: [] });

      // A run that stopped halfway is completed by the next; a width missing from the files is named.
      await testApp.database.db.delete(imageVariants).where(and(eq(imageVariants.key, keys[0]!), eq(imageVariants.width, 640)));
      await rm(files.variantPath(keys[1]!, 960));
      expect(await copyImagesToDatabase(files, database)).toEqual({ found: 2, copied: 1, alreadyThere: 1, incomplete: [keys[1]] });
      expect((await image(testApp, url(keys[0]!), 640)).statusCode).toBe(200);
    });

    it('runs as a command that prints its counts', async () => {
      const newer = await new ProductImages(files).storeUpload(crypto.randomUUID(), await pngImage(250));
      const { code, output } = await moveCommand({ DATA_DIR: oldDataDir, DATABASE_URL: testApp.databaseUrl! });
      expect(code, output).toBe(0);
      expect(output).toContain(`${keys.length + 1} photo(s) found: 1 copied, ${keys.length} already in the database.`);
      expect((await image(testApp, `/images/${newer}`, 320)).statusCode).toBe(200);
    });
  });
});
