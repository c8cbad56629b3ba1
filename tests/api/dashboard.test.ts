import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import type { Dashboard } from '#shared/dashboard.js';
import { bgnToEurMinor } from '#shared/money.js';
import { addDays, sofiaDate, sofiaMidnight } from '#shared/sofia-time.js';
import { addAdmin } from '#server/auth/roles.js';
import { dashboard } from '#server/admin/dashboard.js';
import { orderItems, orders, products, productSalesDays, salesDays, users } from '#server/db/schema.js';
import { signIn } from './sign-in.js';
import { describeEachDatabase, type TestApp } from './test-app.js';
import { testProduct } from './test-products.js';

// The dashboard's figures against a set of orders whose sums are known: placed on known days in
// Sofia, in both currencies, some cancelled, some open.

/** Noon in Sofia, `daysAgo` days before the day `now` is in there. */
const noonInSofia = (now: Date, daysAgo: number) => new Date(sofiaMidnight(addDays(sofiaDate(now), -daysAgo)).getTime() + 12 * 3_600_000);

describeEachDatabase(
  'the admin dashboard',
  (context) => {
    const now = new Date();
    let pearl: string;
    let oil: string;
    let admin: string;

    /** An order of one line placed `daysAgo` days ago at noon in Sofia. */
    const addOrder = async (testApp: TestApp, { daysAgo, totalMinor, status = 'paid', currency = 'EUR', product, quantity = 1, dispatchBy = null }: { daysAgo: number; totalMinor: number; status?: string; currency?: string; product: string; quantity?: number; dispatchBy?: string | null }) => {
      const [user] = await testApp.database.db.select({ id: users.id }).from(users).limit(1);
      const id = `NA-${randomUUID().slice(0, 8).toUpperCase()}`;
      const createdAt = noonInSofia(now, daysAgo);
      await testApp.database.db.insert(orders).values({
        id,
        userId: user!.id,
        customerEmail: 'buyer@example.com',
        status,
        subtotalMinor: totalMinor,
        taxMinor: 0,
        shippingMinor: 0,
        totalMinor,
        currency,
        itemCount: quantity,
        itemDescription: 'x',
        paymentMethod: 'card',
        shippingFullName: 'Мария',
        shippingStreetAddress: 'ул. Шипка 6',
        shippingCity: 'София',
        shippingPostalCode: '1504',
        shippingCountry: 'BG',
        shippingPhone: '+359888123456',
        createdAt,
        orderedAt: createdAt,
        dispatchBy,
      });
      await testApp.database.db.insert(orderItems).values({ orderId: id, position: 0, productId: product, nameEn: product === pearl ? 'Pearl Set' : 'Cuticle Oil', nameBg: '', priceMinor: Math.floor(totalMinor / quantity), quantity, dispatchBy, orderedAt: createdAt });
    };

    beforeAll(async () => {
      const testApp = context();
      const rows = await testApp.database.db
        .insert(products)
        .values([testProduct({ name: 'Pearl Set', priceMinor: 3000, stock: 2 }), testProduct({ name: 'Cuticle Oil', priceMinor: 1000, stock: 0 }), testProduct({ name: 'Plenty', priceMinor: 500, stock: 40 })])
        .returning({ id: products.id });
      [pearl, oil] = rows.map((row) => row.id) as [string, string];
      await addAdmin(testApp.database.db, 'owner@shop.test');
      admin = await signIn(testApp, 'owner@shop.test');
      // Today: two orders, one cancelled. Yesterday: one. 3 and 20 days ago: one each, one of them in leva. 40 days ago: one.
      await addOrder(testApp, { daysAgo: 0, totalMinor: 3000, product: pearl, status: 'preparing', dispatchBy: addDays(sofiaDate(now), -1) });
      await addOrder(testApp, { daysAgo: 0, totalMinor: 9999, product: oil, status: 'cancelled' });
      await addOrder(testApp, { daysAgo: 1, totalMinor: 2000, product: oil, quantity: 2, status: 'pending', dispatchBy: addDays(sofiaDate(now), 5) });
      await addOrder(testApp, { daysAgo: 3, totalMinor: 6000, product: pearl, quantity: 2, status: 'sent' });
      await addOrder(testApp, { daysAgo: 20, totalMinor: 19_558, product: oil, currency: 'BGN', quantity: 2, status: 'delivered' });
      await addOrder(testApp, { daysAgo: 40, totalMinor: 1000, product: oil, status: 'delivered' });
    });

    it('sums sales per period in the shop’s currency, with the period before, and leaves cancelled orders out', async () => {
      const board = await dashboard(context().database.db, 'EUR', {}, now);
      const leva = bgnToEurMinor(19_558);
      expect(leva).toBe(10_000);
      expect(board.today.current).toEqual({ revenueMinor: 3000, orders: 1, averageMinor: 3000 });
      expect(board.today.previous).toEqual({ revenueMinor: 2000, orders: 1, averageMinor: 2000 });
      expect(board.last7.current).toEqual({ revenueMinor: 11_000, orders: 3, averageMinor: 3667 });
      expect(board.last7.previous).toEqual({ revenueMinor: 0, orders: 0, averageMinor: 0 });
      expect(board.last30.current).toEqual({ revenueMinor: 21_000, orders: 4, averageMinor: 5250 });
      expect(board.last30.previous).toEqual({ revenueMinor: 1000, orders: 1, averageMinor: 1000 });
      expect(board.range).toEqual(board.last30);
      expect(board.last7.from).toBe(addDays(sofiaDate(now), -6));

      // A day per point, every day of the range listed; the sales on their days.
      expect(board.chart.unit).toBe('day');
      expect(board.chart.points).toHaveLength(30);
      const onDay = (daysAgo: number) => board.chart.points.find((point) => point.start === addDays(sofiaDate(now), -daysAgo));
      expect([onDay(0), onDay(1), onDay(3), onDay(20), onDay(2)]).toEqual([
        { start: addDays(sofiaDate(now), 0), revenueMinor: 3000, orders: 1 },
        { start: addDays(sofiaDate(now), -1), revenueMinor: 2000, orders: 1 },
        { start: addDays(sofiaDate(now), -3), revenueMinor: 6000, orders: 1 },
        { start: addDays(sofiaDate(now), -20), revenueMinor: 10_000, orders: 1 },
        { start: addDays(sofiaDate(now), -2), revenueMinor: 0, orders: 0 },
      ]);
      expect(board.chart.points.reduce((sum, point) => sum + point.revenueMinor, 0)).toBe(board.range.current.revenueMinor);

      // The oil sold 4 pieces for 120.00 (20.00 and 195.58 leva); the pearl set 3 for 90.00.
      expect(board.bestSellers.byPieces.map((seller) => [seller.name.en, seller.pieces, seller.revenueMinor])).toEqual([
        ['Cuticle Oil', 4, 12_000],
        ['Pearl Set', 3, 9000],
      ]);
      expect(board.bestSellers.byRevenue.map((seller) => seller.name.en)).toEqual(['Cuticle Oil', 'Pearl Set']);
      expect(board.lowStock.map((alert) => [alert.name.en, alert.stock])).toEqual([['Pearl Set', 2]]);
      expect(board.soldOut.map((alert) => alert.name.en)).toEqual(['Cuticle Oil']);
      expect(board.openOrders.filter((entry) => entry.count > 0)).toEqual([
        { status: 'pending', count: 1 },
        { status: 'preparing', count: 1 },
        { status: 'sent', count: 1 },
      ]);
      expect(board.work).toEqual({ lines: 2, pieces: 3, overdue: 1, nextDue: addDays(sofiaDate(now), 5) });
    });

    it('charts a long range per week, in leva for a shop in leva, and compares a chosen range with the one before it', async () => {
      const from = addDays(sofiaDate(now), -69);
      const board = await dashboard(context().database.db, 'BGN', { from, to: sofiaDate(now) }, now);
      expect(board.chart.unit).toBe('week');
      expect(board.chart.points).toHaveLength(10);
      expect(board.chart.points[0]!.start).toBe(from);
      // In leva: the euro orders converted, the leva one as it is.
      const euros = 3000 + 2000 + 6000 + 1000;
      expect(board.range.current.revenueMinor).toBe(Math.floor((2 * euros * 195_583 + 100_000) / 200_000) + 19_558);
      expect(board.range.current.orders).toBe(5);
      expect(board.range.previous).toEqual({ revenueMinor: 0, orders: 0, averageMinor: 0 });
    });

    it('reads ended days from their sums, and sums a day again when its orders change', async () => {
      const { db } = context().database;
      const threeDaysAgo = addDays(sofiaDate(now), -3);
      const twentyDaysAgo = addDays(sofiaDate(now), -20);
      // Two dashboards at once, with nothing summed: one sums, the other waits for it and finds the days there.
      await db.delete(salesDays);
      const [first, second] = await Promise.all([dashboard(db, 'EUR', {}, now), dashboard(db, 'EUR', {}, now)]);
      expect(second).toEqual(first);
      const summed = await db.select().from(salesDays).where(eq(salesDays.day, threeDaysAgo));
      expect(summed).toEqual([{ day: threeDaysAgo, orders: 1, revenueBgnMinor: 11_735, revenueEurMinor: 6000 }]);

      // The dashboard reads the sums: a sum changed by hand shows.
      await db.update(salesDays).set({ orders: 7 }).where(eq(salesDays.day, twentyDaysAgo));
      expect((await dashboard(db, 'EUR', {}, now)).last30.current.orders).toBe(10);

      // An order of that day imported now, and one of three days ago cancelled: both days are summed again.
      await addOrder(context(), { daysAgo: 20, totalMinor: 500, product: pearl, status: 'delivered' });
      const [sent] = await db.select({ id: orders.id }).from(orders).where(eq(orders.totalMinor, 6000));
      await db.update(orders).set({ status: 'cancelled' }).where(eq(orders.id, sent!.id));
      const board = await dashboard(db, 'EUR', {}, now);
      expect(board.last30.current).toEqual({ revenueMinor: 21_000 - 6000 + 500, orders: 4, averageMinor: 3875 });
      expect(board.bestSellers.byPieces.map((seller) => [seller.name.en, seller.pieces, seller.revenueMinor])).toEqual([
        ['Cuticle Oil', 4, 12_000],
        ['Pearl Set', 2, 3500],
      ]);

      // A product deleted since is no best seller, though its order stays in the sums.
      const [gone] = await db.insert(products).values(testProduct({ name: 'Gone Set', priceMinor: 90_000, stock: 5 })).returning({ id: products.id });
      await addOrder(context(), { daysAgo: 5, totalMinor: 90_000, product: gone!.id, status: 'delivered' });
      expect((await dashboard(db, 'EUR', {}, now)).bestSellers.byRevenue[0]!.name.en).toBe('Gone Set');
      // A day of euro orders alone: its lines converted to leva at the fixed rate, half-up.
      expect(await db.select().from(productSalesDays).where(eq(productSalesDays.productId, gone!.id))).toEqual([
        { day: addDays(sofiaDate(now), -5), productId: gone!.id, pieces: 1, revenueBgnMinor: 176_025, revenueEurMinor: 90_000 },
      ]);
      await db.delete(products).where(eq(products.id, gone!.id));
      const afterDeletion = await dashboard(db, 'EUR', {}, now);
      expect(afterDeletion.bestSellers.byRevenue.map((seller) => seller.name.en)).toEqual(['Cuticle Oil', 'Pearl Set']);
      expect(afterDeletion.last30.current.orders).toBe(5);

      // As they were, for the test after.
      await db.update(orders).set({ status: 'cancelled' }).where(eq(orders.totalMinor, 90_000));
      await db.update(orders).set({ status: 'sent' }).where(eq(orders.id, sent!.id));
    });

    it('is for admins only, and refuses a range that is none or too long', async () => {
      const testApp = context();
      const get = (query: string, cookie?: string) => testApp.app.inject({ method: 'GET', url: `/api/admin/dashboard${query}`, headers: cookie ? { cookie } : {} });
      const answer = await get('', admin);
      expect(answer.statusCode).toBe(200);
      expect(answer.json<Dashboard>()).toMatchObject({ currency: 'BGN', last7: { current: { orders: 3 } } });
      expect((await get('')).statusCode).toBe(401);
      for (const [query, messageKey] of [
        ['?from=2026-02-30', 'admin.dashboard.errors.invalidRange'],
        ['?from=2026-03-02&to=2026-03-01', 'admin.dashboard.errors.invalidRange'],
        ['?from=2024-01-01&to=2026-03-01', 'admin.dashboard.errors.tooLong'],
      ] as const) {
        const refused = await get(query, admin);
        expect(refused.statusCode, query).toBe(400);
        expect(refused.json().error.messageKey, query).toBe(messageKey);
      }
    });
  },
);
