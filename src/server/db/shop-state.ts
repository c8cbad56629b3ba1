import { eq, sql, type SQL } from 'drizzle-orm';
import type { Executor } from './client.js';
import { shopState } from './schema.js';

/** A value the shop keeps in shop_state under the key; undefined when none was saved. */
export async function readShopState(db: Executor, key: string): Promise<string | undefined> {
  const [row] = await db.select({ value: shopState.value }).from(shopState).where(eq(shopState.key, key));
  return row?.value;
}

/** The same value as a column of another query, so that it costs no statement of its own; null when none was saved. */
export function shopStateColumn(key: string): SQL<string | null> {
  return sql<string | null>`(select ${shopState.value} from ${shopState} where ${shopState.key} = ${key})`;
}

/** Saves the value under the key, replacing any saved before. */
export async function writeShopState(db: Executor, key: string, value: string): Promise<void> {
  await db
    .insert(shopState)
    .values({ key, value })
    .onConflictDoUpdate({ target: shopState.key, set: { value, updatedAt: sql`now()` } });
}
