import { openDatabase } from '#server/db/client.js';
const database = await openDatabase({ dataDir: '/tmp/prof20k-int' });
const pg: any = (database.db as any).$client;
await pg.exec(`
create table narrow as select id as product_id, word_ids, name_ids, coalesce(((stock = 0 and stock_mode = 'product')), false) as sold_out, coalesce(nullif(name_en, ''), name_bg) as name_key from products;
create table narrow2 as select id as product_id, word_ids, name_ids, coalesce(((stock = 0 and stock_mode = 'product')), false) as sold_out, (row_number() over (order by coalesce(nullif(name_en, ''), name_bg)))::int as name_order from products;
`);
await pg.exec('vacuum analyze narrow'); await pg.exec('vacuum analyze narrow2');
console.log((await pg.query(`select pg_relation_size('narrow')/8192 a, pg_relation_size('narrow2')/8192 b`)).rows);
await database.close();
