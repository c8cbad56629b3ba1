/**
 * The checkout's transaction run by pgbench, for the database's own ceiling beside the shop's orders a
 * second (`npm run bench`, docs/operations/benchmark.md):
 *
 *   BENCH_DATABASE_URL=postgres://... npx tsx scripts/pgbench-checkout.ts
 *
 * A new database beside the one named (dropped at the end) gets the shop's schema, two products (one
 * counted, one made to order) and BENCH_CUSTOMERS (5,000) customers, each with an address and a cart of
 * both. pgbench then runs, on BENCH_CONNECTIONS (10) connections for BENCH_SECONDS (10), the statements
 * the shop's checkout sends (tests/api/checkout-statements.test.ts counts them), in the extended protocol
 * as node-postgres sends them, each a random customer's order; after each, that customer's cart is filled
 * again, outside the order's transaction, as the benchmark's customers' carts are set before each run.
 * PGBENCH_PROTOCOL=prepared parses and plans each statement once per connection instead.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { openDatabase } from '#server/db/client.js';
import { selectRows } from '#server/db/transaction.js';
import { insertSampleProducts } from '#server/demo/sample-products.js';

const serverUrl = process.env.BENCH_DATABASE_URL;
if (!serverUrl) throw new Error('Set BENCH_DATABASE_URL to a PostgreSQL server whose role may create databases');
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 5_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

/** A customer's id from her number, the same in the setup and in pgbench's statements. */
const userId = (number: string) => `md5('bench-customer-' || ${number})::uuid`;

function checkoutScript(counted: string, madeToOrder: string): string {
  const user = userId(':n');
  /** The order's id: the client's number and a random one, unique within the run. */
  const order = `'NA-' || :client_id || '-' || :order`;
  // pgbench reads ":word" as a variable, so no JSON with such a key is written here (choices take their default).
  return `\\set n random(1, ${CUSTOMERS})
\\set order random(1, 999999999999)
BEGIN;
select pg_advisory_xact_lock_shared(7260003), pg_advisory_xact_lock(1, hashtext(${user}::text)), (select json_build_object('id', "addresses"."id", 'fullName', "addresses"."full_name", 'streetAddress', "addresses"."street_address", 'apartment', coalesce("addresses"."apartment", ''), 'city', "addresses"."city", 'state', "addresses"."state", 'postalCode', "addresses"."postal_code", 'country', "addresses"."country", 'phone', "addresses"."phone") from "addresses" where "addresses"."user_id" = ${user} order by "addresses"."is_default" desc, "addresses"."created_at", "addresses"."id" limit 1) as address;
select (select "shop_state"."value" from "shop_state" where "shop_state"."key" = 'catalogue_currency'), (select "shop_state"."value" from "shop_state" where "shop_state"."key" = 'nail_size_chart'), "cart_items"."id", "cart_items"."product_id", "cart_items"."added_at", "products"."name_en", "products"."name_bg", "cart_items"."quantity", "cart_items"."choices", "cart_items"."choice_key", "products"."price_minor", "products"."stock", "products"."option_groups", "products"."stock_mode", "products"."sized", "products"."questions", "products"."lead_kind", "products"."lead_min_days", "products"."lead_max_days", "products"."personalised", "products"."hygiene_sealed", "products"."category" from "cart_items" inner join "products" on "products"."id" = "cart_items"."product_id" where "cart_items"."user_id" = ${user} order by "cart_items"."added_at" asc, "cart_items"."id" asc for key share of "products";
with "items" as (insert into "order_items" ("id", "order_id", "position", "product_id", "name_en", "name_bg", "price_minor", "quantity", "added_at", "combination_key", "dispatch_by", "return_rule", "gift_card", "discount_minor", "on_work_list") values (gen_random_uuid(), ${order}, 0, '${counted}', 'Counted Set', 'Брой', 1500, 1, now(), '', current_date + 5, 'standard', false, 0, true), (gen_random_uuid(), ${order}, 1, '${madeToOrder}', 'Made to Order', 'По поръчка', 900, 1, now(), '', current_date + 5, 'standard', false, 0, true)), "history" as (insert into "order_status_changes" ("order_id", "position", "status", "changed_at") values (${order}, 0, 'pending', now())), "removed" as (delete from "cart_items" where "cart_items"."user_id" = ${user}), "mails" as (insert into "mail_queue" (order_id, kind, subject_id, recipient, language) select ${order}, 'order_placed', null::uuid, 'customer-' || :n || '@example.com', 'en' union all select ${order}, 'new_order', null::uuid, recipient, language from (select coalesce("admins"."email", "admins"."id") as recipient, coalesce(case when "admins"."language" in ('en', 'bg') then "admins"."language" end, 'en') as language from "admins") owners) insert into "orders" ("id", "user_id", "customer_email", "status", "idempotency_key", "subtotal_minor", "tax_minor", "shipping_minor", "total_minor", "fee_minor", "currency", "tax_included", "tax_rate_basis_points", "item_count", "item_description", "payment_method", "shipping_full_name", "shipping_street_address", "shipping_city", "shipping_postal_code", "shipping_country", "shipping_phone", "language", "terms_version", "terms_accepted_at", "pending_at", "dispatch_by") values (${order}, ${user}, 'customer-' || :n || '@example.com', 'pending', md5(random()::text), 2400, 0, 599, 2999, 0, 'BGN', false, 0, 2, 'Counted Set, Made to Order', 'pay_by_link', 'Maria Ivanova', '12 Vitosha Blvd', 'Sofia', '1000', 'BG', '0888 123 456', 'en', 'v1', now(), now(), current_date + 5) returning *, (pg_notify('shop_events', '{"topic":"cart"}'), pg_notify('shop_events', '{"topic":"orders"}'), pg_notify('mail_queue', ''));
with taken as (update "products" set "stock" = "products"."stock" - 1 where ("products"."id" = '${counted}' and "products"."stock" is not null and "products"."stock" >= 1) returning "stock"), logged as (insert into "stock_changes" (product_id, order_id, combination_key, change, stock_after, reason) select '${counted}'::uuid, ${order}, null::text, -1, stock, 'sold' from taken) select stock, pg_notify('shop_events', json_build_object('stock', json_build_object('${counted}'::text, stock))::text) from taken;
COMMIT;
insert into "cart_items" ("user_id", "product_id", "name", "price_minor") values (${user}, '${counted}', 'Counted Set', 1500), (${user}, '${madeToOrder}', 'Made to Order', 900) on conflict do nothing;
`;
}

