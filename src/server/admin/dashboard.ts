import { and, asc, count, eq, gte, inArray, isNotNull, lt, lte, ne, notInArray, sql, type SQL } from 'drizzle-orm';
import {
  DASHBOARD_DAILY_MAX_DAYS,
  DASHBOARD_MAX_DAYS,
  type BestSeller,
  type Dashboard,
  type SalesComparison,
  type SalesFigures,
  type SalesPoint,
  type StockAlert,
} from '#shared/dashboard.js';
import { BGN_PER_EUR, divideHalfUp, type Currency } from '#shared/money.js';
import { normalizeOrderStatus, ORDER_STATUSES, storedValuesOf } from '#shared/order-status.js';
import { addDays, daysBetween, sofiaDate, sofiaMidnight } from '#shared/sofia-time.js';
import { LOW_STOCK_MAX } from '#shared/stock.js';
import { WORK_LIST_STATUSES } from '#shared/work-list.js';
import type { Executor } from '#server/db/client.js';
import { orderItems, orders, products } from '#server/db/schema.js';
import { selectRows } from '#server/db/transaction.js';
import { HttpError } from '#server/http/errors.js';

const BEST_SELLERS = 5;
const STOCK_ALERTS = 10;

/**
 * An amount in the other currency converted to the shop's at the fixed rate, half-up, as bgnToEurMinor
 * and eurToBgnMinor do (integer division of non-negative bigints rounds down).
 */
function fromOtherCurrency(amount: SQL, shop: Currency): SQL {
  const { numerator, denominator } = BGN_PER_EUR;
  return shop === 'EUR' ? sql`(2 * (${amount})::bigint * ${denominator} + ${numerator}) / (2 * ${numerator})` : sql`(2 * (${amount})::bigint * ${numerator} + ${denominator}) / (2 * ${denominator})`;
}

/** An amount of an order in the shop's currency: as it is, or converted. */
const inShopCurrency = (amount: SQL, shop: Currency): SQL => sql`case when ${orders.currency} = ${shop} then (${amount})::bigint else ${fromOtherCurrency(amount, shop)} end`;

const sold = sql`${orders.status} <> 'cancelled'`;

interface Period {
  from: string;
  to: string;
}

/** The period of the same length that ends the day before this one begins. */
const before = ({ from, to }: Period): Period => {
  const length = daysBetween(from, to) + 1;
  return { from: addDays(from, -length), to: addDays(from, -1) };
};

const figures = (revenueMinor: number, orderCount: number): SalesFigures => ({
  revenueMinor,
  orders: orderCount,
  averageMinor: orderCount === 0 ? 0 : divideHalfUp(revenueMinor, orderCount),
});

/**
 * Sales of each period and the one before it, in one pass over the orders of all of them: one sum and
 * one count per period, each filtered to its own moments (orders_created_sales_idx holds every column
 * read, so the pass reads the index alone).
 */
async function compareSales(db: Executor, periods: Period[], shop: Currency): Promise<SalesComparison[]> {
  const windows = periods.flatMap((period) => [period, before(period)]).map(({ from, to }) => ({ start: sofiaMidnight(from), end: sofiaMidnight(addDays(to, 1)) }));
  const start = new Date(Math.min(...windows.map((window) => window.start.getTime())));
  const end = new Date(Math.max(...windows.map((window) => window.end.getTime())));
  const revenue = inShopCurrency(sql`${orders.totalMinor}`, shop);
  const columns = Object.fromEntries(
    windows.flatMap((window, index) => {
      const inside = sql`${orders.createdAt} >= ${window.start.toISOString()} and ${orders.createdAt} < ${window.end.toISOString()}`;
      return [
        [`revenue${index}`, sql<number>`coalesce(sum(${revenue}) filter (where ${inside}), 0)`.mapWith(Number)],
        [`orders${index}`, sql<number>`count(*) filter (where ${inside})`.mapWith(Number)],
      ];
    }),
  );
  const [row] = (await db
    .select(columns)
    .from(orders)
    .where(and(gte(orders.createdAt, start), lt(orders.createdAt, end), sold))) as Record<string, number>[];
  const at = (index: number) => figures(row![`revenue${index}`]!, row![`orders${index}`]!);
  return periods.map((period, index) => ({ ...period, current: at(2 * index), previous: at(2 * index + 1) }));
}

