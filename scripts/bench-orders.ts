/**
 * Order placement under load, over real HTTP: orders per second and latency percentiles, with the
 * orders spread over many products (no contention) and all on one product (every order waits for
 * the one before it on the product's stock). Runs on the embedded database, and on PostgreSQL
 * when BENCH_DATABASE_URL names an empty database the benchmark may fill and drop tables in.
 *
 *   npm run bench:orders                          (PGlite)
 *   BENCH_DATABASE_URL=postgres://... npm run bench:orders
 *
 * BENCH_ORDERS (default 400) and BENCH_CONCURRENCY (default 16) set the size of each run.
 *
 * Beside the rate it reports the process's CPU time per order (server and load generator together,
 * both in this process, so compare runs rather than read it as the server's alone) and, on
 * PostgreSQL, the statements sent per order (every query a connection runs, BEGIN and COMMIT
 * included), which do not depend on how loaded the machine is.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { priceLines } from '#shared/pricing.js';
import { buildApp } from '#server/app.js';
import { hashSecret } from '#server/auth/session.js';
import { loadConfig } from '#server/config.js';
import { openDatabase, type DatabaseHandle } from '#server/db/client.js';
import { addresses, cartItems, products, sessions, users } from '#server/db/schema.js';
import { productImagesFor } from '#server/images/product-images.js';
import { builtPages } from '#server/pages.js';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 400);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const PRICE_MINOR = 2500;

interface Result {
  database: string;
  scenario: string;
  ordersPerSecond: number;
  p50: number;
  p99: number;
  cpuMsPerOrder: number;
  /** Absent on PGlite, which has no client library to count in. */
  statementsPerOrder?: number;
  statuses: Record<number, number>;
}

/** Statements sent to PostgreSQL so far: every pool connection is a pg.Client, and every statement goes through its query(). */
let statementsSent = 0;
const sendStatement = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: Parameters<typeof sendStatement>) {
  statementsSent++;
  return sendStatement.apply(this, args);
} as typeof sendStatement;

/** Customers signed in, each with an address and one piece of their product in the cart: sessions written straight to the database. */
async function prepareCustomers(database: DatabaseHandle, productIds: readonly string[], runId: string): Promise<string[]> {
  const { db } = database;
  const cookies: string[] = [];
  for (let start = 0; start < productIds.length; start += 200) {
    const batch = productIds.slice(start, start + 200);
    const rows = await db
      .insert(users)
      .values(batch.map((_, index) => ({ email: `bench-${runId}-${start + index}@example.com` })))
      .returning({ id: users.id });
    const secrets = rows.map(() => randomBytes(32).toString('base64url'));
    await db.insert(sessions).values(rows.map((user, index) => ({ idHash: hashSecret(secrets[index]!), userId: user.id, expiresAt: new Date(Date.now() + 86_400_000) })));
    await db.insert(addresses).values(
      rows.map((user) => ({
        id: randomUUID(),
        userId: user.id,
        fullName: 'Maria Ivanova',
        streetAddress: '12 Vitosha Blvd',
        city: 'Sofia',
        postalCode: '1000',
        country: 'BG',
        phone: '+359 88 812 3456',
        isDefault: true,
      })),
    );
    await db.insert(cartItems).values(rows.map((user, index) => ({ userId: user.id, productId: batch[index]!, name: 'Bench Set', priceMinor: PRICE_MINOR, quantity: 1 })));
    cookies.push(...secrets.map((secret) => `session=${secret}`));
  }
  return cookies;
}

/** Places every customer's order, CONCURRENCY at a time, and measures each request. */
async function placeAll(baseUrl: string, cookies: readonly string[]): Promise<{ seconds: number; latencies: number[]; statuses: Record<number, number> }> {
  const expectedTotalMinor = priceLines([{ priceMinor: PRICE_MINOR, quantity: 1 }]).total;
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < cookies.length) {
        const cookie = cookies[next++]!;
        const sent = performance.now();
        const response = await fetch(`${baseUrl}/api/orders`, {
          method: 'POST',
          headers: { cookie, 'content-type': 'application/json', origin: baseUrl },
          body: JSON.stringify({ idempotencyKey: randomUUID().replace(/-/g, ''), acceptTerms: true, expectedTotalMinor }),
        });
        await response.arrayBuffer();
        latencies.push(performance.now() - sent);
        statuses[response.status] = (statuses[response.status] ?? 0) + 1;
      }
    }),
  );
  return { seconds: (performance.now() - started) / 1000, latencies, statuses };
}

