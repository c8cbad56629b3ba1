import { and, eq, or, sql } from 'drizzle-orm';
import type { TextLanguage } from '#shared/catalog.js';
import type { Database, Executor } from '#server/db/client.js';
import { admins, users } from '#server/db/schema.js';
import { announceRolesChanged } from '#server/notices/live-hub.js';

// Who may do what: the admin role, read with every session and managed by ADMIN_EMAILS, the admin
// command and account deletion. A change is announced to every server process, which forgets the
// sessions it holds (session-cache.ts), so that a removed admin loses access at once.

const normalize = (email: string) => email.trim().toLowerCase();

/** An admin is an admins record whose id is the e-mail, or whose email field is (spec section 6). */
export async function isAdminEmail(db: Executor, email: string): Promise<boolean> {
  const normalized = normalize(email);
  const [row] = await db
    .select({ id: admins.id })
    .from(admins)
    .where(or(eq(admins.id, normalized), eq(admins.email, normalized)))
    .limit(1);
  return Boolean(row);
}

/**
 * Whether the user of a query over `users` is an admin, as isAdminEmail says, for reading with the
 * user in one statement: e-mails are stored trimmed and in lower case (auth-schemas.ts), as admins
 * are named, so the stored e-mail needs no normalizing.
 */
export const isAdminUser = sql<boolean>`exists (select 1 from ${admins} where ${admins.id} = ${users.email} or ${admins.email} = ${users.email})`;

export async function addAdmin(db: Database, email: string): Promise<boolean> {
  const normalized = normalize(email);
  if (await isAdminEmail(db, normalized)) return false;
  await db.transaction(async (tx) => {
    const added = await tx.insert(admins).values({ id: normalized, email: normalized }).onConflictDoNothing().returning({ id: admins.id });
    if (added.length > 0) await announceRolesChanged(tx);
  });
  return true;
}

/**
 * Removes every admins record that names the e-mail, by id or by email field; in the caller's
 * transaction when given one, so that the notice goes out only when it commits.
 */
export async function removeAdmin(db: Executor, email: string): Promise<boolean> {
  const normalized = normalize(email);
  return db.transaction(async (tx) => {
    const removed = await tx
      .delete(admins)
      .where(or(eq(admins.id, normalized), eq(admins.email, normalized)))
      .returning({ id: admins.id });
    if (removed.length > 0) await announceRolesChanged(tx);
    return removed.length > 0;
  });
}

export async function listAdmins(db: Executor): Promise<string[]> {
  const rows = await db.select({ id: admins.id, email: admins.email }).from(admins).orderBy(admins.id);
  return rows.map((row) => row.email ?? row.id);
}

/** Remembers the language an admin uses the dashboard in; their new-order notices come in it. */
export async function setAdminLanguage(db: Executor, email: string, language: TextLanguage): Promise<void> {
  const normalized = normalize(email);
  await db
    .update(admins)
    .set({ language })
    .where(and(or(eq(admins.id, normalized), eq(admins.email, normalized)), sql`${admins.language} is distinct from ${language}`));
}

