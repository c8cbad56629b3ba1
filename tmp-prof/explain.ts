import { sql } from 'drizzle-orm';
import { listProducts } from '#server/catalog/product-queries.js';
import { openDatabase } from '#server/db/client.js';
const database = await openDatabase({ dataDir: '/tmp/prof20k' });
import { PgDatabase } from 'drizzle-orm/pg-core';
const orig = PgDatabase.prototype.execute;
let capture: { q: string; p: any[] }[] = [];
(PgDatabase.prototype as any).execute = function (this: any, st: any) { const r = this.dialect.sqlToQuery(st.getSQL ? st.getSQL() : st); capture.push({ q: r.sql, p: r.params }); return orig.call(this, st); };
const q = process.argv[2] ?? 'nokti';
await listProducts(database.db, { q, sort: 'relevance' });
(PgDatabase.prototype as any).execute = orig;
for (const c of capture) console.log('---', c.q.slice(0, 200).replace(/\s+/g,' '), JSON.stringify(c.p).slice(0,200));
const ranked = capture.find((c) => c.q.includes('count(*) over'))!;
const pg: any = (database.db as any).$client;
await pg.query(`select set_config('pg_trgm.word_similarity_threshold', '0.5', false), set_config('random_page_cost', '1.1', false)`);
{
  for (let i = 0; i < 3; i++) {
    const r = await pg.query('explain (analyze, buffers) ' + ranked.q, ranked.p);
    if (i === 2) console.log(r.rows.map((x: any) => x['QUERY PLAN']).join('\n'));
  }
}
const w = await database.db.execute(sql`select avg(pg_column_size(p.*))::int row, avg(pg_column_size(search_words))::int sw, avg(pg_column_size(search_text))::int st, avg(pg_column_size(search_name))::int sn, avg(pg_column_size(search_name_words))::int snw, avg(pg_column_size(option_groups))::int og, avg(pg_column_size(questions))::int qs, avg(pg_column_size(description_en))::int de, avg(pg_column_size(description_bg))::int db, pg_relation_size('products')/8192 pages from products p`);
console.log(w.rows);
await database.close();
