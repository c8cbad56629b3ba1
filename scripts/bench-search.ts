/**
 * The catalogue search's latency at several catalogue sizes, part of `npm run bench` (BENCH_ONLY=search
 * runs it alone): a new database per size, filled with sample products (src/server/demo/sample-products.ts),
 * then searches typed as shoppers type them, each timed as the catalogue's page of matches (listProducts:
 * the page, the count and the photos) and as the catalogue API's whole answer, with the filters' counts
 * (listCatalogue), in the benchmark's process.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { listCatalogue, listProducts } from '#server/catalog/product-queries.js';
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

/** The latencies of one kind of read, in ms. */
export interface Latencies {
  medianMs: number;
  p95Ms: number;
  maxMs: number;
}

export interface SearchLatency {
  products: number;
  searches: number;
  /** The page of matches, their count and their photos (listProducts). */
  page: Latencies;
  /** The catalogue API's whole answer: the page and the filters' counts for the search (listCatalogue). */
  answer: Latencies;
}

/** The value below which `share` of these sorted values lie (the nearest rank). */
export const quantile = (sorted: readonly number[], share: number) => sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!;

function latencies(timings: number[]): Latencies {
  const sorted = [...timings].sort((a, b) => a - b);
  return { medianMs: quantile(sorted, 0.5), p95Ms: quantile(sorted, 0.95), maxMs: sorted.at(-1)! };
}

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
    const page: number[] = [];
    const answer: number[] = [];
    const time = async (timings: number[], read: () => Promise<unknown>, kept: boolean) => {
      const started = performance.now();
      await read();
      if (kept) timings.push(performance.now() - started);
    };
    for (let round = 0; round < rounds + 2; round += 1) {
      for (const q of SEARCHES) {
        await time(page, () => listProducts(database.db, { q, sort: 'relevance' }), round >= 2);
        await time(answer, () => listCatalogue(database.db, { q, sort: 'relevance', language: 'en' }), round >= 2);
      }
    }
    return { products: size, searches: page.length, page: latencies(page), answer: latencies(answer) };
  } finally {
    await database.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }
}
