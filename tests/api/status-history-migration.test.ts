import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, orderStatusChanges } from '#server/db/schema.js';
import { selectRows } from '#server/db/transaction.js';
import { migratedWith, type Target } from './migration-targets.js';
import { databaseTargets } from './test-app.js';

// Orders placed before the status history existed get theirs from the times they kept: the
// migration is run on a database that has the migrations before it and such orders.

const HISTORY_MIGRATION = '0002_order_status_history';

const at = (minutes: number, extraMs = 0) => new Date(Date.UTC(2025, 0, 10, 9, minutes) + extraMs);

const address = {
  shippingFullName: 'Maria Ivanova',
  shippingStreetAddress: '12 Vitosha Blvd',
  shippingCity: 'Sofia',
  shippingPostalCode: '1000',
  shippingCountry: 'BG',
  shippingPhone: '+359 88 812 3456',
};

for (const kind of databaseTargets) {
  describe(`status history of existing orders [${kind}]`, () => {
    let target: Target;
    beforeAll(async () => {
      target = await migratedWith(kind, HISTORY_MIGRATION, async (db) => {
      const [user] = await selectRows<{ id: string; email: string }>(db, sql`insert into users (email) values (${'old-customer@example.com'}) returning id, email`);
      const order = (id: string, status: string, times: { paidAt?: Date; preparingAt?: Date; pendingAt?: Date; updatedAt?: Date }) => ({
        id,
        userId: user!.id,
        customerEmail: user!.email,
        status,
        subtotalMinor: 1000,
        taxMinor: 50,
        shippingMinor: 599,
        totalMinor: 1649,
        itemCount: 1,
        itemDescription: 'Kit',
        paymentMethod: 'card',
        ...address,
        createdAt: at(0),
        orderedAt: at(0),
        updatedAt: at(0),
        ...times,
      });
      // Written as SQL of that time: the schema of today has columns the database does not have yet.
      const rows = [
        order('NA-PLACED00', 'pending', {}),
        // Legacy status values were written without a time of their own.
        order('NA-LEGACY00', 'shipped', { updatedAt: at(50) }),
        // Paid by the provider (its paid_at a moment after the payment), then preparing.
        order('NA-PREPARE0', 'preparing', { paidAt: at(10, 3), preparingAt: at(20), updatedAt: at(20) }),
        // Paid, preparing, then set to Paid again by the admin, which overwrote paid_at.
        order('NA-REPAID00', 'paid', { paidAt: at(30), preparingAt: at(20), updatedAt: at(30) }),
        // Set to Paid by the admin without a payment, then back to pending (a legacy "ordered").
        order('NA-BACKTO00', 'ordered', { paidAt: at(10), pendingAt: at(40), updatedAt: at(40) }),
      ];
      for (const row of rows) {
        await db.execute(sql`insert into orders (id, user_id, customer_email, status, subtotal_minor, tax_minor, shipping_minor, total_minor, item_count,
          item_description, payment_method, shipping_full_name, shipping_street_address, shipping_city, shipping_postal_code, shipping_country,
          shipping_phone, created_at, ordered_at, updated_at, pending_at, paid_at, preparing_at)
          values (${row.id}, ${row.userId}, ${row.customerEmail}, ${row.status}, ${row.subtotalMinor}, ${row.taxMinor}, ${row.shippingMinor},
          ${row.totalMinor}, ${row.itemCount}, ${row.itemDescription}, ${row.paymentMethod}, ${row.shippingFullName}, ${row.shippingStreetAddress},
          ${row.shippingCity}, ${row.shippingPostalCode}, ${row.shippingCountry}, ${row.shippingPhone}, ${row.createdAt.toISOString()},
          ${row.orderedAt.toISOString()}, ${row.updatedAt.toISOString()}, ${row.pendingAt?.toISOString() ?? null}, ${row.paidAt?.toISOString() ?? null},
          ${row.preparingAt?.toISOString() ?? null})`);
      }
      // In the columns payments had then: the current schema names columns added since.
      for (const paymentId of ['pay_prepare', 'pay_repaid']) {
        const orderId = paymentId === 'pay_prepare' ? 'NA-PREPARE0' : 'NA-REPAID00';
        await db.execute(sql`insert into payments (payment_id, order_id, method, amount_minor, processed_at) values (${paymentId}, ${orderId}, 'card', 1649, ${at(10).toISOString()})`);
      }
      });
    });
    afterAll(async () => {
      await target?.close();
    });

    const historyOf = async (orderId: string) =>
      (await target.db.select().from(orderStatusChanges).where(eq(orderStatusChanges.orderId, orderId)).orderBy(asc(orderStatusChanges.position))).map(
        (change) => [change.position, change.status, change.changedAt.toISOString()],
      );
    const orderRow = async (orderId: string) => (await target.db.select().from(orders).where(eq(orders.id, orderId)))[0]!;

    it('dates each status from the times the order kept, in order', async () => {
      expect(await historyOf('NA-PLACED00')).toEqual([[0, 'pending', at(0).toISOString()]]);
      expect(await historyOf('NA-LEGACY00')).toEqual([
        [0, 'pending', at(0).toISOString()],
        [1, 'sent', at(50).toISOString()],
      ]);
      expect(await historyOf('NA-PREPARE0')).toEqual([
        [0, 'pending', at(0).toISOString()],
        [1, 'paid', at(10).toISOString()],
        [2, 'preparing', at(20).toISOString()],
      ]);
      expect(await historyOf('NA-REPAID00')).toEqual([
        [0, 'pending', at(0).toISOString()],
        [1, 'paid', at(10).toISOString()],
        [2, 'preparing', at(20).toISOString()],
        [3, 'paid', at(30).toISOString()],
      ]);
      expect(await historyOf('NA-BACKTO00')).toEqual([
        [0, 'pending', at(0).toISOString()],
        [1, 'paid', at(10).toISOString()],
        [2, 'pending', at(40).toISOString()],
      ]);
    });

    it('leaves the first time of each status in its column, and the stored status as it was', async () => {
      expect(await orderRow('NA-PLACED00')).toMatchObject({ status: 'pending', pendingAt: at(0), paidAt: null });
      expect(await orderRow('NA-REPAID00')).toMatchObject({ status: 'paid', pendingAt: at(0), paidAt: at(10), preparingAt: at(20) });
      expect(await orderRow('NA-PREPARE0')).toMatchObject({ paidAt: at(10), preparingAt: at(20) });
      expect(await orderRow('NA-BACKTO00')).toMatchObject({ status: 'ordered', pendingAt: at(0), paidAt: at(10) });
      expect(await orderRow('NA-LEGACY00')).toMatchObject({ status: 'shipped', sentAt: at(50) });
    });
  });
}
