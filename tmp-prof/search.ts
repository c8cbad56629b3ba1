import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { listProducts } from '#server/catalog/product-queries.js';
import { openDatabase } from '#server/db/client.js';
import { insertSampleProducts } from '#server/demo/sample-products.js';

const SEARCHES = ['coral','корал','koralov','chrome','хромиран','hromiran','marble oval','мраморни овални','mramoren','lilac ballerina','lyulyakov','люлякови балерини','sapphre','emrald chrome','izumruden','ombre long','velvet squoval','press-ons no 512','nokti','изкуствени нокти','zzzzzz','motorcycle'];
const size = Number(process.argv[2] ?? 20000);
const dir = process.env.KEEP_DIR ?? await mkdtemp(path.join(os.tmpdir(), 'prof-'));
const database = await openDatabase({ dataDir: dir });
const [{ n }] = (await database.db.execute(sql`select count(*)::int as n from products`)).rows as any;
if (n === 0) { await insertSampleProducts(database.db, size); await database.db.execute(sql`analyze`); }
const per: Record<string, number[]> = {};
for (let round = 0; round < 7; round++) for (const q of SEARCHES) {
  const t = performance.now(); const r = await listProducts(database.db, { q, sort: 'relevance' });
  if (round >= 2) (per[q] ??= []).push(performance.now() - t);
  if (round === 0) (per['#' + q] = [r.total]);
}
const all: number[] = [];
for (const q of SEARCHES) { const ts = per[q]!.sort((a,b)=>a-b); all.push(...ts); console.log(q.padEnd(22), 'total', per['#'+q]![0], 'median', ts[2]!.toFixed(1)); }
all.sort((a,b)=>a-b); console.log('p95', all[Math.ceil(0.95*all.length)-1]!.toFixed(1), 'median', all[Math.floor(all.length/2)]!.toFixed(1));
await database.close();