const admin = new pg.Client({ connectionString: serverUrl });
await admin.connect();
const name = `shop_pgbench_${randomBytes(4).toString('hex')}`;
await admin.query(`create database ${name}`);
const databaseUrl = Object.assign(new URL(serverUrl), { pathname: `/${name}` }).toString();
const folder = await mkdtemp(path.join(os.tmpdir(), 'shop-pgbench-'));
try {
  const database = await openDatabase({ databaseUrl });
  await insertSampleProducts(database.db, 2);
  // The counted product first, with stock enough for every order of the run.
  const [counted, madeToOrder] = (await selectRows<{ id: string; stock: number | null }>(database.db, sql`update products set stock = case when stock is null then null else 1000000000 end returning id, stock`)).sort(
    (a, b) => Number(a.stock === null) - Number(b.stock === null),
  );
  await database.db.execute(
    sql.raw(`insert into users (id, email) select ${userId('n::text')}, 'customer-' || n || '@example.com' from generate_series(1, ${CUSTOMERS}) as n;
      insert into addresses (id, user_id, full_name, street_address, city, postal_code, country, phone, is_default)
        select 'address-' || n, ${userId('n::text')}, 'Maria Ivanova', '12 Vitosha Blvd', 'Sofia', '1000', 'BG', '0888 123 456', true from generate_series(1, ${CUSTOMERS}) as n;
      insert into cart_items (user_id, product_id, name, price_minor)
        select ${userId('n::text')}, product.id, product.name_en, product.price_minor from generate_series(1, ${CUSTOMERS}) as n, (values ('${counted!.id}'::uuid), ('${madeToOrder!.id}'::uuid)) as chosen (id) join products as product on product.id = chosen.id;
      analyze;`),
  );
  await database.close();
  const script = path.join(folder, 'checkout.sql');
  await writeFile(script, checkoutScript(counted!.id, madeToOrder!.id));
  const output = execFileSync('pgbench', ['--no-vacuum', `--protocol=${process.env.PGBENCH_PROTOCOL ?? 'extended'}`, `--client=${CONNECTIONS}`, '--jobs=2', `--time=${SECONDS}`, `--file=${script}`, databaseUrl], { encoding: 'utf8' });
  process.stdout.write(output);
} finally {
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
  await rm(folder, { recursive: true, force: true });
}
