import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { asc, eq } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, orderStatusChanges, payments, users } from '../../src/server/db/schema.js';
import * as schema from '../../src/server/db/schema.js';
import { projectPath } from '../../src/server/project-path.js';
import { createPostgresDatabase, databaseTargets } from './test-app.js';

// Orders placed before the status history existed get theirs from the times they kept: the
// migration is run on a database that has the migrations before it and such orders.

const HISTORY_MIGRATION = '0002_order_status_history';
const migrations = projectPath('src/server/db/migrations');

/** A copy of the migrations folder that ends just before the status history. */
async function migrationsBeforeHistory(): Promise<{ folder: string; remove(): Promise<void> }> {
  const folder = await mkdtemp(path.join(tmpdir(), 'shop-migrations-'));
  await cp(migrations, folder, { recursive: true });
  const journalPath = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalPath, 'utf8')) as { entries: { tag: string }[] };
  const cut = journal.entries.findIndex((entry) => entry.tag === HISTORY_MIGRATION);
  expect(cut).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, cut);
  await writeFile(journalPath, JSON.stringify(journal));
  return { folder, remove: () => rm(folder, { recursive: true, force: true }) };
}

type Db = ReturnType<typeof drizzlePglite<typeof schema>> | ReturnType<typeof drizzlePostgres<typeof schema>>;

interface Target {
  db: Db;
  migrate(folder: string): Promise<void>;
  close(): Promise<void>;
}

async function openTarget(kind: 'pglite' | 'postgres'): Promise<Target> {
  if (kind === 'pglite') {
    const client = new PGlite({ extensions: { pg_trgm } });
    const db = drizzlePglite({ client, schema });
    return { db, migrate: (folder) => migratePglite(db, { migrationsFolder: folder }), close: () => client.close() };
  }
  const database = await createPostgresDatabase();
  const pool = new pg.Pool({ connectionString: database.url });
  const db = drizzlePostgres({ client: pool, schema });
  return {
    db,
    migrate: (folder) => migratePostgres(db, { migrationsFolder: folder }),
    close: async () => {
      await pool.end();
      await database.drop();
    },
  };
}

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
      target = await openTarget(kind);
      const before = await migrationsBeforeHistory();
      try {
        await target.migrate(before.folder);
      } finally {
        await before.remove();
      }
      const db = target.db;
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
      await target.migrate(migrations);
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
