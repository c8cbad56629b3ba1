/**
 * The catalogue search's latency at several catalogue sizes, part of `npm run bench` (BENCH_ONLY=search
 * runs it alone): a new database per size, filled with sample products (src/server/demo/sample-products.ts),
 * then searches typed as shoppers type them, each timed whole as the catalogue's API runs it
 * (listProducts: the page of matches, their count and their photos), in the benchmark's process.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { listProducts } from '#server/catalog/product-queries.js';
import { openDatabase } from '#server/db/client.js';
import { insertSampleProducts } from '#server/demo/sample-products.js';

/** As shoppers type: whole words, word forms, the other script, chat spellings, letters wrong, several words, nothing found. */
const SEARCHES = [
  'coral',
  'корал',
  'koralov',
  'chrome',
  'хромиран',
  'hromiran',
  'marble oval',
  'мраморни овални',
  'mramoren',
  'lilac ballerina',
  'lyulyakov',
  'люлякови балерини',
  'sapphre',
  'emrald chrome',
  'izumruden',
  'ombre long',
  'velvet squoval',
  'press-ons no 512',
  'nokti',
  'изкуствени нокти',
  'zzzzzz',
  'motorcycle',
];

export interface SearchLatency {
  products: number;
  searches: number;
  medianMs: number;
  p95Ms: number;
  maxMs: number;
}

const quantile = (sorted: readonly number[], share: number) => sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!;

/**
 * Each search `rounds` times over a catalogue of `size` sample products (after 2 rounds that warm the
 * code and the database's caches), on a new PGlite database, or on `databaseUrl`, which must be empty.
 */
export async function benchSearch(size: number, rounds: number, databaseUrl?: string): Promise<SearchLatency> {
  const dataDir = databaseUrl ? undefined : await mkdtemp(path.join(os.tmpdir(), 'shop-bench-search-'));
  const database = await openDatabase(databaseUrl ? { databaseUrl } : { dataDir: dataDir! });
  try {
    await insertSampleProducts(database.db, size);
    await database.db.execute(sql`analyze`);
    const timings: number[] = [];
    for (let round = 0; round < rounds + 2; round += 1) {
      for (const q of SEARCHES) {
        const started = performance.now();
        await listProducts(database.db, { q, sort: 'relevance' });
        if (round >= 2) timings.push(performance.now() - started);
      }
    }
    timings.sort((a, b) => a - b);
    return { products: size, searches: timings.length, medianMs: quantile(timings, 0.5), p95Ms: quantile(timings, 0.95), maxMs: timings.at(-1)! };
  } finally {
    await database.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }
}
