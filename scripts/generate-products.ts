/**
 * Fills a database with sample products, then times the catalogue's list with filters on it.
 *
 *   npm run products:generate -- 1000        add 1,000 products, then measure
 *   npm run products:generate -- 0           only measure what is there
 *
 * It uses the server's database (DATABASE_URL, or the embedded one in DATA_DIR), so point it at a
 * scratch one. The sample products share the demo catalogue's photos (seeded first on a new database).
 */
import { performance } from 'node:perf_hooks';
import { count, eq, sql } from 'drizzle-orm';
import { buildApp } from '#server/app.js';
import { seedDemoCatalogue } from '#server/catalog/seed-demo-catalogue.js';
import { insertSampleProducts } from '#server/demo/sample-products.js';
import { loadConfig } from '#server/config.js';
import { openDatabase, type Database } from '#server/db/client.js';
import { productPhotos, products } from '#server/db/schema.js';
import { productImagesFor, type ProductImages } from '#server/images/product-images.js';
import { builtPages } from '#server/pages.js';
import { projectPath } from '#server/project-path.js';

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

async function measure(database: Awaited<ReturnType<typeof openDatabase>>, config: ReturnType<typeof loadConfig>): Promise<void> {
  const [counted] = await database.db.select({ total: count() }).from(products);
  // Through the whole server (routing, query, JSON), as a browser asks; the app is built but does not listen.
  const app = await buildApp({ config, database, images: productImagesFor(database, config.dataDir), pages: builtPages(projectPath('dist', 'client')) });
  await app.ready();
  console.warn(`\nGET /api/products on ${counted!.total.toLocaleString('en')} products (median of 15 runs after 3 warm-up runs):`);
  const cases: [string, string][] = [
    ['first page, by name', ''],
    ['first page, by name in Bulgarian', '?lang=bg'],
    ['category', '?category=nails'],
    ['category, price low to high', '?category=kits&sort=price'],
    ['newest', '?sort=newest'],
    ['search "coral"', '?q=coral'],
    ['search "корал" (Cyrillic)', `?q=${encodeURIComponent('корал')}`],
    ['search "no. 99" in a category', '?q=no.%2099&category=nail-art'],
    ['search with no match', '?q=zzzzzz'],
    ['page 10, price high to low', '?sort=price-desc&page=10'],
  ];
  let baseline: number | undefined;
  try {
    // The server's code is compiled as it runs: warmed up on every case first, so the first case measured is not the slowest.
    for (let round = 0; round < 5; round += 1) for (const [, query] of cases) await app.inject({ method: 'GET', url: `/api/products${query}` });
    for (const [label, query] of cases) {
      const runs: number[] = [];
      let matching = 0;
      for (let run = 0; run < 18; run += 1) {
        const started = performance.now();
        const response = await app.inject({ method: 'GET', url: `/api/products${query}` });
        const elapsed = performance.now() - started;
        if (response.statusCode !== 200) throw new Error(`${query}: ${response.statusCode} ${response.body}`);
        matching = response.json<{ total: number }>().total;
        if (run >= 3) runs.push(elapsed);
      }
      runs.sort((a, b) => a - b);
      const ms = runs[Math.floor(runs.length / 2)]!;
      baseline ??= ms;
      console.warn(`  ${label.padEnd(36)} ${ms.toFixed(1).padStart(6)} ms  ${(ms / baseline).toFixed(2).padStart(5)}×   ${matching.toLocaleString('en')} matching`);
    }
  } finally {
    await app.close();
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
  await measure(database, config);
} finally {
  await database.close();
}