const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function benchDatabase(label: string, databaseUrl: string | undefined): Promise<Result[]> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'shop-bench-'));
  const clientDir = path.join(dataDir, 'client');
  await mkdir(clientDir);
  await writeFile(path.join(clientDir, 'index.html'), '<!doctype html><html><head></head><body></body></html>');
  const config = loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir, PUBLIC_URL: 'http://127.0.0.1', LOG_LEVEL: 'warn', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });
  const database = await openDatabase(databaseUrl ? { databaseUrl } : { dataDir });
  const app = await buildApp({ config, database, images: productImagesFor(database, dataDir), pages: builtPages(clientDir), devMailboxKey: randomUUID() });
  const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  const results: Result[] = [];
  try {
    const scenarios = [
      // The first run warms up the JIT and the connection pool, and is not reported.
      { scenario: 'warm-up', products: Math.min(ORDERS, 400) },
      { scenario: 'spread over 400 products', products: Math.min(ORDERS, 400) },
      { scenario: 'all on one product', products: 1 },
    ];
    for (const { scenario, products: productCount } of scenarios) {
      const runId = randomBytes(4).toString('hex');
      const rows = await database.db
        .insert(products)
        .values(
          Array.from({ length: productCount }, (_, index) => ({
            nameEn: `Bench ${runId} ${index}`,
            descriptionEn: 'x',
            slug: `bench-${runId}-${index}`,
            priceMinor: PRICE_MINOR,
            stock: ORDERS * 10,
          })),
        )
        .returning({ id: products.id });
      const cookies = await prepareCustomers(database, Array.from({ length: ORDERS }, (_, index) => rows[index % rows.length]!.id), runId);
      const cpuBefore = process.cpuUsage();
      const statementsBefore = statementsSent;
      const { seconds, latencies, statuses } = await placeAll(baseUrl, cookies);
      const cpu = process.cpuUsage(cpuBefore);
      const sorted = [...latencies].sort((a, b) => a - b);
      if (scenario !== 'warm-up') {
        results.push({
          database: label,
          scenario,
          ordersPerSecond: ORDERS / seconds,
          p50: percentile(sorted, 50),
          p99: percentile(sorted, 99),
          cpuMsPerOrder: (cpu.user + cpu.system) / 1000 / ORDERS,
          ...(databaseUrl ? { statementsPerOrder: (statementsSent - statementsBefore) / ORDERS } : {}),
          statuses,
        });
      }
    }
  } finally {
    await app.close();
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  }
  return results;
}

/** The report is the script's output, on stdout; the server's warnings go to stderr. */
const print = (line: string) => process.stdout.write(`${line}\n`);

const results = [...(await benchDatabase('PGlite', undefined))];
if (process.env.BENCH_DATABASE_URL) results.push(...(await benchDatabase('PostgreSQL', process.env.BENCH_DATABASE_URL)));
print(`Order placement, ${ORDERS} orders per run, ${CONCURRENCY} at a time, over HTTP on this machine:\n`);
print('| database | orders | orders/s | p50 ms | p99 ms | CPU ms/order | statements/order | answers |');
print('|---|---|---|---|---|---|---|---|');
for (const result of results) {
  const answers = Object.entries(result.statuses)
    .map(([status, count]) => `${count}×${status}`)
    .join(', ');
  const statements = result.statementsPerOrder === undefined ? '–' : result.statementsPerOrder.toFixed(1);
  print(`| ${result.database} | ${result.scenario} | ${result.ordersPerSecond.toFixed(0)} | ${result.p50.toFixed(1)} | ${result.p99.toFixed(1)} | ${result.cpuMsPerOrder.toFixed(2)} | ${statements} | ${answers} |`);
}
