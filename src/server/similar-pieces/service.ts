import { desc, eq, isNull, sql } from 'drizzle-orm';
import { similarPieceRequestSchema, type SimilarPieceRequest } from '#shared/similar-pieces.js';
import type { Executor } from '#server/db/client.js';
import { products, similarPieceRequests } from '#server/db/schema.js';
import { HttpError } from '#server/http/errors.js';
import { parseInput } from '#server/http/validation.js';
import { lockSoldOutState } from '#server/stock/service.js';

/** The most open requests the admin's list shows: a maker answers leads long before there are more. */
const LIST_LIMIT = 200;

const productNotFound = () => new HttpError(404, 'not_found', 'Product not found');

/** The longest note an open request gathers from being asked again. */
const GATHERED_NOTE_MAX_LENGTH = 4000;

/**
 * Records a buyer's request for a piece like this sold-out one. Asked again with the same e-mail
 * before the maker has answered, its note is added to the open request's: nobody who knows her
 * e-mail can replace what she wrote, and the answer is the same either way, so that it tells
 * nobody whether she asked. A piece that can be bought now is refused (409): she is told to order it.
 */
export async function requestSimilarPiece(db: Executor, productId: string, input: unknown): Promise<void> {
  const request = parseInput(similarPieceRequestSchema, input);
  await db.transaction(async (tx) => {
    const soldOut = await lockSoldOutState(tx, productId);
    const [product] = await tx.select({ nameEn: products.nameEn, nameBg: products.nameBg }).from(products).where(eq(products.id, productId));
    if (soldOut === undefined || !product) throw productNotFound();
    if (!soldOut) throw new HttpError(409, 'stock_changed', 'This piece can be ordered now.', { messageKey: 'similarPiece.errors.available' });
    const note = similarPieceRequests.note;
    await tx
      .insert(similarPieceRequests)
      .values({ productId, productNameEn: product.nameEn, productNameBg: product.nameBg, email: request.email, note: request.note, language: request.language })
      .onConflictDoUpdate({
        target: [similarPieceRequests.productId, similarPieceRequests.email],
        targetWhere: isNull(similarPieceRequests.handledAt),
        set: {
          note: sql`case when excluded.note = '' or position(excluded.note in ${note}) > 0 then ${note}
            else left(concat_ws(E'\n\n', nullif(${note}, ''), excluded.note), ${GATHERED_NOTE_MAX_LENGTH}) end`,
        },
      });
  });
}

/** The open requests, newest first. */
export async function listSimilarPieceRequests(db: Executor): Promise<SimilarPieceRequest[]> {
  const rows = await db
    .select({ request: similarPieceRequests, slug: products.slug })
    .from(similarPieceRequests)
    .leftJoin(products, eq(products.id, similarPieceRequests.productId))
    .where(isNull(similarPieceRequests.handledAt))
    .orderBy(desc(similarPieceRequests.createdAt), desc(similarPieceRequests.id))
    .limit(LIST_LIMIT);
  return rows.map(({ request, slug }) => ({
    id: request.id,
    productSlug: slug,
    productName: { en: request.productNameEn, bg: request.productNameBg },
    email: request.email,
    note: request.note,
    language: request.language === 'bg' ? 'bg' : 'en',
    createdAt: request.createdAt.toISOString(),
    handledAt: request.handledAt?.toISOString() ?? null,
  }));
}

/** Marks a request answered, which takes it off the list; answering one twice is no error. */
export async function markSimilarPieceRequestHandled(db: Executor, id: string): Promise<void> {
  const updated = await db
    .update(similarPieceRequests)
    .set({ handledAt: sql`coalesce(${similarPieceRequests.handledAt}, now())` })
    .where(eq(similarPieceRequests.id, id))
    .returning({ id: similarPieceRequests.id });
  if (updated.length === 0) throw new HttpError(404, 'not_found', 'No such request.');
}

/** Forgets the requests an e-mail made, when its account is deleted. */
export async function forgetSimilarPieceRequests(tx: Executor, email: string): Promise<void> {
  await tx.delete(similarPieceRequests).where(eq(similarPieceRequests.email, email));
}
