import { eq } from 'drizzle-orm';
import type { InvoiceBuyer } from '#shared/invoice-buyer.js';
import type { Executor } from '#server/db/client.js';
import { users } from '#server/db/schema.js';

/** Who the customer's last invoice was made out to (checkout keeps it), or null when she never asked for one. */
export async function readInvoiceBuyer(db: Executor, userId: string): Promise<InvoiceBuyer | null> {
  const [row] = await db.select({ invoiceBuyer: users.invoiceBuyer }).from(users).where(eq(users.id, userId));
  return row?.invoiceBuyer ?? null;
}