/** Sales per day (or per week, for a long range) of the range, every day or week listed, with or without sales. */
async function salesChart(db: Executor, range: Period, shop: Currency): Promise<Dashboard['chart']> {
  const days = daysBetween(range.from, range.to) + 1;
  const unit = days > DASHBOARD_DAILY_MAX_DAYS ? 'week' : 'day';
  const step = unit === 'week' ? 7 : 1;
  const starts = Array.from({ length: Math.ceil(days / step) }, (_, index) => addDays(range.from, index * step));
  // The buckets' bounds as moments: width_bucket puts each order in the bucket whose start it is at or after.
  const bounds = starts.map((day) => sofiaMidnight(day).getTime() / 1000);
  const end = sofiaMidnight(addDays(range.to, 1));
  const bucket = sql<number>`width_bucket(extract(epoch from ${orders.createdAt})::float8, ${`{${bounds.join(',')}}`}::float8[])`.mapWith(Number);
  const rows = await db
    .select({ bucket, revenueMinor: sql<number>`sum(${inShopCurrency(sql`${orders.totalMinor}`, shop)})`.mapWith(Number), orders: count() })
    .from(orders)
    .where(and(gte(orders.createdAt, sofiaMidnight(range.from)), lt(orders.createdAt, end), sold))
    .groupBy(sql`1`);
  const points = starts.map((start): SalesPoint => ({ start, revenueMinor: 0, orders: 0 }));
  for (const row of rows) Object.assign(points[row.bucket - 1]!, { revenueMinor: row.revenueMinor, orders: row.orders });
  return { unit, points };
}

/**
 * The products that sold most in the range, by pieces and by what was paid for them (their share of a
 * discount taken off): the range's lines read from order_items_ordered_sales_idx alone, less those of
 * the range's cancelled orders (few, found by orders_status_created_id_idx), summed once per product
 * and ranked both ways from that one sum. Amounts are in the shop's currency: only a range from before
 * the change to the euro holds orders in the other, and only then are the lines' orders looked up.
 */
async function bestSellers(db: Executor, range: Period, shop: Currency): Promise<Dashboard['bestSellers']> {
  const start = sofiaMidnight(range.from);
  const end = sofiaMidnight(addDays(range.to, 1));
  const inRange = and(gte(orders.createdAt, start), lt(orders.createdAt, end));
  const cancelled = db.select({ id: orders.id }).from(orders).where(and(eq(orders.status, 'cancelled'), inRange));
  // Read from orders_created_sales_idx alone, and stops at the first such order.
  const [mixed] = await db.select({ id: sql`1` }).from(orders).where(and(inRange, ne(orders.currency, shop))).limit(1);
  const paid = sql`${orderItems.priceMinor}::bigint * ${orderItems.quantity} - ${orderItems.discountMinor}`;
  const otherCurrency = db.select({ id: orders.id }).from(orders).where(and(ne(orders.currency, shop), inRange));
  const revenue = mixed ? sql`case when ${inArray(orderItems.orderId, otherCurrency)} then ${fromOtherCurrency(paid, shop)} else ${paid} end` : paid;
  const lines = and(gte(orderItems.orderedAt, start), lt(orderItems.orderedAt, end), isNotNull(orderItems.productId), notInArray(orderItems.orderId, cancelled));
  const ranked = (ranking: 'pieces' | 'revenue') =>
    sql`(select ${sql.raw(`'${ranking}'`)} as ranking, product_id, pieces, revenue from sales order by ${sql.identifier(ranking)} desc, product_id limit ${BEST_SELLERS})`;
  const rows = await selectRows<{ ranking: 'pieces' | 'revenue'; product_id: string; pieces: string | number; revenue: string | number }>(
    db,
    sql`with sales as materialized (
        select ${orderItems.productId} as product_id, sum(${orderItems.quantity}) as pieces, sum(${revenue}) as revenue
        from ${orderItems} where ${lines} group by ${orderItems.productId})
      ${ranked('pieces')} union all ${ranked('revenue')}`,
  );
  // Named as the products are now; a product deleted since has no line here (its lines lost their product).
  const ids = [...new Set(rows.map((row) => row.product_id))];
  const names = ids.length === 0 ? [] : await db.select({ id: products.id, nameEn: products.nameEn, nameBg: products.nameBg }).from(products).where(inArray(products.id, ids));
  const toBestSeller = (row: (typeof rows)[number]): BestSeller => {
    const product = names.find((candidate) => candidate.id === row.product_id);
    return { productId: row.product_id, name: { en: product?.nameEn ?? '', bg: product?.nameBg ?? '' }, pieces: Number(row.pieces), revenueMinor: Number(row.revenue) };
  };
  return { byPieces: rows.filter((row) => row.ranking === 'pieces').map(toBestSeller), byRevenue: rows.filter((row) => row.ranking === 'revenue').map(toBestSeller) };
}

