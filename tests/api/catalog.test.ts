import sharp from 'sharp';
import { beforeAll, expect, it } from 'vitest';
import type { Product } from '#shared/catalog.js';
import { seedDemoCatalogue } from '#server/catalog/seed-demo-catalogue.js';
import { products } from '#server/db/schema.js';
import { describeEachDatabase } from './test-app.js';
import { testProduct } from './test-products.js';

describeEachDatabase('catalogue', (context) => {
  beforeAll(async () => {
    const { database, images } = context();
    await seedDemoCatalogue(database.db, images);
  });

  it('lists at least 12 demo products across the four categories, ordered by name', async () => {
    const response = await context().app.inject({ method: 'GET', url: '/api/products' });
    expect(response.statusCode).toBe(200);
    const list = response.json<{ products: Product[] }>().products;
    expect(list.length).toBeGreaterThanOrEqual(12);
    expect(new Set(list.map((product) => product.category))).toEqual(new Set(['nails', 'nail-art', 'accessories', 'kits']));
    const names = list.map((product) => product.name.en);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    for (const product of list) {
      expect(product.name.en).not.toBe('');
      expect(product.name.bg).toMatch(/[а-я]/);
      expect(product.description.en.length).toBeGreaterThan(20);
      expect(product.description.bg).toMatch(/[а-я]/);
      expect(product.slug).toMatch(/^[a-z0-9-]+$/);
      expect(Number.isInteger(product.priceMinor) && product.priceMinor > 0).toBe(true);
      expect(product.photos[0]?.url).toMatch(/^\/images\/nails\/[0-9a-f-]{36}_\d+_[0-9a-f]{16}\.webp$/);
    }
  });

  it('serves each product image as a square WebP at the requested width', async () => {
    const { app } = context();
    const [product] = (await app.inject({ method: 'GET', url: '/api/products' })).json<{ products: Product[] }>().products;
    for (const [requested, stored] of [
      ['320', 320],
      ['500', 640],
      ['', 960],
      ['5000', 960],
    ] as const) {
      const response = await app.inject({ method: 'GET', url: `${product!.photos[0]!.url}?w=${requested}` });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('image/webp');
      expect(response.headers['cache-control']).toContain('immutable');
      const metadata = await sharp(response.rawPayload).metadata();
      expect(metadata).toMatchObject({ format: 'webp', width: stored, height: stored });
      expect(metadata.exif).toBeUndefined();
    }
  });

  it('answers 404 for unknown or malformed image names', async () => {
    const { app } = context();
    for (const url of ['/images/nails/00000000-0000-0000-0000-000000000000_1700000000000.webp', '/images/nails/..%2F..%2Fetc%2Fpasswd', '/images/nails/x.webp']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
    }
  });

  it('never seeds over an existing catalogue, and seeds only once', async () => {
    const { database, images } = context();
    const before = await database.db.select().from(products);
    expect(await seedDemoCatalogue(database.db, images)).toBe(0);
    await database.db.delete(products);
    expect(await seedDemoCatalogue(database.db, images)).toBe(0);
    expect(await database.db.select().from(products)).toEqual([]);
    await database.db.insert(products).values(before);
  });
});

describeEachDatabase('demo seeding of a catalogue that already has products', (context) => {
  it('leaves the products as they are', async () => {
    const { database, images } = context();
    await database.db.insert(products).values(testProduct({ name: 'Owner product', description: 'Made by the owner', priceMinor: 1000 }));
    expect(await seedDemoCatalogue(database.db, images)).toBe(0);
    const rows = await database.db.select().from(products);
    expect(rows.map((row) => row.nameEn)).toEqual(['Owner product']);
  });
});
