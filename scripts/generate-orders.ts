/**
 * Fills a database with sample customers and orders, then times the admin order list and the
 * dashboard on it.
 *
 *   npm run orders:generate -- 100000        add 100,000 orders, then measure
 *   npm run orders:generate -- 0             only measure what is there
 *
 * It uses the server's database (DATABASE_URL, or the embedded one in DATA_DIR), so point it at a
 * scratch one: the sample customers are real rows (customer-00001@abv.sample.example and so on).
 */
import { performance } from 'node:perf_hooks';
import { count, sql } from 'drizzle-orm';
import { ADMIN_ORDERS_PAGE_SIZE } from '#shared/admin.js';
import { pieceCount } from '#shared/cart.js';
import { priceLines } from '#shared/pricing.js';
import { normalizeOrderStatus, ORDER_STATUSES, storedValuesOf } from '#shared/order-status.js';
import { placedOrderStatus } from '#shared/orders.js';
import { addDays, sofiaDate } from '#shared/sofia-time.js';
import { dashboard } from '#server/admin/dashboard.js';
import { seedDemoCatalogue } from '#server/catalog/seed-demo-catalogue.js';
import { loadConfig } from '#server/config.js';
import { openDatabase, type Database } from '#server/db/client.js';
import { orderItems, orders, orderStatusChanges, products, users } from '#server/db/schema.js';
import { productImagesFor, type ProductImages } from '#server/images/product-images.js';
import { newOrderId } from '#server/orders/checkout.js';
import { searchOrders, STATUS_TIME_COLUMNS, type OrderQuery } from '#server/orders/order-queries.js';

const CUSTOMERS = 5_000;
const BATCH = 1_000;
/** Legacy values that old data may hold; the admin list must show them through the spec's mapping. */
const STORED_STATUSES = [...ORDER_STATUSES, 'ordered', 'shipped', 'completed'];
/** What becomes of an order within a fortnight, as in a shop: delivered (also the legacy value) or cancelled. */
const CLOSED_STATUSES = ['delivered', 'delivered', 'delivered', 'completed', 'cancelled'];
const OPEN_FOR_MS = 14 * 24 * 60 * 60 * 1000;
const CITIES = ['Sofia', 'Plovdiv', 'Varna', 'Burgas', 'Ruse', 'Stara Zagora'];

/** A small seeded generator, so that two runs build the same shapes of data. */
function randomSource(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]! };
}

const SAMPLE_DOMAIN = 'sample.example';
/** Mail providers in rough proportion (of 20 customers, 8 use abv and 1 friends), so that a search by domain matches part of the shop. */
const PROVIDERS = ['abv', 'gmail', 'abv', 'yahoo', 'abv', 'gmail', 'mail', 'abv', 'gmail', 'abv', 'yahoo', 'gmail', 'abv', 'mail', 'gmail', 'abv', 'yahoo', 'gmail', 'abv', 'friends'];
const customerEmail = (index: number) => `customer-${String(index + 1).padStart(5, '0')}@${PROVIDERS[index % PROVIDERS.length]}.${SAMPLE_DOMAIN}`;

async function ensureCustomers(db: Database): Promise<{ id: string; email: string }[]> {
  for (let start = 0; start < CUSTOMERS; start += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, CUSTOMERS - start) }, (_, offset) => ({ email: customerEmail(start + offset) }));
    await db.insert(users).values(batch).onConflictDoNothing();
  }
  const rows = await db.select({ id: users.id, email: users.email }).from(users);
  return rows.filter((row) => row.email.endsWith(`.${SAMPLE_DOMAIN}`));
}

