import { randomBytes } from 'node:crypto';
import { and, asc, eq, ne, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Address, addressInputSchema, Country } from '#shared/addresses.js';
import type { Database, Executor } from '#server/db/client.js';
import { addresses } from '#server/db/schema.js';
import { inTransaction, lockSubject } from '#server/db/transaction.js';
import { HttpError } from '#server/http/errors.js';

type AddressRow = typeof addresses.$inferSelect;
type ValidAddress = z.output<typeof addressInputSchema>;

const toAddress = (row: AddressRow): Address => ({
  id: row.id,
  fullName: row.fullName,
  streetAddress: row.streetAddress,
  apartment: row.apartment ?? '',
  city: row.city,
  state: row.state,
  postalCode: row.postalCode,
  country: row.country as Country,
  phone: row.phone,
  isDefault: row.isDefault,
  createdAt: row.createdAt.toISOString(),
});

/** "address_" and the time, as the specification names them, with a random tail so that ids never collide. */
const newAddressId = () => `address_${Date.now()}_${randomBytes(4).toString('hex')}`;

const notFound = () => new HttpError(404, 'not_found', 'Address not found');

export async function listAddresses(db: Executor, userId: string): Promise<Address[]> {
  const rows = await db.select().from(addresses).where(eq(addresses.userId, userId)).orderBy(asc(addresses.createdAt), asc(addresses.id));
  return rows.map(toAddress);
}

/** What an order copies of the address it goes to. */
export type OrderAddress = Omit<Address, 'isDefault' | 'createdAt'>;

/**
 * The address an order goes to, as a column of another query (the checkout's first statement): the
 * one chosen, if it is the user's, else her default one, else her oldest; null when there is none.
 * Its values are placeholders: the statement is built once (placeOrder).
 */
export function orderAddressColumn(userId: Placeholder, addressId: Placeholder | undefined): SQL<OrderAddress | null> {
  const chosen = addressId === undefined ? sql`` : sql` and ${addresses.id} = ${addressId}`;
  return sql<OrderAddress | null>`(select json_build_object('id', ${addresses.id}, 'fullName', ${addresses.fullName}, 'streetAddress', ${addresses.streetAddress},
      'apartment', coalesce(${addresses.apartment}, ''), 'city', ${addresses.city}, 'state', ${addresses.state}, 'postalCode', ${addresses.postalCode},
      'country', ${addresses.country}, 'phone', ${addresses.phone})
    from ${addresses} where ${addresses.userId} = ${userId}${chosen}
    order by ${addresses.isDefault} desc, ${addresses.createdAt}, ${addresses.id} limit 1)`;
}

/** The user's address by id; another user's id is treated as unknown. */
export async function findAddress(db: Executor, userId: string, id: string): Promise<Address | null> {
  const [row] = await db.select().from(addresses).where(and(eq(addresses.id, id), eq(addresses.userId, userId)));
  return row ? toAddress(row) : null;
}

/** A new address becomes the default; the others lose the flag (spec section 4). */
export async function createAddress(db: Database, userId: string, input: ValidAddress): Promise<Address[]> {
  return inTransaction(db, async (tx) => {
    await lockSubject(tx, 'addresses', userId);
    await tx.update(addresses).set({ isDefault: false }).where(eq(addresses.userId, userId));
    await tx.insert(addresses).values({ ...input, id: newAddressId(), userId, isDefault: true });
    return listAddresses(tx, userId);
  });
}

export async function updateAddress(db: Database, userId: string, id: string, input: ValidAddress): Promise<Address[]> {
  const updated = await db
    .update(addresses)
    .set({ ...input, updatedAt: new Date() })
    .where(and(eq(addresses.id, id), eq(addresses.userId, userId)))
    .returning({ id: addresses.id });
  if (updated.length === 0) throw notFound();
  return listAddresses(db, userId);
}

/** Deleting the default address makes the first remaining one the default. */
export async function deleteAddress(db: Database, userId: string, id: string): Promise<Address[]> {
  return inTransaction(db, async (tx) => {
    await lockSubject(tx, 'addresses', userId);
    const [removed] = await tx
      .delete(addresses)
      .where(and(eq(addresses.id, id), eq(addresses.userId, userId)))
      .returning({ isDefault: addresses.isDefault });
    if (!removed) throw notFound();
    if (removed.isDefault) {
      const [first] = await tx
        .select({ id: addresses.id })
        .from(addresses)
        .where(eq(addresses.userId, userId))
        .orderBy(asc(addresses.createdAt), asc(addresses.id))
        .limit(1);
      if (first) await tx.update(addresses).set({ isDefault: true }).where(eq(addresses.id, first.id));
    }
    return listAddresses(tx, userId);
  });
}

/** Exactly one default afterwards. Changes to one customer's defaults take turns, so parallel ones all succeed. */
export async function setDefaultAddress(db: Database, userId: string, id: string): Promise<Address[]> {
  return inTransaction(db, async (tx) => {
    await lockSubject(tx, 'addresses', userId);
    if (!(await findAddress(tx, userId, id))) throw notFound();
    await tx.update(addresses).set({ isDefault: false }).where(and(eq(addresses.userId, userId), ne(addresses.id, id)));
    await tx.update(addresses).set({ isDefault: true }).where(eq(addresses.id, id));
    return listAddresses(tx, userId);
  });
}

/** Deletes every address of a customer who deletes their account, in the caller's transaction. */
export async function deleteAllAddresses(tx: Executor, userId: string): Promise<void> {
  await tx.delete(addresses).where(eq(addresses.userId, userId));
}
