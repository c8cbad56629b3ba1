/**
 * Fills a database with sample products, then times the catalogue's list with filters on it (its
 * database part: the server keeps the answers it has prepared).
 *
 *   npm run products:generate -- 1000        add 1,000 products, then measure
 *   npm run products:generate -- 0           only measure what is there
 *
 * It uses the server's database (DATABASE_URL, or the embedded one in DATA_DIR), so point it at a
 * scratch one. The sample products share the demo catalogue's photos (seeded first on a new database).
 */
import { performance } from 'node:perf_hooks';
import { count, eq, sql } from 'drizzle-orm';
import { listCatalogue, type CatalogueFilter } from '#server/catalog/product-queries.js';
import { seedDemoCatalogue } from '#server/catalog/seed-demo-catalogue.js';
import { insertSampleProducts } from '#server/demo/sample-products.js';
import { loadConfig } from '#server/config.js';
import { openDatabase, type Database } from '#server/db/client.js';
import { productPhotos, products } from '#server/db/schema.js';
import { productImagesFor, type ProductImages } from '#server/images/product-images.js';

async function generate(db: Database, images: ProductImages, total: number): Promise<void> {
  await seedDemoCatalogue(db, images);
  const photos = await db.select({ imageKey: productPhotos.imageKey }).from(productPhotos).where(eq(productPhotos.position, 0));
  const [existing] = await db.select({ total: count() }).from(products);
  await insertSampleProducts(
    db,
    total,
    existing?.total ?? 0,
    photos.map((photo) => photo.imageKey),
  );
}

async function measure(db: Database): Promise<void> {
  const [counted] = await db.select({ total: count() }).from(products);
  // The database's part of GET /api/products (the server answers a query it has answered before from its prepared answers).
  console.warn(`\nThe catalogue's page and count (listCatalogue) on ${counted!.total.toLocaleString('en')} products (median of 15 runs after 3 warm-up runs):`);
  const cases: [string, CatalogueFilter][] = [
    ['first page, by name', {}],
    ['first page, by name in Bulgarian', { language: 'bg' }],
    ['category', { category: 'nails' }],
    ['category, price low to high', { category: 'kits', sort: 'price' }],
    ['newest', { sort: 'newest' }],
    ['search "coral"', { q: 'coral', sort: 'relevance' }],
    ['search "корал" (Cyrillic)', { q: 'корал', sort: 'relevance' }],
    ['search "no. 99" in a category', { q: 'no. 99', category: 'nail-art', sort: 'relevance' }],
    ['search with no match', { q: 'zzzzzz', sort: 'relevance' }],
    ['page 10, price high to low', { sort: 'price-desc', page: 10 }],
  ];
  let baseline: number | undefined;
  // The code is compiled as it runs: warmed up on every case first, so the first case measured is not the slowest.
  for (let round = 0; round < 5; round += 1) for (const [, filter] of cases) await listCatalogue(db, filter);
  for (const [label, filter] of cases) {
    const runs: number[] = [];
    let matching = 0;
    for (let run = 0; run < 18; run += 1) {
      const started = performance.now();
      matching = (await listCatalogue(db, filter)).total;
      if (run >= 3) runs.push(performance.now() - started);
    }
    runs.sort((a, b) => a - b);
    const ms = runs[Math.floor(runs.length / 2)]!;
    baseline ??= ms;
    console.warn(`  ${label.padEnd(36)} ${ms.toFixed(1).padStart(6)} ms  ${(ms / baseline).toFixed(2).padStart(5)}×   ${matching.toLocaleString('en')} matching`);
  }
}

const requested = Number(process.argv[2] ?? '1000');
if (!Number.isInteger(requested) || requested < 0) {
  console.error('Usage: npm run products:generate -- <number of products to add, 0 to only measure>');
  process.exit(2);
}
const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn' });
const database = await openDatabase(config.databaseUrl ? { databaseUrl: config.databaseUrl } : { dataDir: config.dataDir });
try {
  console.warn(`Database: ${database.kind === 'postgres' ? 'PostgreSQL' : `PGlite in ${config.dataDir}`}`);
  if (requested > 0) {
    console.warn(`Adding ${requested.toLocaleString('en')} products...`);
    await generate(database.db, productImagesFor(database, config.dataDir), requested);
    await database.db.execute(sql`analyze`);
  }
  await measure(database.db);
} finally {
  await database.close();
}
