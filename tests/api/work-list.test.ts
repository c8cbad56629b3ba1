import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import type { ChoiceSummary } from '#shared/product-options.js';
import { ORDER_STATUSES, storedValuesOf } from '#shared/order-status.js';
import { WORK_LIST_STATUSES, type WorkListResponse } from '#shared/work-list.js';
import { admins, orderItems, orders, users } from '#server/db/schema.js';
import { signIn } from './sign-in.js';
import { describeEachDatabase, type TestApp } from './test-app.js';

const sizes = [2, 6, 5, 7, 9, 2, 6, 5, 7, 8];
const almondShort: ChoiceSummary = {
  options: [
    { group: { en: 'Shape', bg: 'Форма' }, value: { en: 'Almond', bg: 'Бадем' } },
    { group: { en: 'Length', bg: 'Дължина' }, value: { en: 'Short', bg: 'Къси' } },
  ],
  sizes,
  answers: [{ question: { en: 'Design wish', bg: 'Желание за дизайна' }, answer: { en: 'pink ombré', bg: 'pink ombré' } }],
};
const none: ChoiceSummary = { options: [], sizes: null, answers: [] };

interface TestOrder {
  status: string;
  orderedAt: string;
  name: string;
  lines: { name: string; dispatchBy: string | null; choices?: ChoiceSummary; quantity?: number }[];
}

/** Orders and their lines written straight to the tables: the work list reads nothing else. */
async function insertOrders(testApp: TestApp, email: string, list: TestOrder[]): Promise<string[]> {
  const [user] = await testApp.database.db.insert(users).values({ email }).returning({ id: users.id });
  const ids: string[] = [];
  for (const order of list) {
    const id = `WL-${randomUUID().slice(0, 8).toUpperCase()}`;
    ids.push(id);
    await testApp.database.db.insert(orders).values({
      id,
      userId: user!.id,
      customerEmail: email,
      status: order.status,
      subtotalMinor: 1000,
      taxMinor: 50,
      shippingMinor: 599,
      totalMinor: 1649,
      itemCount: order.lines.length,
      itemDescription: order.lines[0]!.name,
      paymentMethod: 'card',
      shippingFullName: order.name,
      shippingStreetAddress: '12 Vitosha Blvd',
      shippingCity: 'Sofia',
      shippingPostalCode: '1000',
      shippingCountry: 'BG',
      shippingPhone: '+359888123456',
      orderedAt: sql`${order.orderedAt}::timestamptz`,
    });
    await testApp.database.db.insert(orderItems).values(
      order.lines.map((line, position) => ({
        orderId: id,
        position,
        nameEn: line.name,
        nameBg: `${line.name} (bg)`,
        priceMinor: 1000,
        quantity: line.quantity ?? 1,
        choices: line.choices ?? none,
        dispatchBy: line.dispatchBy,
      })),
    );
  }
  return ids;
}

