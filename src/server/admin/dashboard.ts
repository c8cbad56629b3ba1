import { and, asc, count, eq, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
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
import { divideHalfUp, type Currency } from '#shared/money.js';
import { normalizeOrderStatus, ORDER_STATUSES, storedValuesOf } from '#shared/order-status.js';
import { addDays, daysBetween, sofiaDate } from '#shared/sofia-time.js';
import { LOW_STOCK_MAX } from '#shared/stock.js';
import type { Database, Executor } from '#server/db/client.js';
import { orderItems, orders, products } from '#server/db/schema.js';
import { selectRows } from '#server/db/transaction.js';
import { HttpError } from '#server/http/errors.js';
import { productSalesQuery, salesByDay, sumEndedDays, type DaySales, type Period } from './daily-sales.js';

const BEST_SELLERS = 5;
const STOCK_ALERTS = 10;

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

/** The sales of the days of a period, summed. */
function salesOver(sales: Map<string, DaySales>, { from, to }: Period): SalesFigures {
  let revenueMinor = 0;
  let orderCount = 0;
  for (let day = from; day <= to; day = addDays(day, 1)) {
    const daySales = sales.get(day)!;
    revenueMinor += daySales.revenueMinor;
    orderCount += daySales.orders;
  }
  return figures(revenueMinor, orderCount);
}

/** The range's sales per day, or per week for a long range (from its first day), every day or week listed. */
function salesChart(sales: Map<string, DaySales>, range: Period): Dashboard['chart'] {
  const days = daysBetween(range.from, range.to) + 1;
  const unit = days > DASHBOARD_DAILY_MAX_DAYS ? 'week' : 'day';
  const step = unit === 'week' ? 7 : 1;
  const points = Array.from({ length: Math.ceil(days / step) }, (_, index): SalesPoint => {
    const start = addDays(range.from, index * step);
    const end = addDays(start, step - 1);
    const { revenueMinor, orders } = salesOver(sales, { from: start, to: end < range.to ? end : range.to });
    return { start, revenueMinor, orders };
  });
  return { unit, points };
}

/** The products that sold most in the range, by pieces and by what was paid for them, ranked both ways from one sum per product. */
async function bestSellers(db: Executor, range: Period, shop: Currency, now: Date): Promise<Dashboard['bestSellers']> {
  const ranked = (ranking: 'pieces' | 'revenue') =>
    sql`(select ${sql.raw(`'${ranking}'`)} as ranking, product_id, name_en, name_bg, pieces, revenue from sales order by ${sql.identifier(ranking)} desc, product_id limit ${BEST_SELLERS})`;
  const rows = await selectRows<{ ranking: 'pieces' | 'revenue'; product_id: string; name_en: string; name_bg: string; pieces: string | number; revenue: string | number }>(
    db,
    sql`with sales as materialized (${await productSalesQuery(db, range, shop, now)}) ${ranked('pieces')} union all ${ranked('revenue')}`,
  );
  const toBestSeller = (row: (typeof rows)[number]): BestSeller => ({ productId: row.product_id, name: { en: row.name_en, bg: row.name_bg }, pieces: Number(row.pieces), revenueMinor: Number(row.revenue) });
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
 * due (gift cards sold are sent by e-mail, not made): the lines of open orders, read from the partial
 * index order_items_work_due_idx alone.
 */
async function workDue(db: Executor, today: string): Promise<Dashboard['work']> {
  const [row] = await db
    .select({
      lines: count(),
      pieces: sql<number>`coalesce(sum(${orderItems.quantity}), 0)`.mapWith(Number),
      overdue: sql<number>`count(*) filter (where ${orderItems.dispatchBy} < ${today})`.mapWith(Number),
      nextDue: sql<string | null>`(min(${orderItems.dispatchBy}) filter (where ${orderItems.dispatchBy} >= ${today}))::text`,
    })
    .from(orderItems)
    .where(and(eq(orderItems.onWorkList, true), eq(orderItems.giftCard, false)));
  return { lines: row!.lines, pieces: row!.pieces, overdue: row!.overdue, nextDue: row!.nextDue };
}

/** The dashboard for the range (the last 30 days in Sofia unless another is given), as of now. */
export async function dashboard(db: Database, shop: Currency, asked: { from?: string; to?: string }, now = new Date()): Promise<Dashboard> {
  const today = sofiaDate(now);
  const last30 = { from: addDays(today, -29), to: today };
  const range = { from: asked.from ?? (asked.to ? addDays(asked.to, -29) : last30.from), to: asked.to ?? today };
  if (daysBetween(range.from, range.to) + 1 > DASHBOARD_MAX_DAYS) {
    throw new HttpError(400, 'bad_request', `A range is at most ${DASHBOARD_MAX_DAYS} days.`, { field: 'from', messageKey: 'admin.dashboard.errors.tooLong' });
  }
  const periods = [{ from: today, to: today }, { from: addDays(today, -6), to: today }, last30, range];
  const compared = periods.flatMap((period) => [period, before(period)]);
  const span = { from: compared.reduce((first, period) => (period.from < first ? period.from : first), today), to: compared.reduce((last, period) => (period.to > last ? period.to : last), today) };
  await sumEndedDays(db, span, now);
  const [sales, sellers, stock, open, work] = await Promise.all([salesByDay(db, span, shop, now), bestSellers(db, range, shop, now), stockAlerts(db), openOrders(db), workDue(db, today)]);
  const [todaySales, last7, last30Sales, rangeSales] = periods.map((period): SalesComparison => ({ ...period, current: salesOver(sales, period), previous: salesOver(sales, before(period)) }));
  return { currency: shop, today: todaySales!, last7: last7!, last30: last30Sales!, range: rangeSales!, chart: salesChart(sales, range), bestSellers: sellers, ...stock, openOrders: open, work };
}
