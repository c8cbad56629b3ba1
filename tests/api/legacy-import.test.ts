import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { asc, eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Address } from '#shared/addresses.js';
import type { CartResponse } from '#shared/cart.js';
import type { Order } from '#shared/orders.js';
import { addresses, admins, cartItems, importedRecords, mailQueue, orders, productPhotos, products, users } from '#server/db/schema.js';
import { ImportImages } from '#server/import/import-images.js';
import { printImportReport } from '#server/import/import-report.js';
import { LegacyExportError, readLegacyExport } from '#server/import/legacy-export.js';
import type { ImportReport } from '#server/import/import-run.js';
import { importLegacyExport, type LegacyImportOptions } from '#server/import/legacy-import.js';
import { legacyExport, newerLegacyExport } from '../support/legacy-sample.js';
import { signIn } from './sign-in.js';
import { createTestApp, databaseTargets, type TestApp } from './test-app.js';

/** A server of the old shop's photos: two real PNGs, one missing, one that is no image. */
async function startPhotoServer(): Promise<{ url: string; server: Server; requests: string[] }> {
  const png = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#d4a5b8' } }).png().toBuffer();
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(request.url ?? '');
    if (request.url === '/photos/almond.png' || request.url === '/photos/coffin.png') response.writeHead(200, { 'content-type': 'image/png' }).end(png);
    else if (request.url === '/photos/not-an-image.png') response.writeHead(200, { 'content-type': 'image/png' }).end('<svg onload="alert(1)"></svg>');
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/photos`, server, requests };
}

const problemsOf = (report: ImportReport) => report.problems.map((problem) => `${problem.collection}/${problem.id}/${problem.field}: ${problem.message}`);

for (const target of databaseTargets) {
  describe(`importing the original app's data [${target}]`, () => {
    let testApp: TestApp;
    let photos: Awaited<ReturnType<typeof startPhotoServer>>;
    let options: LegacyImportOptions;
    const run = (data: unknown, dryRun = false) => importLegacyExport(testApp.database.db, readLegacyExport(JSON.stringify(data)), { ...options, dryRun });

    beforeAll(async () => {
      photos = await startPhotoServer();
      testApp = await createTestApp(target, { SEED_DEMO: 'false' });
      options = { dryRun: false, images: new ImportImages(undefined), productImages: testApp.images, shopCurrency: 'BGN', exportCurrency: 'BGN', orderLanguage: 'bg', publicUrl: 'http://shop.test' };
    });
    afterAll(async () => {
      await testApp?.close();
      await new Promise((resolve) => photos?.server.close(resolve));
    });

    it('refuses a file that is not an export as a whole, before anything is written', () => {
      expect(() => readLegacyExport('{"products": ')).toThrow(LegacyExportError);
      expect(() => readLegacyExport('[1, 2]')).toThrow('its top level must be an object of collections');
      expect(() => readLegacyExport('{"carts": {}}')).toThrow('none of the collections art-users, products, orders, admins');
    });

    it('in a dry run writes nothing and reports what it would create and every problem, record by record', async () => {
      const report = await run(legacyExport(photos.url), true);
      expect(report.counts).toEqual({
        'art-users': { created: 2, updated: 0, unchanged: 0, skipped: 2 },
        products: { created: 4, updated: 0, unchanged: 0, skipped: 1 },
        orders: { created: 4, updated: 0, unchanged: 0, skipped: 2 },
        admins: { created: 2, updated: 0, unchanged: 0, skipped: 0 },
      });
      const problems = problemsOf(report);
      for (const expected of [
        'wishlists//: is not a collection of the original app; skipped',
        'products/prod-glue/price: is not an amount ("ask us"); read as 0',
        'products/prod-kit/category: "gifts" is not a category of the shop; left without one',
        'products/prod-nameless/name: is missing; the product was not imported',
        'art-users/MARIA@Example.com/email: maria@example.com is the address of another document too (e-mail addresses are the same in any case); this one was skipped',
        'art-users/petya@example.com/addresses: is not a list; left empty',
        'art-users/broken-user/: is not a document; skipped',
        'art-users/maria@example.com/cart: product prod-gone is not in the shop; its cart line was left out',
        'orders/ORD-1004/total: none of total, totalAmount and pricing.total is there; the lines were added up',
        'orders/ORD-1005/customerEmail: is not an e-mail address; the order was not imported',
        'orders/ORD-1006/: is not a document; skipped',
      ]) {
        expect(problems).toContain(expected);
      }
      expect(problems.some((problem) => problem.startsWith('products/prod-glue/imageUrl:') && problem.includes('answered 404') && problem.endsWith('the product has no photo from it'))).toBe(true);
      expect(problems).toContain('products/prod-kit/imageUrl: Only JPEG, PNG and WebP images are accepted. The product has no photo from it.');
      const db = testApp.database.db;
      for (const table of [products, users, orders, admins, importedRecords, productPhotos]) expect(await db.select().from(table)).toEqual([]);
      expect(await testApp.images.listKeys()).toEqual([]);
      expect(printImportReport(report)).toMatch(/^Dry run: nothing was written\. An import would do this:\n {2}art-users {2}2 create, 0 update, 0 leave unchanged, 2 skip\n/);
    });

    it('imports products, customers with their addresses and carts, orders with their ids, totals, statuses and payments, and admins, sending no e-mail', async () => {
      const report = await run(legacyExport(photos.url));
      expect(report.counts.orders).toEqual({ created: 4, updated: 0, unchanged: 0, skipped: 2 });
      const db = testApp.database.db;

      const catalogue = await db.select().from(products).orderBy(asc(products.nameEn));
      expect(catalogue.map((product) => [product.nameEn, product.priceMinor, product.category, product.stock])).toEqual([
        ['Almond Pearl Set', 2490, 'nail-art', null],
        ['Coffin Nude', 1850, 'nails', 3],
        ['Nail Glue', 0, 'accessories', null],
        ['Starter Kit', 3200, '', null],
      ]);
      // The description's HTML became text: no tag and no script reach a page.
      expect(catalogue[0]!.descriptionEn).toBe('Press-on nails with pearls.\n24 nails in 12 sizes.');
      const photographed = await db.select({ productId: productPhotos.productId }).from(productPhotos);
      expect(photographed.map((photo) => catalogue.find((product) => product.id === photo.productId)!.nameEn).sort()).toEqual(['Almond Pearl Set', 'Coffin Nude']);

      // Maria signs in and finds her addresses (the default kept), her cart and her orders.
      const cookie = await signIn(testApp, 'maria@example.com');
      const saved = (await testApp.app.inject({ method: 'GET', url: '/api/addresses', headers: { cookie } })).json<{ addresses: Address[] }>().addresses;
      expect(saved.map((address) => [address.id, address.streetAddress, address.isDefault, address.country])).toEqual(
        expect.arrayContaining([
          ['address_1706774400000', 'ул. Шипка 7', false, 'BG'],
          ['address_1709251200000', 'бул. Витоша 10', true, 'BG'],
        ]),
      );
      const cart = (await testApp.app.inject({ method: 'GET', url: '/api/cart', headers: { cookie } })).json<CartResponse>();
      expect(cart.items.map((item) => [item.name.en, item.quantity, item.priceMinor])).toEqual([['Almond Pearl Set', 2, 2490]]);
      const mine = (await testApp.app.inject({ method: 'GET', url: '/api/orders', headers: { cookie } })).json<{ orders: Order[] }>().orders;
      const byId = new Map(mine.map((order) => [order.orderId, order]));
      expect([...byId.keys()].sort()).toEqual(['ORD-1001', 'ORD-1002']);
      const first = byId.get('ORD-1001')!;
      expect(first).toMatchObject({ status: 'delivered', currency: 'BGN', pricing: { subtotal: 4340, tax: 217, shipping: 599, total: 5156 }, payment: { paymentId: 'pay_legacy_1001', method: 'card', amountMinor: 5156, cardLast4: '4242' } });
      expect(first.items.map((item) => [item.name.en, item.priceMinor, item.quantity])).toEqual([
        ['Almond Pearl Set', 2490, 1],
        ['Coffin Nude', 1850, 1],
      ]);
      expect(first.statusHistory.map((change) => [change.status, change.at])).toEqual([
        ['pending', '2024-03-10T09:00:00.000Z'],
        ['paid', '2024-03-10T09:05:00.000Z'],
        ['sent', '2024-03-11T12:00:00.000Z'],
        ['delivered', '2024-03-13T15:00:00.000Z'],
      ]);
      // A single-item order is one line; its total came from totalAmount, the rest of it is shipping.
      expect(byId.get('ORD-1002')).toMatchObject({ status: 'sent', items: [expect.objectContaining({ priceMinor: 1850, quantity: 1 })], pricing: { subtotal: 1850, total: 2449, shipping: 599 } });

      // The other customers: the address written in capitals is the same customer; a buyer with no account got one.
      const [petya] = await db.select().from(orders).where(eq(orders.id, 'ORD-1003'));
      expect(petya).toMatchObject({ customerEmail: 'petya@example.com', status: 'pending', totalMinor: 1299, language: 'bg', checkoutUrl: 'http://shop.test/mock-payment/ORD-1003' });
      const [newcomer] = await db.select().from(orders).where(eq(orders.id, 'ORD-1004'));
      expect(newcomer).toMatchObject({ status: 'pending', totalMinor: 2690, subtotalMinor: 2690 });
      expect((await db.select({ email: users.email }).from(users)).map((user) => user.email).sort()).toEqual(['maria@example.com', 'newcomer@example.com', 'petya@example.com']);
      expect((await db.select({ id: admins.id }).from(admins)).map((admin) => admin.id).sort()).toEqual(['helper@example.com', 'owner@example.com']);
      expect(await db.select().from(mailQueue)).toEqual([]);
    });

    it('keeps the batches finished before a failure, writes nothing of the failed one, and goes on after them when run again', async () => {
      const other = await createTestApp(target, { SEED_DEMO: 'false' });
      try {
        const db = other.database.db;
        // The database refuses one order, as a fault half-way through would stop the import.
        await db.execute(sql`create function refuse_order() returns trigger language plpgsql as $$ begin if new.id = 'ORD-1003' then raise exception 'refused'; end if; return new; end $$`);
        await db.execute(sql`create trigger refuse_order before insert on orders for each row execute function refuse_order()`);
        const importing = importLegacyExport(db, readLegacyExport(JSON.stringify(legacyExport(photos.url))), { ...options, productImages: other.images });
        await expect(importing).rejects.toMatchObject({ cause: expect.objectContaining({ message: 'refused' }) });
        expect(await db.select({ id: products.id }).from(products)).toHaveLength(4);
        expect(await db.select({ id: orders.id }).from(orders)).toEqual([]);
        await db.execute(sql`drop trigger refuse_order on orders`);
        const resumed = await importLegacyExport(db, readLegacyExport(JSON.stringify(legacyExport(photos.url))), { ...options, productImages: other.images });
        expect(resumed.counts.products).toEqual({ created: 0, updated: 0, unchanged: 4, skipped: 1 });
        expect(resumed.counts['art-users']).toEqual({ created: 0, updated: 0, unchanged: 2, skipped: 2 });
        expect(resumed.counts.orders).toEqual({ created: 4, updated: 0, unchanged: 0, skipped: 2 });
      } finally {
        await other.close();
      }
    });

    it('changes nothing when the same export is imported again, and updates only what a newer one changed', async () => {
      const db = testApp.database.db;
      const photosBefore = await db.select().from(productPhotos);
      const fetched = photos.requests.length;
      const again = await run(legacyExport(photos.url));
      expect(again.counts).toEqual({
        'art-users': { created: 0, updated: 0, unchanged: 2, skipped: 2 },
        products: { created: 0, updated: 0, unchanged: 4, skipped: 1 },
        orders: { created: 0, updated: 0, unchanged: 4, skipped: 2 },
        admins: { created: 0, updated: 0, unchanged: 2, skipped: 0 },
      });
      expect(photos.requests.length).toBe(fetched);
      expect(await db.select().from(productPhotos)).toEqual(photosBefore);

      const newer = await run(newerLegacyExport(photos.url));
      expect(newer.counts.products).toEqual({ created: 1, updated: 1, unchanged: 3, skipped: 1 });
      expect(newer.counts.orders).toEqual({ created: 1, updated: 1, unchanged: 3, skipped: 2 });
      const [coffin] = await db.select().from(products).where(eq(products.nameEn, 'Coffin Nude'));
      expect(coffin!.priceMinor).toBe(1990);
      const [delivered] = await db.select().from(orders).where(eq(orders.id, 'ORD-1002'));
      expect(delivered).toMatchObject({ status: 'delivered', deliveredAt: new Date('2024-04-05T10:00:00.000Z') });
      const [added] = await db.select().from(orders).where(eq(orders.id, 'ORD-1007'));
      expect(added).toMatchObject({ status: 'paid', totalMinor: 3499 });
      // Maria's cart was not added to again.
      const [maria] = await db.select({ id: users.id }).from(users).where(eq(users.email, 'maria@example.com'));
      expect((await db.select({ quantity: cartItems.quantity }).from(cartItems).where(eq(cartItems.userId, maria!.id))).map((line) => line.quantity)).toEqual([2]);
      expect(await db.select({ id: addresses.id }).from(addresses).where(eq(addresses.userId, maria!.id))).toHaveLength(2);
      expect((await run(newerLegacyExport(photos.url))).counts.orders).toEqual({ created: 0, updated: 0, unchanged: 5, skipped: 2 });
    });
  });
}
