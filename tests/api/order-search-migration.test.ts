import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderCustomerEmails } from '#server/db/schema.js';
import { selectRows } from '#server/db/transaction.js';
import { migratedWith, type Target } from './migration-targets.js';
import { databaseTargets } from './test-app.js';

// Orders placed before the search's table of e-mails existed are found by their e-mails: migration
// 0011 fills the table from them, each e-mail once, and its triggers keep it from then on.

const SEARCH_MIGRATION = '0011_admin_order_search';

for (const kind of databaseTargets) {
  describe(`e-mails of existing orders in the search [${kind}]`, () => {
    let target: Target;
    beforeAll(async () => {
      target = await migratedWith(kind, SEARCH_MIGRATION, async (db) => {
        const [user] = await selectRows<{ id: string; email: string }>(db, sql`insert into users (email) values (${'old-buyer@abv.bg'}) returning id, email`);
        // Written as SQL of that time: the schema of today may have columns the database does not have yet.
        for (const [id, email] of [
          ['NA-OLDA0001', 'old-buyer@abv.bg'],
          ['NA-OLDA0002', 'old-buyer@abv.bg'],
          ['NA-OLDB0001', 'gift-for-mum@gmail.com'],
        ]) {
          await db.execute(sql`insert into orders (id, user_id, customer_email, status, subtotal_minor, tax_minor, shipping_minor, total_minor, item_count,
            item_description, payment_method, shipping_full_name, shipping_street_address, shipping_city, shipping_postal_code, shipping_country, shipping_phone)
            values (${id}, ${user!.id}, ${email}, 'pending', 1000, 50, 599, 1649, 1, 'Kit', 'card', 'Maria Ivanova', '12 Vitosha Blvd', 'Sofia', '1000', 'BG', '+359888123456')`);
        }
      });
    });
    afterAll(async () => {
      await target?.close();
    });

    it('holds each e-mail of the orders once, and adds the e-mail of a new order', async () => {
      const emails = async () => (await target.db.select().from(orderCustomerEmails)).map((row) => row.email).sort();
      expect(await emails()).toEqual(['gift-for-mum@gmail.com', 'old-buyer@abv.bg']);
      await target.db.execute(sql`insert into orders (id, user_id, customer_email, status, subtotal_minor, tax_minor, shipping_minor, total_minor, item_count,
        item_description, payment_method, shipping_full_name, shipping_street_address, shipping_city, shipping_postal_code, shipping_country, shipping_phone)
        select 'NA-NEWC0001', user_id, 'new-buyer@mail.bg', 'pending', 1000, 50, 599, 1649, 1, 'Kit', 'card', 'Maria Ivanova', '12 Vitosha Blvd', 'Sofia', '1000', 'BG', '+359888123456'
        from orders limit 1`);
      expect(await emails()).toEqual(['gift-for-mum@gmail.com', 'new-buyer@mail.bg', 'old-buyer@abv.bg']);
    });
  });
}
