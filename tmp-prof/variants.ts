import { openDatabase } from '#server/db/client.js';
import { performance } from 'node:perf_hooks';
import { readFileSync } from 'node:fs';
const database = await openDatabase({ dataDir: process.env.DIR ?? '/tmp/prof20k' });
const pg: any = (database.db as any).$client;
const variants = readFileSync(process.argv[2], 'utf8').split('\n====\n').filter((s) => s.trim());
for (const q of variants) {
  const ts: number[] = [];
  for (let i = 0; i < 7; i++) { const t = performance.now(); await pg.query(q); ts.push(performance.now() - t); }
  ts.sort((a, b) => a - b);
  console.log(ts[3]!.toFixed(1), q.replace(/\s+/g, ' ').slice(0, 150));
}
await database.close();
