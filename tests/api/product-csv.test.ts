import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { asc, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product } from '#shared/catalog.js';
import { csvRow, parseCsv } from '#shared/csv.js';
import type { OptionGroup } from '#shared/product-options.js';
import { productsCsv } from '#server/catalog/product-export.js';
import { withPhotos } from '#server/catalog/product-queries.js';
import { seedDemoCatalogue } from '#server/catalog/seed-demo-catalogue.js';
import { admins, productPhotos, products } from '#server/db/schema.js';
import { ImportImages } from '#server/import/import-images.js';
import { readProductCsv } from '#server/import/product-csv.js';
import { importProductCsv } from '#server/import/product-import.js';
import { signIn } from './sign-in.js';
import { createTestApp, databaseTargets, type TestApp } from './test-app.js';

/** A server of another shop's photos: real PNGs under /photos/, anything else missing. */
async function startPhotoServer(): Promise<{ url: string; server: Server }> {
  const png = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#e3b5c8' } }).png().toBuffer();
  const server = createServer((request, response) => {
    if (request.url?.startsWith('/photos/') && request.url.endsWith('.png')) response.writeHead(200, { 'content-type': 'image/png' }).end(png);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const SHOPIFY_HEADER = ['Handle', 'Title', 'Body (HTML)', 'Vendor', 'Type', 'Tags', 'Published', 'Option1 Name', 'Option1 Value', 'Option2 Name', 'Option2 Value', 'Variant SKU', 'Variant Inventory Tracker', 'Variant Inventory Qty', 'Variant Price', 'Variant Grams', 'Image Src', 'Image Position', 'Status'];

/** Shopify's export of a small shop: a plain product with two photos, a product of two options, a draft, and a variant priced apart. */
function shopifyCsv(photos: string): string {
  const row = (cells: Partial<Record<(typeof SHOPIFY_HEADER)[number], string>>) => csvRow(SHOPIFY_HEADER.map((column) => cells[column] ?? ''));
  return [
    csvRow(SHOPIFY_HEADER),
    row({ Handle: 'cuticle-oil', Title: 'Cuticle Oil', 'Body (HTML)': '<p>Rose &amp; almond oil.</p><p><em>10 ml</em></p>', Type: 'Accessories', Published: 'TRUE', 'Option1 Name': 'Title', 'Option1 Value': 'Default Title', 'Variant Inventory Tracker': 'shopify', 'Variant Inventory Qty': '7', 'Variant Price': '12.50', 'Variant Grams': '35', 'Image Src': `${photos}/photos/oil.png`, 'Image Position': '1', Status: 'active' }),
    row({ Handle: 'cuticle-oil', 'Image Src': `${photos}/photos/oil-2.png`, 'Image Position': '2' }),
    row({ Handle: 'almond-set', Title: 'Almond Set', 'Body (HTML)': 'Press-on set<br>24 nails', Type: 'Nails', Published: 'TRUE', 'Option1 Name': 'Shape', 'Option1 Value': 'Almond', 'Option2 Name': 'Length', 'Option2 Value': 'Short', 'Variant Inventory Tracker': 'shopify', 'Variant Inventory Qty': '2', 'Variant Price': '24.00', 'Variant Grams': '0', 'Image Src': `${photos}/photos/set.png`, Status: 'active' }),
    row({ Handle: 'almond-set', 'Option1 Value': 'Almond', 'Option2 Value': 'Long', 'Variant Inventory Tracker': 'shopify', 'Variant Inventory Qty': '0', 'Variant Price': '27.00' }),
    row({ Handle: 'almond-set', 'Option1 Value': 'Coffin', 'Option2 Value': 'Short', 'Variant Inventory Tracker': 'shopify', 'Variant Inventory Qty': '5', 'Variant Price': '25.00' }),
    row({ Handle: 'almond-set', 'Option1 Value': 'Coffin', 'Option2 Value': 'Long', 'Variant Inventory Tracker': 'shopify', 'Variant Inventory Qty': '1', 'Variant Price': '29.00' }),
    row({ Handle: 'secret-set', Title: 'Not yet', 'Variant Price': '10.00', Status: 'draft' }),
  ].join('');
}

const WOO_HEADER = ['ID', 'Type', 'SKU', 'Name', 'Published', 'Short description', 'Description', 'In stock?', 'Stock', 'Sale price', 'Regular price', 'Weight (kg)', 'Categories', 'Images', 'Parent', 'Attribute 1 name', 'Attribute 1 value(s)'];

function wooCsv(photos: string): string {
  const row = (cells: Partial<Record<(typeof WOO_HEADER)[number], string>>) => csvRow(WOO_HEADER.map((column) => cells[column] ?? ''));
  return [
    csvRow(WOO_HEADER),
    row({ ID: '11', Type: 'simple', SKU: 'GLUE', Name: 'Nail Glue', Published: '1', Description: '<strong>Strong</strong> glue', 'In stock?': '1', Stock: '30', 'Regular price': '6.00', 'Sale price': '5.50', 'Weight (kg)': '0,02', Categories: 'Accessories', Images: `${photos}/photos/glue.png, ${photos}/photos/glue-2.png` }),
    row({ ID: '12', Type: 'variable', SKU: 'STIL', Name: 'Stiletto Set', Published: '1', Description: 'Long stiletto', 'Weight (kg)': 'light', Categories: 'Nails > Press-on', Images: `${photos}/photos/stiletto.png`, 'Attribute 1 name': 'Size', 'Attribute 1 value(s)': 'S, M, L' }),
    row({ ID: '13', Type: 'variation', SKU: 'STIL-S', Name: 'Stiletto Set - S', Published: '1', 'Regular price': '20.00', Stock: '3', Parent: 'id:12', 'Attribute 1 name': 'Size', 'Attribute 1 value(s)': 'S' }),
    row({ ID: '14', Type: 'variation', SKU: 'STIL-M', Name: 'Stiletto Set - M', Published: '1', 'Regular price': '20.00', Stock: '4', Parent: 'id:12', 'Attribute 1 name': 'Size', 'Attribute 1 value(s)': 'M' }),
    row({ ID: '15', Type: 'variation', SKU: 'STIL-L', Name: 'Stiletto Set - L', Published: '1', 'Regular price': '22.00', Stock: '0', Parent: 'id:12', 'Attribute 1 name': 'Size', 'Attribute 1 value(s)': 'L' }),
    row({ ID: '16', Type: 'grouped', Name: 'Bundle', Published: '1' }),
  ].join('');
}

/** Every combination a product sells with its price and count, by the values' names: what a buyer can buy. */
function offer(product: Product) {
  const combine = (groups: readonly OptionGroup[]): Array<{ names: string[]; ids: string[]; delta: number }> =>
    groups.reduce<Array<{ names: string[]; ids: string[]; delta: number }>>(
      (all, group) => all.flatMap((entry) => group.values.map((value) => ({ names: [...entry.names, `${value.name.en}|${value.name.bg}`], ids: [...entry.ids, value.id], delta: entry.delta + value.priceDeltaMinor }))),
      [{ names: [], ids: [], delta: 0 }],
    );
  const counts = new Map(product.combinations.map((combination) => [combination.key, combination.stock]));
  return combine(product.optionGroups)
    .filter((entry) => product.stockMode !== 'combination' || counts.has(entry.ids.join('/')))
    .map((entry) => ({ names: entry.names.join(' / '), price: product.priceMinor + entry.delta, stock: product.stockMode === 'combination' ? counts.get(entry.ids.join('/')) : product.stock }));
}

const catalogueOf = async (testApp: TestApp) => withPhotos(testApp.database.db, await testApp.database.db.select().from(products).orderBy(asc(products.nameEn)));

for (const target of databaseTargets) {
  describe(`product CSVs of other shops, and the catalogue as Shopify's [${target}]`, () => {
    let photos: Awaited<ReturnType<typeof startPhotoServer>>;
    let testApp: TestApp;
    const options = (dryRun: boolean) => ({ dryRun, images: new ImportImages(undefined), productImages: testApp.images, importedBy: 'owner@shop.test' });

    beforeAll(async () => {
      photos = await startPhotoServer();
      testApp = await createTestApp(target, { SEED_DEMO: 'false' });
    });
    afterAll(async () => {
      await testApp?.close();
      await new Promise((resolve) => photos?.server.close(resolve));
    });

    it('imports Shopify’s CSV: texts made plain, options with additive prices, counts per variant, photos; a dry run first writes nothing, and a repeat changes nothing', async () => {
      const csv = readProductCsv(shopifyCsv(photos.url));
      expect(csv.format).toBe('shopify');
      const dry = await importProductCsv(testApp.database.db, csv, options(true));
      expect(dry.counts.products).toEqual({ created: 2, updated: 0, unchanged: 0, skipped: 1 });
      expect(await testApp.database.db.select().from(products)).toEqual([]);
      expect(dry.problems.map((problem) => `${problem.id}/${problem.field}: ${problem.message}`)).toEqual([
        'almond-set/Variant Price: Coffin / Long costs 29.00; the shop adds up option prices and sells it for 28.00',
        'secret-set/Status: is draft; the product was not imported (the shop sells every product it has)',
      ]);

      const report = await importProductCsv(testApp.database.db, csv, options(false));
      expect(report.counts.products).toEqual({ created: 2, updated: 0, unchanged: 0, skipped: 1 });
      const [almond, oil] = await catalogueOf(testApp);
      expect(oil).toMatchObject({ name: { en: 'Cuticle Oil', bg: '' }, description: { en: 'Rose & almond oil.\n10 ml' }, category: 'accessories', priceMinor: 1250, stock: 7, optionGroups: [], weightGrams: 35 });
      // Shopify's 0 grams is a weight never given.
      expect(almond!.weightGrams).toBeNull();
      expect(oil!.photos).toHaveLength(2);
      expect(almond).toMatchObject({ description: { en: 'Press-on set\n24 nails' }, category: 'nails', priceMinor: 2400, stockMode: 'combination', stock: null });
      expect(almond!.optionGroups.map((group) => [group.name.en, group.values.map((value) => [value.name.en, value.priceDeltaMinor])])).toEqual([
        ['Shape', [['Almond', 0], ['Coffin', 100]]],
        ['Length', [['Short', 0], ['Long', 300]]],
      ]);
      expect(offer(almond!).map((entry) => [entry.names, entry.price, entry.stock])).toEqual([
        ['Almond| / Short|', 2400, 2],
        ['Almond| / Long|', 2700, 0],
        ['Coffin| / Short|', 2500, 5],
        ['Coffin| / Long|', 2800, 1],
      ]);

      const again = await importProductCsv(testApp.database.db, readProductCsv(shopifyCsv(photos.url)), options(false));
      expect(again.counts.products).toEqual({ created: 0, updated: 0, unchanged: 2, skipped: 1 });
      expect(await testApp.database.db.select().from(productPhotos)).toHaveLength(3);
    });

    it('imports WooCommerce’s CSV: simple and variable products with their variations, sale prices and counts', async () => {
      const csv = readProductCsv(wooCsv(photos.url));
      expect(csv.format).toBe('woocommerce');
      const report = await importProductCsv(testApp.database.db, csv, options(false));
      expect(report.counts.products).toEqual({ created: 2, updated: 0, unchanged: 0, skipped: 1 });
      const catalogue = await catalogueOf(testApp);
      const glue = catalogue.find((product) => product.name.en === 'Nail Glue')!;
      expect(glue).toMatchObject({ priceMinor: 550, stock: 30, category: 'accessories', description: { en: 'Strong glue' }, weightGrams: 20 });
      expect(report.problems.map((problem) => `${problem.id}/${problem.field}: ${problem.message}`)).toContain('12/Weight (kg): "light" is not a weight the shop takes (1 g to 30 kg); left without one');
      expect(glue.photos).toHaveLength(2);
      const stiletto = catalogue.find((product) => product.name.en === 'Stiletto Set')!;
      expect(stiletto.category).toBe('nails');
      expect(offer(stiletto).map((entry) => [entry.names, entry.price, entry.stock])).toEqual([
        ['S|', 2000, 3],
        ['M|', 2000, 4],
        ['L|', 2200, 0],
      ]);
    });

    it('exports the catalogue as Shopify’s CSV that another copy of the shop imports as the same catalogue, both languages, options, counts, questions and photos', async () => {
      const source = await createTestApp(target, { SEED_DEMO: 'false' });
      const target2 = await createTestApp(target, { SEED_DEMO: 'false' });
      // The source shop's photos, where the export's addresses point.
      const server = createServer((request, response) => {
        void source.app.inject({ method: 'GET', url: request.url ?? '/' }).then((answer) => response.writeHead(answer.statusCode, { 'content-type': String(answer.headers['content-type'] ?? '') }).end(answer.rawPayload));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        expect(await seedDemoCatalogue(source.database.db, source.images)).toBeGreaterThan(10);
        await source.database.db.update(products).set({ weightGrams: 45 }).where(sql`${products.category} = 'nails'`);
        let exported = '';
        for await (const chunk of productsCsv(source.database.db, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, 4)) exported += chunk;
        expect(parseCsv(exported)[0]!.slice(0, 3)).toEqual(['Handle', 'Title', 'Title (bg)']);

        const report = await importProductCsv(target2.database.db, readProductCsv(exported), { ...options(false), productImages: target2.images });
        expect(report.problems).toEqual([]);
        const before = await catalogueOf(source);
        const after = await catalogueOf(target2);
        const comparable = (product: Product) => ({
          name: product.name,
          description: product.description,
          category: product.category,
          sized: product.sized,
          questions: product.questions,
          leadTime: product.leadTime,
          returnRule: product.returnRule,
          groups: product.optionGroups.map((group) => ({ name: group.name, values: group.values.map((value) => value.name) })),
          offer: offer(product),
          photos: product.photos.length,
          weightGrams: product.weightGrams,
        });
        expect(after.map(comparable)).toEqual(before.map(comparable));
        // And the same file again changes nothing.
        expect((await importProductCsv(target2.database.db, readProductCsv(exported), { ...options(false), productImages: target2.images })).counts.products.unchanged).toBe(before.length);

        // The owner edits a price of her own export in a spreadsheet and imports it back: the product is updated, nothing is copied.
        const [header, ...rows] = parseCsv(exported);
        const [handle, price] = [header!.indexOf('Handle'), header!.indexOf('Variant Price')];
        const edited = rows.findIndex((row) => row[handle] === before[0]!.slug && row[price] !== '');
        rows[edited]![price] = '99.90';
        const back = await importProductCsv(source.database.db, readProductCsv([header!, ...rows].map((row) => csvRow(row)).join('')), { ...options(false), productImages: source.images });
        expect(back.problems).toEqual([]);
        expect(back.counts.products).toMatchObject({ created: 0, updated: before.length });
        const reimported = await catalogueOf(source);
        expect(reimported.map((product) => product.id)).toEqual(before.map((product) => product.id));
        expect(reimported[0]!.priceMinor).toBe(9990);
        expect(reimported.slice(1).map(comparable)).toEqual(before.slice(1).map(comparable));
      } finally {
        await new Promise((resolve) => server.close(resolve));
        await source.close();
        await target2.close();
      }
    });

    it('takes a file in the admin, with a dry run unless told otherwise, fetches no photo from this machine for it, and gives the catalogue out', async () => {
      await testApp.database.db.insert(admins).values({ id: 'owner@shop.test' }).onConflictDoNothing();
      const admin = await signIn(testApp, 'owner@shop.test');
      const customer = await signIn(testApp, 'buyer@example.com');
      const upload = (content: string, query = '', cookie = admin) => {
        const boundary = '----shopcsv0123456789';
        const payload = Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="products.csv"\r\nContent-Type: text/csv\r\n\r\n`), Buffer.from(content), Buffer.from(`\r\n--${boundary}--\r\n`)]);
        return testApp.app.inject({ method: 'POST', url: `/api/admin/products/import${query}`, headers: { cookie, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
      };
      const file = csvRow(SHOPIFY_HEADER) + csvRow(SHOPIFY_HEADER.map((column) => ({ Handle: 'local-photo', Title: 'Local Photo', 'Variant Price': '3.00', 'Image Src': `${photos.url}/photos/local.png` })[column as 'Handle'] ?? ''));
      const dry = await upload(file);
      expect(dry.statusCode).toBe(200);
      expect(dry.json().report).toMatchObject({ dryRun: true, counts: { products: { created: 1 } } });
      expect(dry.json().report.problems).toEqual([expect.objectContaining({ id: 'local-photo', field: 'Image Src', message: expect.stringContaining('is on this machine or a private network') })]);
      const count = async () => (await testApp.database.db.select().from(products)).length;
      const before = await count();
      expect((await upload(file, '?dryRun=false')).json().report.dryRun).toBe(false);
      expect(await count()).toBe(before + 1);
      const unreadable = await upload('just some text\nwith no columns');
      expect(unreadable.statusCode).toBe(400);
      expect(unreadable.json().error.messageKey).toBe('admin.productCsv.errors.unreadable');
      expect((await upload(file, '', customer)).statusCode).toBe(403);
      // Larger than an upload may be: refused before it is read.
      expect((await upload('x'.repeat(10 * 1024 * 1024 + 1))).statusCode).toBe(413);

      const exported = await testApp.app.inject({ method: 'GET', url: '/api/admin/products/export', headers: { cookie: admin } });
      expect(exported.statusCode).toBe(200);
      expect(exported.headers['content-disposition']).toBe('attachment; filename="products.csv"');
      expect(parseCsv(exported.body).filter((row) => row[1] !== '').map((row) => row[1])).toEqual(expect.arrayContaining(['Title', 'Local Photo', 'Cuticle Oil']));
      expect((await testApp.app.inject({ method: 'GET', url: '/api/admin/products/export', headers: { cookie: customer } })).statusCode).toBe(403);
    });
  });
}
