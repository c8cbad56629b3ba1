import { eq, or } from 'drizzle-orm';
import type { Database, Executor } from '../db/client.js';
import { admins } from '../db/schema.js';

// Who may do what: the admin role, read by sessions on every request and managed by ADMIN_EMAILS,
// the admin command and account deletion.

const normalize = (email: string) => email.trim().toLowerCase();

/** An admin is an admins record whose id is the e-mail, or whose email field is (spec section 6). */
export async function isAdminEmail(db: Database, email: string): Promise<boolean> {
  const normalized = normalize(email);
  const [row] = await db
    .select({ id: admins.id })
    .from(admins)
    .where(or(eq(admins.id, normalized), eq(admins.email, normalized)))
    .limit(1);
  return Boolean(row);
}

export async function addAdmin(db: Database, email: string): Promise<boolean> {
  const normalized = normalize(email);
  if (await isAdminEmail(db, normalized)) return false;
  await db.insert(admins).values({ id: normalized, email: normalized }).onConflictDoNothing();
  return true;
}

/** Removes every admins record that names the e-mail, by id or by email field. */
export async function removeAdmin(db: Database, email: string): Promise<boolean> {
  const normalized = normalize(email);
  const removed = await db
    .delete(admins)
    .where(or(eq(admins.id, normalized), eq(admins.email, normalized)))
    .returning({ id: admins.id });
  return removed.length > 0;
}

export async function listAdmins(db: Executor): Promise<string[]> {
  const rows = await db.select().from(admins).orderBy(admins.id);
  return rows.map((row) => row.email ?? row.id);
}
