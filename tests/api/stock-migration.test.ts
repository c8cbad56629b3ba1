import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartItems, orderItems, products } from '#server/db/schema.js';
import { migratedWith, type Target } from './migration-targets.js';
import { databaseTargets } from './test-app.js';

// Carts held one line per piece before lines had quantities: the migration merges a product's lines
// into one, keeping the oldest line's place and the price it was added at.

for (const kind of databaseTargets) {
  describe(`stock and quantities for an existing shop [${kind}]`, () => {
    let target: Target;
    const at = (minutes: number) => new Date(Date.UTC(2026, 5, 1, 9, minutes)).toISOString();

    beforeAll(async () => {
      target = await migratedWith(kind, '0003_stock', async (db) => {
        // Written as SQL: the tables do not have this release's columns yet.
        await db.execute(sql`insert into users (id, email) values ('00000000-0000-4000-8000-000000000001', 'old@example.com')`);
        await db.execute(sql`insert into products (id, name, description, price_minor) values
          ('00000000-0000-4000-8000-00000000000a', 'Rose Set', 'x', 2000),
          ('00000000-0000-4000-8000-00000000000b', 'Lemon Tips', 'x', 1500)`);
        await db.execute(sql`insert into cart_items (id, user_id, product_id, name, price_minor, added_at) values
          ('00000000-0000-4000-8000-000000000101', '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-00000000000b', 'Lemon Tips', 1400, ${at(1)}),
          ('00000000-0000-4000-8000-000000000102', '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-00000000000a', 'Rose Set', 1800, ${at(2)}),
          ('00000000-0000-4000-8000-000000000103', '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-00000000000b', 'Lemon Tips', 1500, ${at(3)}),
          ('00000000-0000-4000-8000-000000000104', '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-00000000000b', 'Lemon Tips', 1500, ${at(4)})`);
        await db.execute(sql`insert into orders (id, user_id, customer_email, subtotal_minor, tax_minor, shipping_minor, total_minor, item_count, item_description,
            payment_method, shipping_full_name, shipping_street_address, shipping_city, shipping_postal_code, shipping_country, shipping_phone)
          values ('NA-OLDORDER', '00000000-0000-4000-8000-000000000001', 'old@example.com', 4000, 200, 599, 4799, 2, 'Rose Set, Rose Set',
            'card', 'Maria Ivanova', '12 Vitosha Blvd', 'Sofia', '1000', 'BG', '+359 88 812 3456')`);
        await db.execute(sql`insert into order_items (order_id, position, product_id, name, price_minor) values
          ('NA-OLDORDER', 0, '00000000-0000-4000-8000-00000000000a', 'Rose Set', 2000),
          ('NA-OLDORDER', 1, '00000000-0000-4000-8000-00000000000a', 'Rose Set', 2000)`);
      });
    });
    afterAll(async () => {
      await target?.close();
    });

    it('merges a cart’s lines of one product into its oldest line, counting the pieces', async () => {
      const lines = await target.db.select().from(cartItems).orderBy(asc(cartItems.addedAt));
      expect(lines.map((line) => [line.id.slice(-3), line.name, line.priceMinor, line.quantity])).toEqual([
        ['101', 'Lemon Tips', 1400, 3],
        ['102', 'Rose Set', 1800, 1],
      ]);
    });

    it('makes every existing product made to order, and keeps past order lines as one piece each', async () => {
      expect((await target.db.select({ stock: products.stock }).from(products)).map((row) => row.stock)).toEqual([null, null]);
      const items = await target.db.select().from(orderItems).where(eq(orderItems.orderId, 'NA-OLDORDER'));
      expect(items.map((item) => item.quantity)).toEqual([1, 1]);
    });
  });
}
