import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminOrderPage } from '#shared/admin.js';
import type { Order } from '#shared/orders.js';
import { admins, orders, orderStatusChanges, payments, products } from '#server/db/schema.js';
import { selectRows } from '#server/db/transaction.js';
import { migratedWith, type Target } from './migration-targets.js';
import { fillCart, placeOrder } from './shopper.js';
import { signIn } from './sign-in.js';
import { databaseTargets, describeEachDatabase, type TestApp } from './test-app.js';
import { testProduct } from './test-products.js';

// A cash-on-delivery order is accepted when placed, apart from the online orders awaiting payment,
// and only the admin records its cash; a customer pays an order only by its own method.

const payOnline = (testApp: TestApp, cookie: string, orderId: string, payload: object) =>
  testApp.app.inject({ method: 'POST', url: `/api/orders/${orderId}/payment`, headers: { cookie }, payload });

const orderOf = async (testApp: TestApp, cookie: string, orderId: string) =>
  (await testApp.app.inject({ method: 'GET', url: `/api/orders/${orderId}`, headers: { cookie } })).json<{ order: Order }>().order;

describeEachDatabase(
  'cash on delivery',
  (context) => {
    let product: string;
    let admin: string;
    beforeAll(async () => {
      const testApp = context();
      [{ id: product }] = (await testApp.database.db.insert(products).values(testProduct({ name: 'Pearl Set', priceMinor: 1738 })).returning({ id: products.id })) as [{ id: string }];
      await testApp.database.db.insert(admins).values({ id: 'owner@shop.test' });
      admin = await signIn(testApp, 'owner@shop.test');
    });

    it('places a cash-on-delivery order as accepted, and an online one as pending', async () => {
      const testApp = context();
      const cookie = await signIn(testApp, 'accepted@example.com');
      await fillCart(testApp, cookie, [product]);
      const cash = await placeOrder(testApp, cookie, { paymentMethod: 'cash_on_delivery' });
      expect(cash).toMatchObject({ status: 'accepted', statusHistory: [{ status: 'accepted', at: cash.createdAt }], statusTimes: { accepted: cash.createdAt } });
      expect(cash.statusTimes.pending).toBeUndefined();
      expect(await orderOf(testApp, cookie, cash.orderId)).toMatchObject({ status: 'accepted', statusTimes: { accepted: cash.createdAt } });

      await fillCart(testApp, cookie, [product]);
      const card = await placeOrder(testApp, cookie, { paymentMethod: 'card' });
      expect(card).toMatchObject({ status: 'pending', statusHistory: [{ status: 'pending', at: card.createdAt }], statusTimes: { pending: card.createdAt } });

      // The owner's filter tells them apart: Accepted holds the cash order, Pending only the unpaid card one.
      const listed = async (status: string) =>
        (await testApp.app.inject({ method: 'GET', url: `/api/admin/orders?status=${status}&q=accepted@example.com`, headers: { cookie: admin } }))
          .json<AdminOrderPage>()
          .orders.map((order) => order.orderId);
      expect(await listed('accepted')).toEqual([cash.orderId]);
      expect(await listed('pending')).toEqual([card.orderId]);

      // The admin may still set any of the statuses, accepted included.
      const moved = await testApp.app.inject({ method: 'PATCH', url: `/api/admin/orders/${card.orderId}/status`, headers: { cookie: admin }, payload: { status: 'accepted' } });
      expect(moved.statusCode).toBe(200);
    });

    it('refuses a customer’s payment by another method than the order’s, cash on delivery above all', async () => {
      const testApp = context();
      const cookie = await signIn(testApp, 'sly@example.com');
      await fillCart(testApp, cookie, [product]);
      const card = await placeOrder(testApp, cookie, { paymentMethod: 'card' });

      for (const payload of [{ method: 'cash_on_delivery' }, { method: 'pay_by_link' }]) {
        const refused = await payOnline(testApp, cookie, card.orderId, payload);
        expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
        expect(refused.json().error.code).toBe('payment_method_mismatch');
      }
      expect(await testApp.database.db.select().from(payments).where(eq(payments.orderId, card.orderId))).toEqual([]);
      expect(await orderOf(testApp, cookie, card.orderId)).toMatchObject({ status: 'pending', payment: null });

      const paid = await payOnline(testApp, cookie, card.orderId, { method: 'card', cardLast4: '4242' });
      expect(paid.statusCode).toBe(200);
      expect(paid.json<{ order: Order }>().order).toMatchObject({ status: 'paid', payment: { method: 'card', cardLast4: '4242' } });

      // A cash-on-delivery order takes no payment from its customer, whatever the method said.
      await fillCart(testApp, cookie, [product]);
      const cash = await placeOrder(testApp, cookie, { paymentMethod: 'cash_on_delivery' });
      for (const payload of [{ method: 'cash_on_delivery' }, { method: 'card', cardLast4: '4242' }]) {
        const refused = await payOnline(testApp, cookie, cash.orderId, payload);
        expect(refused.statusCode, JSON.stringify(payload)).toBe(409);
        expect(refused.json().error.code).toBe('order_not_payable');
      }
      expect(await orderOf(testApp, cookie, cash.orderId)).toMatchObject({ status: 'accepted', payment: null });

      const recorded = await testApp.app.inject({ method: 'POST', url: `/api/admin/orders/${cash.orderId}/cash-payment`, headers: { cookie: admin } });
      expect(recorded.statusCode).toBe(200);
      expect(await orderOf(testApp, cookie, cash.orderId)).toMatchObject({ status: 'delivered', payment: { method: 'cash_on_delivery', amountMinor: cash.pricing.total } });
    });
  },
  { PAYMENT_METHODS: 'card,cash_on_delivery,pay_by_link' },
);

