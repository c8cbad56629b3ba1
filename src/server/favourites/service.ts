import { and, desc, eq, sql } from 'drizzle-orm';
import { MAX_FAVOURITES } from '#shared/favourites.js';
import type { Executor } from '#server/db/client.js';
import { favourites, products } from '#server/db/schema.js';
import { selectRows } from '#server/db/transaction.js';
import { HttpError } from '#server/http/errors.js';

/** The customer's favourite products, newest first. */
export async function listFavourites(db: Executor, userId: string): Promise<string[]> {
  const rows = await db
    .select({ productId: favourites.productId })
    .from(favourites)
    .where(eq(favourites.userId, userId))
    .orderBy(desc(favourites.createdAt), favourites.productId)
    .limit(MAX_FAVOURITES);
  return rows.map((row) => row.productId);
}

/**
 * Hearts the product for the customer, once however often (or however many times at once) she asks.
 * 404 for a product that does not exist; 409 when she already keeps MAX_FAVOURITES.
 */
export async function addFavourite(db: Executor, userId: string, productId: string): Promise<void> {
  // One statement: the product must exist and the list have room. Nothing inserted with room left
  // means the heart was there (a conflict), even if a DELETE running at once has taken it off since.
  const [outcome] = await selectRows<{ found: boolean; kept: number; added: boolean }>(
    db,
    sql`with product as (select ${products.id} as id from ${products} where ${products.id} = ${productId}),
      kept as (select count(*)::int as n from ${favourites} where ${favourites.userId} = ${userId}),
      added as (
        insert into ${favourites} (user_id, product_id)
        select ${userId}, product.id from product, kept where kept.n < ${MAX_FAVOURITES}
        on conflict do nothing
        returning 1
      )
    select exists (select 1 from product) as found, (select n from kept) as kept, exists (select 1 from added) as added`,
  );
  if (!outcome?.found) throw new HttpError(404, 'not_found', 'Product not found');
  if (outcome.added || outcome.kept < MAX_FAVOURITES) return;
  const [held] = await db.select({ productId: favourites.productId }).from(favourites).where(and(eq(favourites.userId, userId), eq(favourites.productId, productId)));
  if (!held) throw new HttpError(409, 'conflict', `At most ${MAX_FAVOURITES} favourites are kept.`, { messageKey: 'favourites.errors.tooMany' });
}

/** Takes the heart off the product; one that was not there is no error. */
export async function removeFavourite(db: Executor, userId: string, productId: string): Promise<void> {
  await db.delete(favourites).where(and(eq(favourites.userId, userId), eq(favourites.productId, productId)));
}

/**
 * Adds the favourites a browser kept before its visitor signed in to her account's (products that no
 * longer exist are left out, and the list stays within MAX_FAVOURITES), and returns the whole list.
 */
export async function mergeFavourites(db: Executor, userId: string, productIds: readonly string[]): Promise<string[]> {
  if (productIds.length > 0) {
    await db.execute(sql`
      insert into ${favourites} (user_id, product_id)
      select ${userId}, ${products.id} from ${products}
      where ${products.id} in (${sql.join(
        productIds.map((id) => sql`${id}`),
        sql`, `,
      )})
      order by ${products.id}
      limit greatest(0, ${MAX_FAVOURITES} - (select count(*) from ${favourites} where ${favourites.userId} = ${userId}))
      on conflict do nothing`);
  }
  return listFavourites(db, userId);
}

/** Forgets the customer's favourites, when her account is deleted. */
export async function forgetFavourites(tx: Executor, userId: string): Promise<void> {
  await tx.delete(favourites).where(eq(favourites.userId, userId));
}
