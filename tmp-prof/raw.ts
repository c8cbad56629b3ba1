import { openDatabase } from '#server/db/client.js';
import { performance } from 'node:perf_hooks';
const database = await openDatabase({ dataDir: '/tmp/prof20k' });
const pg: any = (database.db as any).$client;
console.log((await pg.query('select version()')).rows[0]);
for (const q of process.argv.slice(2)) {
  let best = 1e9;
  for (let i = 0; i < 5; i++) { const t = performance.now(); await pg.query(q); best = Math.min(best, performance.now() - t); }
  console.log(best.toFixed(1), q);
}
await database.close();