describeEachDatabase('the maker’s work list', (context) => {
  let admin: string;
  let ids: string[];

  beforeAll(async () => {
    const testApp = context();
    await testApp.database.db.insert(admins).values({ id: 'maker@example.com' });
    admin = await signIn(testApp, 'maker@example.com');
    ids = await insertOrders(testApp, 'buyer@example.com', [
      // 0: paid, two lines due on different days
      { status: 'paid', orderedAt: '2026-11-20T09:00:00Z', name: 'Maria Ivanova', lines: [{ name: 'Gold Foil', dispatchBy: '2026-12-04', choices: almondShort, quantity: 2 }, { name: 'Oil', dispatchBy: '2026-11-24' }] },
      // 1: pending, ordered before lead times
      { status: 'pending', orderedAt: '2026-11-01T09:00:00Z', name: 'Elena Petrova', lines: [{ name: 'Old Kit', dispatchBy: null }] },
      // 2: preparing, due the same day as order 0's first line but ordered earlier
      { status: 'preparing', orderedAt: '2026-11-18T09:00:00Z', name: 'Vera Koleva', lines: [{ name: 'Cherry', dispatchBy: '2026-12-04' }] },
      // 3, 4: done or cancelled: not on the list
      { status: 'sent', orderedAt: '2026-11-10T09:00:00Z', name: 'Sent Customer', lines: [{ name: 'Sent', dispatchBy: '2026-11-12' }] },
      { status: 'cancelled', orderedAt: '2026-11-10T09:00:00Z', name: 'Gone Customer', lines: [{ name: 'Cancelled', dispatchBy: '2026-11-12' }] },
      // 5: a legacy status that reads as pending
      { status: 'ordered', orderedAt: '2026-11-02T09:00:00Z', name: 'Legacy Customer', lines: [{ name: 'Legacy', dispatchBy: '2026-11-30' }] },
      // 6: accepted (cash on delivery), a line due earliest
      { status: 'accepted', orderedAt: '2026-11-21T09:00:00Z', name: 'Ana Georgieva', lines: [{ name: 'Decals', dispatchBy: '2026-11-23' }] },
    ]);
  });

  const workList = (testApp: TestApp, query = '', cookie = admin) => testApp.app.inject({ method: 'GET', url: `/api/admin/work-list${query}`, headers: { cookie } });

  it('lists the lines of open orders, soonest due first, those without a date last', async () => {
    const testApp = context();
    const response = await workList(testApp);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const { lines } = response.json<WorkListResponse>();
    expect(lines.map((line) => [line.name.en, line.dispatchBy])).toEqual([
      ['Decals', '2026-11-23'],
      ['Oil', '2026-11-24'],
      ['Legacy', '2026-11-30'],
      ['Cherry', '2026-12-04'],
      ['Gold Foil', '2026-12-04'],
      ['Old Kit', null],
    ]);
    expect(lines[4]).toEqual({
      orderId: ids[0],
      orderStatus: 'paid',
      orderedAt: '2026-11-20T09:00:00.000Z',
      customerEmail: 'buyer@example.com',
      shippingFullName: 'Maria Ivanova',
      position: 0,
      name: { en: 'Gold Foil', bg: 'Gold Foil (bg)' },
      quantity: 2,
      choices: almondShort,
      dispatchBy: '2026-12-04',
    });
    expect(lines[2]!.orderStatus).toBe('pending');
  });

  it('shows one status when asked, and refuses an unknown or closed one', async () => {
    const testApp = context();
    const pending = (await workList(testApp, '?status=pending')).json<WorkListResponse>().lines;
    expect(pending.map((line) => line.orderId)).toEqual([ids[5], ids[1]]);
    expect((await workList(testApp, '?status=preparing')).json<WorkListResponse>().lines.map((line) => line.name.en)).toEqual(['Cherry']);
    expect((await workList(testApp, '?status=sent')).statusCode).toBe(400);
    expect((await workList(testApp, '?status=nonsense')).statusCode).toBe(400);
  });

  it('is for admins only', async () => {
    const testApp = context();
    expect((await testApp.app.inject({ method: 'GET', url: '/api/admin/work-list' })).statusCode).toBe(401);
    expect((await workList(testApp, '', await signIn(testApp, 'buyer@example.com'))).statusCode).toBe(403);
  });

  it('marks lines on the work list in the database as WORK_LIST_STATUSES says, as they are written and as their order moves', async () => {
    const { db } = context().database;
    const stored = [...ORDER_STATUSES.flatMap(storedValuesOf), 'unknown'];
    const onList = new Set(WORK_LIST_STATUSES.flatMap(storedValuesOf));
    const onWorkList = async (orderId: string) => (await db.select({ on: orderItems.onWorkList }).from(orderItems).where(eq(orderItems.orderId, orderId))).map((line) => line.on);
    const written = await insertOrders(
      context(),
      'every-status@example.com',
      stored.map((status) => ({ status, orderedAt: '2026-03-01T10:00:00Z', name: status, lines: [{ name: 'Set', dispatchBy: null }, { name: 'Oil', dispatchBy: null }] })),
    );
    for (const [index, status] of stored.entries()) expect(await onWorkList(written[index]!), status).toEqual([onList.has(status), onList.has(status)]);
    // One order through every stored status, each step from the one before.
    const moving = written[0]!;
    for (const status of [...stored, ...stored.slice().reverse()]) {
      await db.update(orders).set({ status }).where(eq(orders.id, moving));
      expect(await onWorkList(moving), status).toEqual([onList.has(status), onList.has(status)]);
    }
  });
});
