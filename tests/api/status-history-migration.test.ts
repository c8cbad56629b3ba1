import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, orderStatusChanges, payments, users } from '../../src/server/db/schema.js';
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
      const [user] = await db.insert(users).values({ email: 'old-customer@example.com' }).returning();
      const order = (id: string, status: string, times: Partial<typeof orders.$inferInsert>) => ({
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
      await db.insert(orders).values([
        order('NA-PLACED00', 'pending', {}),
        // Legacy status values were written without a time of their own.
        order('NA-LEGACY00', 'shipped', { updatedAt: at(50) }),
        // Paid by the provider (its paid_at a moment after the payment), then preparing.
        order('NA-PREPARE0', 'preparing', { paidAt: at(10, 3), preparingAt: at(20), updatedAt: at(20) }),
        // Paid, preparing, then set to Paid again by the admin, which overwrote paid_at.
        order('NA-REPAID00', 'paid', { paidAt: at(30), preparingAt: at(20), updatedAt: at(30) }),
        // Set to Paid by the admin without a payment, then back to pending (a legacy "ordered").
        order('NA-BACKTO00', 'ordered', { paidAt: at(10), pendingAt: at(40), updatedAt: at(40) }),
      ]);
      await db.insert(payments).values([
        { paymentId: 'pay_prepare', orderId: 'NA-PREPARE0', method: 'card', amountMinor: 1649, processedAt: at(10) },
        { paymentId: 'pay_repaid', orderId: 'NA-REPAID00', method: 'card', amountMinor: 1649, processedAt: at(10) },
      ]);
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
