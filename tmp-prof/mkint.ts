import { openDatabase } from '#server/db/client.js';
const database = await openDatabase({ dataDir: '/tmp/prof20k-int' });
const pg: any = (database.db as any).$client;
await pg.exec(`
alter table search_words add column id serial;
create unique index on search_words(id);
alter table products add column word_ids int4[], add column name_ids int4[];
update products set word_ids = array(select w.id from search_words w where w.word = any(search_words) order by 1), name_ids = array(select w.id from search_words w where w.word = any(search_name_words) order by 1);
`);
await pg.exec('vacuum full analyze products');
console.log((await pg.query(`select id from search_words where word='nokti'`)).rows, (await pg.query(`select avg(pg_column_size(word_ids))::int, avg(pg_column_size(name_ids))::int, pg_relation_size('products')/8192 from products`)).rows);
await database.close();