async function generate(db: Database, images: ProductImages, total: number): Promise<void> {
  // Orders need products; a new database gets the demo catalogue, as the shop's first start would.
  await seedDemoCatalogue(db, images);
  const catalogue = await db.select({ id: products.id, name: products.nameEn, nameBg: products.nameBg, priceMinor: products.priceMinor }).from(products);
  const customers = await ensureCustomers(db);
  const random = randomSource(total);
  const now = Date.now();
  const yearMs = 365 * 24 * 60 * 60 * 1000;
  const started = performance.now();
  for (let done = 0; done < total; done += BATCH) {
    const orderRows: (typeof orders.$inferInsert)[] = [];
    const itemRows: (typeof orderItems.$inferInsert)[] = [];
    const historyRows: (typeof orderStatusChanges.$inferInsert)[] = [];
    for (let index = 0; index < Math.min(BATCH, total - done); index += 1) {
      const customer = random.pick(customers);
      const lines = Array.from({ length: 1 + Math.floor(random.next() * 3) }, () => ({ ...random.pick(catalogue), quantity: 1 + Math.floor(random.next() * 2) }));
      const pricing = priceLines(lines);
      const createdAt = new Date(now - Math.floor(random.next() * yearMs));
      // Orders of the last fortnight are in any status; older ones are closed, so that the open ones are as few as a shop's.
      const stored = random.pick(now - createdAt.getTime() > OPEN_FOR_MS ? CLOSED_STATUSES : STORED_STATUSES);
      const id = newOrderId();
      const onlineMethod = random.next() < 0.5 ? 'pay_by_link' : 'card';
      // An accepted order is one paid in cash on delivery, placed as accepted rather than pending.
      const paymentMethod = stored === 'accepted' ? 'cash_on_delivery' : onlineMethod;
      const placedStatus = placedOrderStatus(paymentMethod);
      orderRows.push({
        id,
        userId: customer.id,
        customerEmail: customer.email,
        status: stored,
        subtotalMinor: pricing.subtotal,
        taxMinor: pricing.tax,
        shippingMinor: pricing.shipping,
        totalMinor: pricing.total,
        itemCount: pieceCount(lines),
        itemDescription: lines.map((line) => line.name).join(', '),
        paymentMethod,
        shippingFullName: `Customer ${customer.email.slice(9, 14)}`,
        shippingStreetAddress: `${1 + Math.floor(random.next() * 200)} Vitosha Blvd`,
        shippingCity: random.pick(CITIES),
        shippingPostalCode: String(1000 + Math.floor(random.next() * 8000)),
        shippingCountry: 'BG',
        shippingPhone: '+359888123456',
        createdAt,
        orderedAt: createdAt,
        updatedAt: createdAt,
        [STATUS_TIME_COLUMNS[placedStatus]]: createdAt,
        [STATUS_TIME_COLUMNS[normalizeOrderStatus(stored)]]: createdAt,
      });
      lines.forEach((line, position) => itemRows.push({ orderId: id, position, productId: line.id, nameEn: line.name, nameBg: line.nameBg, priceMinor: line.priceMinor, quantity: line.quantity, addedAt: createdAt, orderedAt: createdAt }));
      historyRows.push({ orderId: id, position: 0, status: placedStatus, changedAt: createdAt });
      if (normalizeOrderStatus(stored) !== placedStatus) historyRows.push({ orderId: id, position: 1, status: normalizeOrderStatus(stored), changedAt: createdAt });
    }
    await db.transaction(async (tx) => {
      // Order ids are 40 random bits: among a million, two alike are likely; the rare order whose id
      // is taken already is left out.
      const inserted = new Set((await tx.insert(orders).values(orderRows).onConflictDoNothing().returning({ id: orders.id })).map((row) => row.id));
      await tx.insert(orderItems).values(itemRows.filter((row) => inserted.has(row.orderId)));
      await tx.insert(orderStatusChanges).values(historyRows.filter((row) => inserted.has(row.orderId)));
    });
    if ((done / BATCH) % 10 === 9 || done + BATCH >= total) {
      console.warn(`  ${Math.min(done + BATCH, total).toLocaleString('en')} orders (${((performance.now() - started) / 1000).toFixed(1)} s)`);
    }
  }
}

const RUNS = 50;

interface Timing {
  /** Wall time of each run, in milliseconds. */
  wall: number[];
  /** This process's CPU time (user and system) of each run, in milliseconds: with PGlite, the database's work too. */
  cpu: number[];
  total: string;
}

/** One run of an admin list query, added to its timing. */
async function timeOnce(db: Database, query: OrderQuery, timing: Timing): Promise<void> {
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const page = await searchOrders(db, query);
  timing.wall.push(performance.now() - started);
  const cpu = process.cpuUsage(cpuBefore);
  timing.cpu.push((cpu.user + cpu.system) / 1000);
  timing.total = `${page.total.toLocaleString('en')}${page.totalIsLowerBound ? '+' : ''}`;
}

const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.95) - 1]!;

/** The cursor of page `page` of the whole list, reached as the admin would: Next, page after page. */
async function cursorOfPage(db: Database, page: number): Promise<string | undefined> {
  let after: string | undefined;
  for (let current = 1; current < page; current += 1) {
    after = (await searchOrders(db, { after, pageSize: ADMIN_ORDERS_PAGE_SIZE })).nextCursor ?? after;
  }
  return after;
}

