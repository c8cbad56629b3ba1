import { and, desc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Order } from '#shared/orders.js';
import { forgetShipmentLabels } from '#server/couriers/shipments.js';
import type { Executor } from '#server/db/client.js';
import { orderItems, orders, payments } from '#server/db/schema.js';
import { withDetails } from './order-queries.js';

// The orders module's part in a customer's rights over their data (account/service.ts): the copy of
// their orders, and the orders kept, without the person, when they delete their account.

/** A customer's orders: by their account, and any placed under their e-mail. */
const ordersOf = (userId: string, email: string) => or(eq(orders.userId, userId), eq(orders.customerEmail, email));

/** Every order of the customer, newest first, as the API shows orders (items, payment, status history). */
export async function listAllCustomerOrders(db: Executor, userId: string, email: string): Promise<Order[]> {
  const rows = await db.select().from(orders).where(ordersOf(userId, email)).orderBy(desc(orders.createdAt), desc(orders.id));
  return withDetails(db, rows);
}

/**
 * Takes the person out of a deleting customer's orders, in the caller's transaction, and returns
 * their ids. The shop must keep its sales records, so amounts, items (with the options chosen),
 * dates, statuses, the country and the payments stay; the e-mail becomes the placeholder, and the
 * name, street, apartment, city, region, postal code and phone, the invoice details asked for, a
 * card's last four digits, the couriers' labels (which print the name, phone and address), and the
 * lines' nail sizes and answers (measurements of the person, and notes in their own words) go. Issued invoices keep their buyer: the law keeps them for ten years.
 */
export async function anonymiseCustomerOrders(tx: Executor, userId: string, email: string, placeholder: string): Promise<string[]> {
  const anonymised = await tx
    .update(orders)
    .set({
      customerEmail: placeholder,
      shippingFullName: '',
      shippingStreetAddress: '',
      shippingApartment: null,
      shippingCity: '',
      shippingState: '',
      shippingPostalCode: '',
      shippingPhone: '',
      invoiceBuyer: null,
    })
    .where(ordersOf(userId, email))
    .returning({ id: orders.id });
  const ids = anonymised.map((row) => row.id);
  // The payments are the order's record of being paid, which the orders module reads with it (withDetails).
  if (ids.length > 0) {
    await tx.update(payments).set({ cardLast4: null }).where(inArray(payments.orderId, ids));
    await forgetShipmentLabels(tx, ids);
    await tx
      .update(orderItems)
      .set({ choices: sql`jsonb_build_object('options', ${orderItems.choices}->'options', 'sizes', null, 'answers', '[]'::jsonb)` })
      .where(and(inArray(orderItems.orderId, ids), sql`(${orderItems.choices}->'sizes' <> 'null'::jsonb or ${orderItems.choices}->'answers' <> '[]'::jsonb)`));
  }
  return ids;
}