const at = (minutes: number) => new Date(Date.UTC(2026, 2, 3, 9, minutes));

for (const kind of databaseTargets) {
  describe(`cash-on-delivery orders placed before they were accepted [${kind}]`, () => {
    let target: Target;
    beforeAll(async () => {
      target = await migratedWith(kind, '0012_cash_on_delivery_accepted', async (db) => {
        const [user] = await selectRows<{ id: string; email: string }>(db, sql`insert into users (email) values (${'earlier@example.com'}) returning id, email`);
        // Written as SQL of that time: the schema of today has a column the database does not have yet.
        const order = async (id: string, paymentMethod: string, status: string, history: [string, number][]) => {
          await db.execute(sql`insert into orders (id, user_id, customer_email, status, subtotal_minor, tax_minor, shipping_minor, total_minor,
            item_count, item_description, payment_method, shipping_full_name, shipping_street_address, shipping_city, shipping_postal_code,
            shipping_country, shipping_phone, created_at, ordered_at, updated_at, pending_at)
            values (${id}, ${user!.id}, ${user!.email}, ${status}, 1000, 50, 599, 1649, 1, 'Kit', ${paymentMethod}, 'Maria Ivanova', '12 Vitosha Blvd',
            'Sofia', '1000', 'BG', '+359 88 812 3456', ${at(0).toISOString()}, ${at(0).toISOString()}, ${at(history.at(-1)![1]).toISOString()}, ${at(0).toISOString()})`);
          await db.insert(orderStatusChanges).values(history.map(([entry, minutes], position) => ({ orderId: id, position, status: entry, changedAt: at(minutes) })));
        };
        await order('NA-CASHNEW0', 'cash_on_delivery', 'pending', [['pending', 0]]);
        await order('NA-CASHOLD0', 'cash_on_delivery', 'ordered', [['pending', 0]]);
        await order('NA-CASHSENT', 'cash_on_delivery', 'sent', [['pending', 0], ['preparing', 10], ['sent', 20]]);
        await order('NA-CASHBACK', 'cash_on_delivery', 'pending', [['pending', 0], ['preparing', 10], ['pending', 30]]);
        await order('NA-CARDWAIT', 'card', 'pending', [['pending', 0]]);
      });
    });
    afterAll(async () => {
      await target?.close();
    });

    const stateOf = async (orderId: string) => {
      const [row] = await target.db.select().from(orders).where(eq(orders.id, orderId));
      const history = await target.db.select().from(orderStatusChanges).where(eq(orderStatusChanges.orderId, orderId)).orderBy(asc(orderStatusChanges.position));
      return { status: row!.status, acceptedAt: row!.acceptedAt, pendingAt: row!.pendingAt, history: history.map((change) => change.status) };
    };

    it('accepts those still as placed, and starts every one’s history as accepted', async () => {
      expect(await stateOf('NA-CASHNEW0')).toEqual({ status: 'accepted', acceptedAt: at(0), pendingAt: null, history: ['accepted'] });
      expect(await stateOf('NA-CASHOLD0')).toEqual({ status: 'accepted', acceptedAt: at(0), pendingAt: null, history: ['accepted'] });
      expect(await stateOf('NA-CASHSENT')).toEqual({ status: 'sent', acceptedAt: at(0), pendingAt: null, history: ['accepted', 'preparing', 'sent'] });
      // Set back to pending by the admin: kept, with the time it was.
      expect(await stateOf('NA-CASHBACK')).toEqual({ status: 'pending', acceptedAt: at(0), pendingAt: at(30), history: ['accepted', 'preparing', 'pending'] });
      expect(await stateOf('NA-CARDWAIT')).toEqual({ status: 'pending', acceptedAt: null, pendingAt: at(0), history: ['pending'] });
    });
  });
}