async function measure(db: Database): Promise<void> {
  const [counted] = await db.select({ total: count() }).from(orders);
  const [someOrder] = await db.select({ id: orders.id }).from(orders).limit(1);
  console.warn(`\nAdmin order list on ${counted!.total.toLocaleString('en')} orders (95th percentile of ${RUNS} runs of each, the cases taking turns):`);
  const pageSize = ADMIN_ORDERS_PAGE_SIZE;
  const cases: [string, OrderQuery][] = [
    ['first page, all statuses', { pageSize }],
    ['page 200, all statuses (by cursor)', { after: await cursorOfPage(db, 200), pageSize }],
    ...ORDER_STATUSES.map((status): [string, OrderQuery] => [`status "${status}"${storedValuesOf(status).length > 1 ? ' (with legacy values)' : ''}`, { status, pageSize }]),
    ['search by full e-mail', { search: customerEmail(41), pageSize }],
    ['search by e-mail beginning "customer-01"', { search: 'customer-01', pageSize }],
    ['search by e-mail beginning "customer-0424"', { search: 'customer-0424', pageSize }],
    ['search by e-mail middle part "mer-0424"', { search: 'mer-0424', pageSize }],
    ['search by e-mail middle part "04242@"', { search: '04242@', pageSize }],
    ['search by domain "gmail.sample.example"', { search: `gmail.${SAMPLE_DOMAIN}`, pageSize }],
    ['search by domain "friends.sample.example"', { search: `friends.${SAMPLE_DOMAIN}`, pageSize }],
    ['search by common part "sample"', { search: 'sample', pageSize }],
    ['search by order id', { search: someOrder?.id ?? 'NA-', pageSize }],
    ['search by order id beginning', { search: someOrder?.id.slice(0, 6) ?? 'NA-', pageSize }],
    ['search with no match', { search: 'nobody@nowhere.example', pageSize }],
    ['status "paid" and e-mail search', { status: 'paid', search: customerEmail(41), pageSize }],
    ['status "sent" and domain "friends"', { status: 'sent', search: `friends.${SAMPLE_DOMAIN}`, pageSize }],
  ];
  // The machines are shared and noisy: the cases take turns, run after run, so that a busy moment
  // falls on all of them alike; each time is also given as a ratio to the first case, and with
  // PGlite the CPU time of this process (which runs the database) holds better than the wall time.
  const timings = cases.map((): Timing => ({ wall: [], cpu: [], total: '' }));
  for (let run = 0; run < RUNS; run += 1) {
    for (const [index, [, query]] of cases.entries()) await timeOnce(db, query, timings[index]!);
  }
  const baseline = p95(timings[0]!.wall);
  console.warn(`  ${'case'.padEnd(44)} ${'p95 wall'.padStart(10)}  ${'ratio'.padStart(6)}  ${'p95 CPU'.padStart(10)}   matching`);
  for (const [index, [label]] of cases.entries()) {
    const { wall, cpu, total } = timings[index]!;
    console.warn(`  ${label.padEnd(44)} ${p95(wall).toFixed(1).padStart(7)} ms  ${(p95(wall) / baseline).toFixed(2).padStart(5)}×  ${p95(cpu).toFixed(1).padStart(7)} ms   ${total}`);
  }
}

/** Fewer runs than the list's: each reads a month or a year of orders. */
const DASHBOARD_RUNS = 10;

/** The admin dashboard as it opens (the last 30 days) and over a whole year, the cases taking turns. */
async function measureDashboard(db: Database): Promise<void> {
  const today = sofiaDate(new Date());
  const cases: [string, { from?: string; to?: string }][] = [
    ['dashboard, last 30 days (as it opens)', {}],
    ['dashboard, last 365 days', { from: addDays(today, -364), to: today }],
  ];
  // The first view sums the days that ended and are not summed yet (all of them, on a new database).
  console.warn('\nAdmin dashboard, first view:');
  for (const [label, range] of cases) {
    const started = performance.now();
    await dashboard(db, 'BGN', range);
    console.warn(`  ${label.padEnd(44)} ${(performance.now() - started).toFixed(1).padStart(7)} ms wall`);
  }
  const timings = cases.map((): Timing => ({ wall: [], cpu: [], total: '' }));
  for (let run = 0; run < DASHBOARD_RUNS; run += 1) {
    for (const [index, [, range]] of cases.entries()) {
      const timing = timings[index]!;
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      const board = await dashboard(db, 'BGN', range);
      timing.wall.push(performance.now() - started);
      const cpu = process.cpuUsage(cpuBefore);
      timing.cpu.push((cpu.user + cpu.system) / 1000);
      timing.total = `${board.range.current.orders.toLocaleString('en')} orders in the range`;
    }
  }
  console.warn(`\nAdmin dashboard (95th percentile of ${DASHBOARD_RUNS} runs of each, the cases taking turns):`);
  for (const [index, [label]] of cases.entries()) {
    const { wall, cpu, total } = timings[index]!;
    console.warn(`  ${label.padEnd(44)} ${p95(wall).toFixed(1).padStart(7)} ms wall  ${p95(cpu).toFixed(1).padStart(7)} ms CPU   ${total}`);
  }
}

const requested = Number(process.argv[2] ?? '100000');
if (!Number.isInteger(requested) || requested < 0) {
  console.error('Usage: npm run orders:generate -- <number of orders to add, 0 to only measure>');
  process.exit(2);
}
const config = loadConfig();
const database = await openDatabase(config.databaseUrl ? { databaseUrl: config.databaseUrl } : { dataDir: config.dataDir });
try {
  console.warn(`Database: ${database.kind === 'postgres' ? 'PostgreSQL' : `PGlite in ${config.dataDir}`}`);
  if (requested > 0) {
    console.warn(`Adding ${requested.toLocaleString('en')} orders...`);
    await generate(database.db, productImagesFor(database, config.dataDir), requested);
    // Fresh statistics and visibility map, as autovacuum (PostgreSQL) or the daily vacuum (PGlite) keeps them.
    await database.db.execute(sql`vacuum analyze`);
  }
  await measure(database.db);
  await measureDashboard(database.db);
} finally {
  await database.close();
}
