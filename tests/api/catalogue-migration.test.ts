import { asc, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderItems, productPhotos, products, productSlugs, searchWords } from '#server/db/schema.js';
import { listProducts } from '#server/catalog/product-queries.js';
import { refreshSearchTexts } from '#server/catalog/product-writes.js';
import { migratedWith, type Target } from './migration-targets.js';
import { databaseTargets } from './test-app.js';

// A shop from before the catalogue had two languages: its texts become the English ones, each product
// gets a slug from its name (Cyrillic transliterated, a taken slug made unique), its image becomes
// its cover photo, and order lines keep their names.

for (const kind of databaseTargets) {
  describe(`the catalogue in two languages for an existing shop [${kind}]`, () => {
    let target: Target;

    beforeAll(async () => {
      target = await migratedWith(kind, '0004_catalogue', async (db) => {
        // Written as SQL: the tables do not have this release's columns yet.
        await db.execute(sql`insert into products (id, name, description, price_minor, image_key, created_at) values
          ('00000000-0000-4000-8000-00000000000a', 'Rose Set', 'Crème pink tips', 2000, 'nails/00000000-0000-4000-8000-00000000000a_1700000000000.webp', '2026-01-01T00:00:00Z'),
          ('00000000-0000-4000-8000-00000000000b', 'Rose  set!', 'Another rose', 1500, null, '2026-01-02T00:00:00Z'),
          ('00000000-0000-4000-8000-00000000000c', 'Перлена кутия', 'Кутия', 900, 'nails/00000000-0000-4000-8000-00000000000c_1700000000001.webp', '2026-01-03T00:00:00Z'),
          ('00000000-0000-4000-8000-00000000000d', '✨', 'Stars', 500, null, '2026-01-04T00:00:00Z')`);
        await db.execute(sql`insert into users (id, email) values ('00000000-0000-4000-8000-000000000001', 'old@example.com')`);
        await db.execute(sql`insert into orders (id, user_id, customer_email, subtotal_minor, tax_minor, shipping_minor, total_minor, item_count, item_description,
            payment_method, shipping_full_name, shipping_street_address, shipping_city, shipping_postal_code, shipping_country, shipping_phone)
          values ('NA-OLDORDER', '00000000-0000-4000-8000-000000000001', 'old@example.com', 2000, 100, 599, 2699, 1, 'Rose Set',
            'card', 'Maria Ivanova', '12 Vitosha Blvd', 'Sofia', '1000', 'BG', '+359 88 812 3456')`);
        await db.execute(sql`insert into order_items (order_id, position, product_id, name, price_minor) values
          ('NA-OLDORDER', 0, '00000000-0000-4000-8000-00000000000a', 'Rose Set', 2000)`);
      });
    });
    afterAll(async () => {
      await target?.close();
    });

    it('keeps the texts as English, and gives every product a unique slug from its name', async () => {
      const rows = await target.db.select().from(products).orderBy(asc(products.createdAt));
      expect(rows.map((row) => [row.nameEn, row.nameBg, row.descriptionEn, row.descriptionBg, row.slug])).toEqual([
        ['Rose Set', '', 'Crème pink tips', '', 'rose-set'],
        ['Rose  set!', '', 'Another rose', '', 'rose-set-00000000'],
        ['Перлена кутия', '', 'Кутия', '', 'perlena-kutiya'],
        ['✨', '', 'Stars', '', 'product'],
      ]);
      expect(await target.db.select().from(productSlugs)).toEqual([]);
    });

    it('makes each image the product’s cover photo', async () => {
      const photos = await target.db.select().from(productPhotos).orderBy(asc(productPhotos.imageKey));
      expect(photos.map((photo) => [photo.productId.slice(-1), photo.position, photo.imageKey, photo.altEn, photo.altBg])).toEqual([
        ['a', 0, 'nails/00000000-0000-4000-8000-00000000000a_1700000000000.webp', '', ''],
        ['c', 0, 'nails/00000000-0000-4000-8000-00000000000c_1700000000001.webp', '', ''],
      ]);
    });

    it('keeps the names order lines were placed with', async () => {
      expect((await target.db.select().from(orderItems)).map((item) => [item.nameEn, item.nameBg])).toEqual([['Rose Set', '']]);
    });

    it('writes the search text of products from before at the first start, once, with the words a search looks up', async () => {
      const db = target.db as Parameters<typeof refreshSearchTexts>[0];
      // A word of rules before today's, which no product holds.
      await db.insert(searchWords).values({ word: 'krem' });
      expect(await refreshSearchTexts(db)).toBe(4);
      const rows = await target.db.select({ searchText: products.searchText }).from(products).orderBy(asc(products.createdAt));
      expect(rows.map((row) => row.searchText)).toEqual(['rose set kreme pink tips', 'rose set anoter rose', 'perlena kutia kutia', 'stars']);
      const words = await target.db.select().from(searchWords).orderBy(asc(searchWords.word));
      expect(words.map((row) => row.word)).toEqual(['anoter', 'kreme', 'kutia', 'perlena', 'pink', 'rose', 'set', 'stars', 'tips']);
      expect((await listProducts(db, { q: 'perleni kutii', sort: 'relevance' })).products.map((product) => product.name.en)).toEqual(['Перлена кутия']);
      expect(await refreshSearchTexts(db)).toBe(0);
    });
  });
}
