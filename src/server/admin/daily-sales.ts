import { and, between, count, eq, gte, inArray, isNotNull, lt, ne, notInArray, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { BGN_PER_EUR, type Currency } from '#shared/money.js';
import { addDays, daysBetween, sofiaDate, sofiaMidnight } from '#shared/sofia-time.js';
import type { Database, Executor } from '#server/db/client.js';
import { orderItems, orders, products, productSalesDays, salesDays } from '#server/db/schema.js';
import { lockSalesDays } from '#server/db/transaction.js';

/*
 * The dashboard's sales per Sofia day. A day that ended more than an hour ago is summed once into
 * sales_days and product_sales_days, the first time a dashboard asks for it, and read from there
 * after; the days since (today, and yesterday in the first hour after midnight) are summed from the
 * orders each time. A change to the orders of a summed day (cancelled, reopened, imported, deleted)
 * deletes its sums in a trigger (migration 0026), and the next dashboard sums it again.
 *
 * The hour, with the triggers' 30 minutes, leaves room for the clocks of this process and of the
 * database to differ, and for a transaction still open when its day ends: an order whose change the
 * triggers let pass is at most 30 minutes old, so its day is not summed until 30 minutes later.
 */
const SUMMED_AFTER_MS = 60 * 60 * 1000;
const SUMMED_AT_ONCE_DAYS = 7;

export interface Period {
  from: string;
  to: string;
}

export interface DaySales {
  orders: number;
  revenueMinor: number;
}

const sold = sql`${orders.status} <> 'cancelled'`;

/**
 * An amount in the other currency converted to the shop's at the fixed rate, half-up, as bgnToEurMinor
 * and eurToBgnMinor do (integer division of non-negative bigints rounds down).
 */
function fromOtherCurrency(amount: SQL, shop: Currency): SQL {
  const { numerator, denominator } = BGN_PER_EUR;
  return shop === 'EUR' ? sql`(2 * (${amount})::bigint * ${denominator} + ${numerator}) / (2 * ${numerator})` : sql`(2 * (${amount})::bigint * ${numerator} + ${denominator}) / (2 * ${denominator})`;
}

/** An amount of an order in the shop's currency: as it is, or converted. */
const inCurrency = (amount: SQL, shop: Currency): SQL => sql`case when ${orders.currency} = ${shop} then (${amount})::bigint else ${fromOtherCurrency(amount, shop)} end`;

/** What the buyer paid for a line: its pieces less its share of a discount. */
const paidForLine = sql`${orderItems.priceMinor}::bigint * ${orderItems.quantity} - ${orderItems.discountMinor}`;

/** Every day from the first to the last. */
const everyDay = ({ from, to }: Period): string[] => Array.from({ length: Math.max(0, daysBetween(from, to) + 1) }, (_, index) => addDays(from, index));

/** The part of the period summed in sales_days, and the part summed from the orders each time (either may be empty). */
function splitAtOpenDays(period: Period, now: Date): { summed: Period | null; open: Period | null } {
  const firstOpen = sofiaDate(new Date(now.getTime() - SUMMED_AFTER_MS));
  const summedTo = period.to < firstOpen ? period.to : addDays(firstOpen, -1);
  const openFrom = period.from > firstOpen ? period.from : firstOpen;
  return { summed: period.from <= summedTo ? { from: period.from, to: summedTo } : null, open: openFrom <= period.to ? { from: openFrom, to: period.to } : null };
}

/** A day's bounds in SQL, as sofiaMidnight gives them (midnight always exists in Sofia: its clocks change at 3 and 4 in the night). */
const dayStart = (day: SQL) => sql`(${day}::timestamp at time zone 'Europe/Sofia')`;
const dayEnd = (day: SQL) => sql`((${day} + 1)::timestamp at time zone 'Europe/Sofia')`;

/**
 * Which of the days (consecutive) a moment falls on, 1 for the first: width_bucket finds it among the
 * days' first moments. Joined with the days instead, PGlite compared every row with every day (15 s
 * for 60 days of lines), and time zone arithmetic per row took PostgreSQL seconds where this takes a fraction.
 */
function dayNumber(moment: AnyColumn, days: string[]): SQL<number> {
  const bounds = days.map((day) => sofiaMidnight(day).getTime() / 1000);
  return sql<number>`width_bucket(extract(epoch from ${moment})::float8, ${`{${bounds.join(',')}}`}::float8[])`;
}

/**
 * The lines of the orders placed from start to end and not cancelled: read from
 * order_items_ordered_sales_idx, less those of the period's cancelled orders (few, found by
 * orders_status_created_id_idx); and what was paid for each in a currency. Only a period from before
 * the change to the euro holds orders in both currencies, and only then are the lines' orders looked up.
 */
async function linesSold(db: Executor, start: Date, end: Date): Promise<{ where: SQL; paidIn: (target: Currency) => SQL }> {
  const inPeriod = and(gte(orders.createdAt, start), lt(orders.createdAt, end));
  // Both read from orders_created_sales_idx alone, and stop at the first order found.
  const [first] = await db.select({ currency: orders.currency }).from(orders).where(inPeriod).limit(1);
  const [mixed] = first ? await db.select({ id: sql`1` }).from(orders).where(and(inPeriod, ne(orders.currency, first.currency))).limit(1) : [];
  const cancelled = db.select({ id: orders.id }).from(orders).where(and(eq(orders.status, 'cancelled'), inPeriod));
  const paidIn = (target: Currency): SQL => {
    if (!mixed) return first?.currency === target || !first ? paidForLine : fromOtherCurrency(paidForLine, target);
    const otherCurrency = db.select({ id: orders.id }).from(orders).where(and(ne(orders.currency, target), inPeriod));
    return sql`case when ${inArray(orderItems.orderId, otherCurrency)} then ${fromOtherCurrency(paidForLine, target)} else ${paidForLine} end`;
  };
  return { where: and(gte(orderItems.orderedAt, start), lt(orderItems.orderedAt, end), isNotNull(orderItems.productId), notInArray(orderItems.orderId, cancelled))!, paidIn };
}

/**
 * Sums the ended days of the period that sales_days does not hold yet, under the lock that makes
 * changes to their orders wait (so that a change either is in a sum or deletes it after). salesByDay
 * and productSalesQuery read the sums, and are to be called after this for their period.
 */
export async function sumEndedDays(db: Database, asked: Period, now: Date): Promise<void> {
  const { summed: period } = splitAtOpenDays(asked, now);
  if (!period) return;
  const [held] = await db.select({ days: count() }).from(salesDays).where(between(salesDays.day, period.from, period.to));
  if (held!.days === daysBetween(period.from, period.to) + 1) return;
  // A week at a time, each in its own transaction: PGlite's one connection serves the shop's other
  // requests between them (a year at 1,000,000 orders takes seconds to sum).
  for (let from = period.from; from <= period.to; from = addDays(from, SUMMED_AT_ONCE_DAYS)) {
    const to = addDays(from, SUMMED_AT_ONCE_DAYS - 1);
    await sumMissingDays(db, { from, to: to < period.to ? to : period.to });
  }
}

async function sumMissingDays(db: Database, period: Period): Promise<void> {
  await db.transaction(async (tx) => {
    await lockSalesDays(tx);
    const summed = new Set((await tx.select({ day: salesDays.day }).from(salesDays).where(between(salesDays.day, period.from, period.to))).map((row) => row.day));
    const missing = everyDay(period).filter((day) => !summed.has(day));
    if (missing.length === 0) return;
    const day = sql.raw('missing.day');
    const missingDays = sql`${`{${missing.join(',')}}`}::date[]`;
    const days = sql`unnest(${missingDays}) as missing(day)`;
    // Counting a column of orders_created_sales_idx (not the id) lets the index answer alone.
    await tx.execute(sql`insert into ${salesDays} (day, orders, revenue_bgn_minor, revenue_eur_minor)
      select ${day}, count(${orders.createdAt}), coalesce(sum(${inCurrency(sql`${orders.totalMinor}`, 'BGN')}), 0), coalesce(sum(${inCurrency(sql`${orders.totalMinor}`, 'EUR')}), 0)
      from ${days} left join ${orders} on ${orders.createdAt} >= ${dayStart(day)} and ${orders.createdAt} < ${dayEnd(day)} and ${sold}
      group by ${day}`);
    // The two are forgotten together; this keeps a day's product sums from being counted twice all the same.
    await tx.delete(productSalesDays).where(inArray(productSalesDays.day, missing));
    const lines = await linesSold(tx, sofiaMidnight(missing[0]!), sofiaMidnight(addDays(missing.at(-1)!, 1)));
    const spanned = everyDay({ from: missing[0]!, to: missing.at(-1)! });
    const lineDay = sql`(${spanned[0]}::date + ${dayNumber(orderItems.orderedAt, spanned)} - 1)`;
    await tx.execute(sql`insert into ${productSalesDays} (day, product_id, pieces, revenue_bgn_minor, revenue_eur_minor)
      select ${lineDay}, ${orderItems.productId}, sum(${orderItems.quantity}), sum(${lines.paidIn('BGN')}), sum(${lines.paidIn('EUR')})
      from ${orderItems} where ${lines.where} and ${lineDay} = any(${missingDays})
      group by 1, 2`);
  });
}

/** Sales of the open days, each day's orders counted on the day they were placed in Sofia. */
async function openDaySales(db: Executor, open: Period, shop: Currency): Promise<Map<string, DaySales>> {
  const days = everyDay(open);
  const bucket = dayNumber(orders.createdAt, days).mapWith(Number);
  const rows = await db
    .select({ bucket, revenueMinor: sql<number>`sum(${inCurrency(sql`${orders.totalMinor}`, shop)})`.mapWith(Number), orders: count() })
    .from(orders)
    .where(and(gte(orders.createdAt, sofiaMidnight(open.from)), lt(orders.createdAt, sofiaMidnight(addDays(open.to, 1))), sold))
    .groupBy(sql`1`);
  return new Map(rows.map((row) => [days[row.bucket - 1]!, { orders: row.orders, revenueMinor: row.revenueMinor }]));
}

/** Orders (not cancelled) and what they came to in the shop's currency, for every day of the period, with or without sales. */
export async function salesByDay(db: Executor, period: Period, shop: Currency, now: Date): Promise<Map<string, DaySales>> {
  const { summed, open } = splitAtOpenDays(period, now);
  const revenue = shop === 'EUR' ? salesDays.revenueEurMinor : salesDays.revenueBgnMinor;
  const [summedRows, openSales] = await Promise.all([
    summed ? db.select({ day: salesDays.day, orders: salesDays.orders, revenueMinor: revenue }).from(salesDays).where(between(salesDays.day, summed.from, summed.to)) : [],
    open ? openDaySales(db, open, shop) : new Map<string, DaySales>(),
  ]);
  const sales = new Map(everyDay(period).map((day): [string, DaySales] => [day, { orders: 0, revenueMinor: 0 }]));
  for (const row of summedRows) sales.set(row.day, { orders: row.orders, revenueMinor: Number(row.revenueMinor) });
  for (const [day, daySales] of openSales) sales.set(day, daySales);
  return sales;
}

/**
 * Pieces sold and what was paid for them per product over the period, as a query to rank: summed days
 * from product_sales_days, open days from their lines; only products that still exist.
 */
export async function productSalesQuery(db: Executor, period: Period, shop: Currency, now: Date): Promise<SQL> {
  const { summed, open } = splitAtOpenDays(period, now);
  const revenue = shop === 'EUR' ? productSalesDays.revenueEurMinor : productSalesDays.revenueBgnMinor;
  const parts = await Promise.all([
    summed
      ? sql`select ${productSalesDays.productId} as product_id, ${productSalesDays.pieces} as pieces, ${revenue} as revenue
          from ${productSalesDays} where ${between(productSalesDays.day, summed.from, summed.to)}`
      : null,
    open
      ? linesSold(db, sofiaMidnight(open.from), sofiaMidnight(addDays(open.to, 1))).then(
          (lines) => sql`select ${orderItems.productId} as product_id, ${orderItems.quantity} as pieces, ${lines.paidIn(shop)} as revenue from ${orderItems} where ${lines.where}`,
        )
      : null,
  ]);
  const sources = parts.filter((part): part is SQL => part !== null);
  return sql`select sold.product_id, ${products.nameEn} as name_en, ${products.nameBg} as name_bg, sum(sold.pieces) as pieces, sum(sold.revenue) as revenue
    from (${sql.join(sources, sql` union all `)}) as sold join ${products} on ${products.id} = sold.product_id
    group by sold.product_id, ${products.nameEn}, ${products.nameBg}`;
}
