import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Database, Executor, Transaction } from './client.js';

/** A field of a database error, whether the driver threw it or Drizzle wrapped the driver's error as its cause. */
function databaseErrorField(error: unknown, field: 'code' | 'constraint'): string | undefined {
  const own = (error as Record<string, unknown> | null)?.[field];
  if (typeof own === 'string') return own;
  const cause = (error as { cause?: Record<string, unknown> } | null)?.cause?.[field];
  return typeof cause === 'string' ? cause : undefined;
}

/** The SQLSTATE of a database error. */
export const databaseErrorCode = (error: unknown): string | undefined => databaseErrorField(error, 'code');

/** The constraint a database error names (the index of a unique violation, say). */
export const databaseErrorConstraint = (error: unknown): string | undefined => databaseErrorField(error, 'constraint');

export const UNIQUE_VIOLATION = '23505';

/**
 * The rows of a statement that Drizzle's builders cannot express (an insert from a data-modifying
 * WITH, say). Drizzle types execute's result as unknown since it is the driver's own object, but both
 * drivers' results (pg's QueryResult, PGlite's Results) carry the rows as objects keyed by column name.
 */
export async function selectRows<Row>(db: Executor, statement: SQL): Promise<Row[]> {
  const result = (await db.execute(statement)) as { rows: Row[] };
  return result.rows;
}
/** Serialization failure and deadlock: PostgreSQL rolled the transaction back, and running it again is safe. */
const RETRYABLE = new Set(['40001', '40P01']);

/**
 * Runs the work in a transaction, and once more if PostgreSQL aborted it for a serialization
 * failure or a deadlock (https://www.postgresql.org/docs/current/mvcc-serialization-failure-handling.html).
 * The work must have no effect outside the database, since it may run twice.
 */
export async function inTransaction<T>(db: Database, work: (tx: Transaction) => Promise<T>): Promise<T> {
  return retriedOnce(() => db.transaction(work));
}

/** Runs the work, a transaction or a statement in a transaction of its own, and once more if PostgreSQL aborted it for a serialization failure or a deadlock. */
export async function retriedOnce<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!RETRYABLE.has(databaseErrorCode(error) ?? '')) throw error;
    return work();
  }
}

/**
 * What a transaction-scoped advisory lock protects. Each is the first key of the two-key form,
 * whose key space is apart from the one-key locks of migrations and seeding.
 */
const LOCK_CLASSES = {
  /** A customer's cart and checkout: operations on one cart take turns. The cart's database functions (migration 0036) take it too. */
  cart: 1,
  /** A customer's addresses, so that exactly one stays the default. */
  addresses: 2,
  /** Sign-in links requested for one e-mail address, counted and recorded together. */
  signInEmail: 3,
  /** Sign-in links requested from one client address. */
  signInClient: 4,
  /**
   * The dashboard's daily sales, subject 0: summing days takes it alone, and a change to the orders of a
   * summed day takes it shared (in the triggers of migration 0026).
   */
  salesDays: 5,
} as const;

/**
 * Makes transactions that name the same subject take turns until the caller's transaction ends.
 * A transaction that takes several classes must take them in the order of LOCK_CLASSES, so that
 * no two can wait for each other.
 */
export async function lockSubject(tx: Executor, lockClass: keyof typeof LOCK_CLASSES, subject: string): Promise<void> {
  await tx.execute(sql`select ${subjectLock(lockClass, subject)}`);
}

/** lockSubject's lock as an expression, for a statement that takes it with another (the checkout's, whose subject is a placeholder). */
export function subjectLock(lockClass: keyof typeof LOCK_CLASSES, subject: string | Placeholder): SQL {
  return sql`pg_advisory_xact_lock(${sql.raw(String(LOCK_CLASSES[lockClass]))}, hashtext(${subject}))`;
}

/** Makes changes to the orders of days already summed wait until the caller's transaction ends. */
export async function lockSalesDays(tx: Executor): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${sql.raw(String(LOCK_CLASSES.salesDays))}, 0)`);
}
