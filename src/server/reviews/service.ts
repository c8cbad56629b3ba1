import { and, desc, eq, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import {
  MAX_REVIEW_PHOTOS,
  ratingAverage,
  REVIEWS_PAGE_SIZE,
  reviewInputSchema,
  reviewModerationSchema,
  type AdminReview,
  type CustomerReview,
  type RatingSummary,
  type Review,
  type ReviewableLine,
  type ReviewPage,
  type ReviewStatus,
} from '#shared/reviews.js';
import type { Database, Executor } from '#server/db/client.js';
import { orderItems, orders, products, reviews } from '#server/db/schema.js';
import { inTransaction } from '#server/db/transaction.js';
import { HttpError } from '#server/http/errors.js';
import { invalidInput, parseInput } from '#server/http/validation.js';
import { imageUrlForKey, type ProductImages } from '#server/images/product-images.js';
import { catalogueChanged } from '#server/catalog/catalogue-state.js';

type ReviewRow = typeof reviews.$inferSelect;

const toReview = (row: ReviewRow): Review => ({
  id: row.id,
  rating: row.rating,
  text: row.text,
  name: row.name,
  language: row.language === 'bg' ? 'bg' : 'en',
  photos: row.photoKeys.map((key) => ({ url: imageUrlForKey(key)! })),
  reply: row.reply,
  createdAt: row.createdAt.toISOString(),
});

/** A line she may review: of her order, delivered, of a product that still exists, not a gift card. */
const reviewableLine = (userId: string) =>
  and(eq(orders.userId, userId), eq(orders.status, 'delivered'), isNotNull(orderItems.productId), eq(orderItems.giftCard, false));

/** The first word of the name the order was delivered to: what a review is signed with unless she says otherwise. */
const firstName = (fullName: string) => fullName.trim().split(/\s+/)[0] ?? '';

/** The signed-in buyer's delivered lines, newest order first, each with her review of it if she wrote one. */
export async function listReviewableLines(db: Executor, userId: string): Promise<ReviewableLine[]> {
  const rows = await db
    .select({ item: orderItems, slug: products.slug, recipient: orders.shippingFullName, review: reviews })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .innerJoin(products, eq(products.id, orderItems.productId))
    .leftJoin(reviews, eq(reviews.orderItemId, orderItems.id))
    .where(reviewableLine(userId))
    .orderBy(desc(orders.createdAt), orderItems.position)
    .limit(500);
  const lastName = rows.filter((row) => row.review).sort((a, b) => b.review!.createdAt.getTime() - a.review!.createdAt.getTime())[0]?.review?.name;
  return rows.map(({ item, slug, recipient, review }) => ({
    orderId: item.orderId,
    orderItemId: item.id,
    productSlug: slug,
    name: { en: item.nameEn, bg: item.nameBg },
    choices: item.choices,
    suggestedName: lastName ?? firstName(recipient),
    review: review ? { ...toReview(review), status: review.status as ReviewStatus } : null,
  }));
}

/** The line she asks to review, if it is hers and reviewable; refused otherwise, as if it did not exist. */
async function findReviewableLine(tx: Executor, userId: string, orderItemId: string): Promise<{ productId: string; orderId: string }> {
  const [line] = await tx
    .select({ productId: orderItems.productId, orderId: orderItems.orderId })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(and(eq(orderItems.id, orderItemId), reviewableLine(userId)))
    // Its order stays delivered, and its product stays, until the review is in.
    .for('share');
  if (!line) throw new HttpError(403, 'forbidden', 'Only a buyer whose order was delivered may review what she bought.', { messageKey: 'reviews.errors.notBought' });
  return { productId: line.productId!, orderId: line.orderId };
}

const alreadyReviewed = () => new HttpError(409, 'conflict', 'This piece of the order has its review already.', { messageKey: 'reviews.errors.alreadyReviewed' });

/**
 * A buyer's review of one line of her delivered order: checked before its photos are encoded (which
 * costs), recorded with them in one transaction, and waiting for the admin. Photos of a review that
 * could not be recorded are removed again.
 */
export async function submitReview(db: Database, images: ProductImages, userId: string, input: unknown, photos: readonly Buffer[]): Promise<Review & { status: ReviewStatus }> {
  const review = parseInput(reviewInputSchema, input);
  if (photos.length > MAX_REVIEW_PHOTOS) throw invalidInput('photos', 'reviews.errors.tooManyPhotos');
  const [existing] = await db.select({ id: reviews.id }).from(reviews).where(eq(reviews.orderItemId, review.orderItemId));
  if (existing) throw alreadyReviewed();
  await findReviewableLine(db, userId, review.orderItemId);
  for (const photo of photos) await images.checkUpload(photo);

  const reviewId = crypto.randomUUID();
  const photoKeys: string[] = [];
  try {
    for (const photo of photos) photoKeys.push(await images.storeUpload(reviewId, photo));
    const row = await inTransaction(db, async (tx) => {
      const { productId } = await findReviewableLine(tx, userId, review.orderItemId);
      const [inserted] = await tx
        .insert(reviews)
        .values({ id: reviewId, orderItemId: review.orderItemId, productId, userId, rating: review.rating, text: review.text, name: review.name, language: review.language, photoKeys })
        .onConflictDoNothing({ target: reviews.orderItemId })
        .returning();
      if (!inserted) throw alreadyReviewed();
      return inserted;
    });
    return { ...toReview(row), status: 'pending' };
  } catch (error) {
    await Promise.all(photoKeys.map((key) => images.remove(key)));
    throw error;
  }
}

/** The approved reviews' count and average of each product asked for. */
async function ratingSummaries(db: Executor, productIds: readonly string[]): Promise<Map<string, RatingSummary>> {
  if (productIds.length === 0) return new Map();
  const rows = await db
    .select({ productId: reviews.productId, count: sql<number>`count(*)::int`, total: sql<number>`sum(${reviews.rating})::int` })
    .from(reviews)
    .where(and(inArray(reviews.productId, [...productIds]), eq(reviews.status, 'approved')))
    .groupBy(reviews.productId);
  return new Map(rows.map((row) => [row.productId, { count: row.count, average: ratingAverage(row.count, row.total) }]));
}

/** A position in a product's reviews: the last shown one's time and id. */
const encodeCursor = (row: Pick<ReviewRow, 'createdAt' | 'id'>) => Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString('base64url');

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const [at, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  const createdAt = new Date(at ?? '');
  if (Number.isNaN(createdAt.getTime()) || !/^[0-9a-f-]{36}$/.test(id ?? '')) throw new HttpError(400, 'invalid_cursor', 'This position in the reviews does not exist.');
  return { createdAt, id: id! };
}

/** A page of a product's approved reviews, newest first, with its rating; after `cursor` when given. */
export async function productReviews(db: Executor, productId: string, cursor?: string, limit = REVIEWS_PAGE_SIZE): Promise<ReviewPage> {
  const after = cursor ? decodeCursor(cursor) : undefined;
  const rows = await db
    .select()
    .from(reviews)
    .where(
      and(
        eq(reviews.productId, productId),
        eq(reviews.status, 'approved'),
        after ? or(lt(reviews.createdAt, after.createdAt), and(eq(reviews.createdAt, after.createdAt), lt(reviews.id, after.id))) : undefined,
      ),
    )
    .orderBy(desc(reviews.createdAt), desc(reviews.id))
    .limit(limit + 1);
  const shown = rows.slice(0, limit);
  const summary = (await ratingSummaries(db, [productId])).get(productId) ?? { count: 0, average: 0 };
  return { summary, reviews: shown.map(toReview), nextCursor: rows.length > limit ? encodeCursor(shown.at(-1)!) : null };
}

/** The most reviews the admin's list shows at once: the newest of the status asked for. */
const ADMIN_LIST_LIMIT = 200;

/** Reviews of a status for the admin, newest first, with their products and orders. */
export async function listAdminReviews(db: Executor, status: ReviewStatus): Promise<AdminReview[]> {
  const rows = await db
    .select({ review: reviews, slug: products.slug, nameEn: products.nameEn, nameBg: products.nameBg, orderId: orderItems.orderId })
    .from(reviews)
    .innerJoin(products, eq(products.id, reviews.productId))
    .innerJoin(orderItems, eq(orderItems.id, reviews.orderItemId))
    .where(eq(reviews.status, status))
    .orderBy(desc(reviews.createdAt), desc(reviews.id))
    .limit(ADMIN_LIST_LIMIT);
  return rows.map(({ review, slug, nameEn, nameBg, orderId }) => ({
    ...toReview(review),
    status: review.status as ReviewStatus,
    orderId,
    productSlug: slug,
    productName: { en: nameEn, bg: nameBg },
  }));
}

/**
 * The admin approves, hides or answers a review. What a product page shows changes with an approved
 * review, so the catalogue's version goes up then: cached pages and their structured data follow.
 */
export async function moderateReview(db: Database, reviewId: string, input: unknown): Promise<void> {
  const change = parseInput(reviewModerationSchema, input);
  await inTransaction(db, async (tx) => {
    const [before] = await tx.select({ status: reviews.status }).from(reviews).where(eq(reviews.id, reviewId)).for('update');
    if (!before) throw new HttpError(404, 'not_found', 'No such review.');
    const status = change.status ?? (before.status as ReviewStatus);
    await tx
      .update(reviews)
      .set({
        status,
        updatedAt: new Date(),
        ...(change.reply === undefined ? {} : { reply: change.reply || null, repliedAt: change.reply ? new Date() : null }),
      })
      .where(eq(reviews.id, reviewId));
    if (before.status === 'approved' || status === 'approved') await catalogueChanged(tx);
  });
}

/** Every review she wrote, newest first, for her copy of her data. */
export async function listCustomerReviews(db: Executor, userId: string): Promise<CustomerReview[]> {
  const rows = await db
    .select({ review: reviews, orderId: orderItems.orderId })
    .from(reviews)
    .innerJoin(orderItems, eq(orderItems.id, reviews.orderItemId))
    .where(eq(reviews.userId, userId))
    .orderBy(desc(reviews.createdAt));
  return rows.map(({ review, orderId }) => ({ ...toReview(review), status: review.status as ReviewStatus, orderId, productId: review.productId }));
}

/** For a deleted account, in the caller's transaction: its reviews go; returns their photos' keys, to remove once it commits. */
export async function forgetReviews(tx: Executor, userId: string): Promise<string[]> {
  const forgotten = await tx.delete(reviews).where(eq(reviews.userId, userId)).returning({ photoKeys: reviews.photoKeys, status: reviews.status });
  if (forgotten.some((review) => review.status === 'approved')) await catalogueChanged(tx);
  return forgotten.flatMap((review) => review.photoKeys);
}

/** The lines of an order still to be reviewed, for its review request: none, and the request has nothing to ask. */
export async function linesToReview(db: Executor, orderId: string): Promise<{ name: { en: string; bg: string } }[]> {
  const rows = await db
    .select({ nameEn: orderItems.nameEn, nameBg: orderItems.nameBg })
    .from(orderItems)
    .innerJoin(products, eq(products.id, orderItems.productId))
    .leftJoin(reviews, eq(reviews.orderItemId, orderItems.id))
    .where(and(eq(orderItems.orderId, orderId), eq(orderItems.giftCard, false), isNull(reviews.id)))
    .orderBy(orderItems.position);
  return rows.map((row) => ({ name: { en: row.nameEn, bg: row.nameBg } }));
}