/** Products counted for all their pieces that are running out (1 to LOW_STOCK_MAX left) or sold out. */
async function stockAlerts(db: Executor): Promise<Pick<Dashboard, 'lowStock' | 'soldOut'>> {
  const alerts = (condition: SQL | undefined) =>
    db
      .select({ productId: products.id, nameEn: products.nameEn, nameBg: products.nameBg, stock: products.stock })
      .from(products)
      .where(and(eq(products.stockMode, 'product'), condition))
      .orderBy(asc(products.stock), asc(products.nameEn))
      .limit(STOCK_ALERTS)
      .then((rows) => rows.map((row): StockAlert => ({ productId: row.productId, name: { en: row.nameEn, bg: row.nameBg }, stock: row.stock ?? 0 })));
  const [lowStock, soldOut] = await Promise.all([alerts(and(gte(products.stock, 1), lte(products.stock, LOW_STOCK_MAX))), alerts(eq(products.stock, 0))]);
  return { lowStock, soldOut };
}

/** How many orders are in each open status (every status but delivered and cancelled). */
async function openOrders(db: Executor): Promise<Dashboard['openOrders']> {
  const open = ORDER_STATUSES.filter((status) => status !== 'delivered' && status !== 'cancelled');
  const rows = await db
    .select({ status: orders.status, count: count() })
    .from(orders)
    .where(inArray(orders.status, open.flatMap(storedValuesOf)))
    .groupBy(orders.status);
  return open.map((status) => ({ status, count: rows.filter((row) => normalizeOrderStatus(row.status) === status).reduce((sum, row) => sum + row.count, 0) }));
}

/**
 * The work list's lines in figures: to make and send, late (due before today), and the next day one is
 * due (gift cards sold are sent by e-mail, not made). The open orders are few (orders_status_created_id_idx
 * finds them) and each one's lines are read from order_items_order_work_idx alone; `offset 0` keeps the
 * planner from turning this into a hash join over every order line, which it prefers from its estimates
 * and which reads millions.
 */
async function workDue(db: Executor, today: string): Promise<Dashboard['work']> {
  const open = inArray(orders.status, WORK_LIST_STATUSES.flatMap(storedValuesOf));
  const [row] = await selectRows<{ lines: string | number; pieces: string | number; overdue: string | number; next_due: string | null }>(
    db,
    sql`select count(*) as lines, coalesce(sum(line.quantity), 0) as pieces,
        count(*) filter (where line.dispatch_by < ${today}) as overdue,
        (min(line.dispatch_by) filter (where line.dispatch_by >= ${today}))::text as next_due
      from ${orders} cross join lateral (
        select ${orderItems.quantity} as quantity, ${orderItems.dispatchBy} as dispatch_by from ${orderItems}
        where ${orderItems.orderId} = ${orders.id} and not ${orderItems.giftCard} offset 0) line
      where ${open}`,
  );
  return { lines: Number(row!.lines), pieces: Number(row!.pieces), overdue: Number(row!.overdue), nextDue: row!.next_due };
}

/** The dashboard for the range (the last 30 days in Sofia unless another is given), as of now. */
export async function dashboard(db: Executor, shop: Currency, asked: { from?: string; to?: string }, now = new Date()): Promise<Dashboard> {
  const today = sofiaDate(now);
  const last30 = { from: addDays(today, -29), to: today };
  const range = { from: asked.from ?? (asked.to ? addDays(asked.to, -29) : last30.from), to: asked.to ?? today };
  if (daysBetween(range.from, range.to) + 1 > DASHBOARD_MAX_DAYS) {
    throw new HttpError(400, 'bad_request', `A range is at most ${DASHBOARD_MAX_DAYS} days.`, { field: 'from', messageKey: 'admin.dashboard.errors.tooLong' });
  }
  const [[todaySales, last7, last30Sales, rangeSales], chart, sellers, stock, open, work] = await Promise.all([
    compareSales(db, [{ from: today, to: today }, { from: addDays(today, -6), to: today }, last30, range], shop),
    salesChart(db, range, shop),
    bestSellers(db, range, shop),
    stockAlerts(db),
    openOrders(db),
    workDue(db, today),
  ]);
  return { currency: shop, today: todaySales!, last7: last7!, last30: last30Sales!, range: rangeSales!, chart, bestSellers: sellers, ...stock, openOrders: open, work };
}
