import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { MAX_REVIEW_PHOTOS, REVIEW_STATUSES, type AdminReviewList, type ReviewableLine, type ReviewPage } from '#shared/reviews.js';
import { requireAdmin, requireUser } from '#server/auth/session.js';
import type { Database } from '#server/db/client.js';
import { HttpError } from '#server/http/errors.js';
import { GuessLimit } from '#server/http/guess-limit.js';
import { parseInput, pathUuid } from '#server/http/validation.js';
import type { ProductImages } from '#server/images/product-images.js';
import { listAdminReviews, listReviewableLines, moderateReview, productReviews, submitReview } from './service.js';

/** A review's form: its fields and at most MAX_REVIEW_PHOTOS files named `photo`. */
async function readReviewForm(request: FastifyRequest): Promise<{ fields: Record<string, string>; photos: Buffer[] }> {
  if (!request.isMultipart()) throw new HttpError(415, 'unsupported_media_type', 'Send the review as multipart/form-data.');
  const fields: Record<string, string> = {};
  const photos: Buffer[] = [];
  // One file more than allowed is read to be refused with its own message, not cut off.
  for await (const part of request.parts({ limits: { files: MAX_REVIEW_PHOTOS + 1, fields: 8, parts: MAX_REVIEW_PHOTOS + 9 } })) {
    if (part.type === 'file') {
      if (part.fieldname !== 'photo') throw new HttpError(400, 'bad_request', `Unexpected file ${part.fieldname}`);
      const content = await part.toBuffer();
      if (content.length > 0) photos.push(content);
    } else {
      fields[part.fieldname] = String(part.value ?? '');
    }
  }
  return { fields, photos };
}

const adminListQuery = z.object({ status: z.enum(REVIEW_STATUSES).catch('pending').default('pending') });
const pageQuery = z.object({ cursor: z.string().max(200).optional() });

/** Reviews: the product page's, the buyer's own and the admin's moderation. */
export function registerReviewRoutes(app: FastifyInstance, db: Database, images: ProductImages): void {
  // Each account may send 10 reviews in 15 minutes: more is a script, not a buyer.
  const submissions = new GuessLimit('Too many reviews at once; try again later.');

  app.get<{ Params: { productId: string }; Querystring: unknown }>('/api/products/:productId/reviews', async (request): Promise<ReviewPage> => {
    const productId = pathUuid(request.params.productId, 'Product not found');
    return productReviews(db, productId, parseInput(pageQuery, request.query).cursor);
  });

  app.get('/api/reviews/mine', async (request, reply): Promise<{ lines: ReviewableLine[] }> => {
    const user = await requireUser(db, request);
    reply.header('cache-control', 'no-store');
    return { lines: await listReviewableLines(db, user.id) };
  });

  app.post('/api/reviews', async (request, reply) => {
    const user = await requireUser(db, request);
    submissions.check(user.id);
    const { fields, photos } = await readReviewForm(request);
    const review = await submitReview(db, images, user.id, fields, photos);
    submissions.miss(user.id);
    return reply.status(201).send({ review });
  });

  app.get<{ Querystring: unknown }>('/api/admin/reviews', async (request, reply): Promise<AdminReviewList> => {
    await requireAdmin(db, request);
    reply.header('cache-control', 'no-store');
    return { reviews: await listAdminReviews(db, parseInput(adminListQuery, request.query).status) };
  });

  app.patch<{ Params: { reviewId: string } }>('/api/admin/reviews/:reviewId', async (request, reply) => {
    await requireAdmin(db, request);
    await moderateReview(db, pathUuid(request.params.reviewId, 'No such review.'), request.body);
    return reply.status(204).send();
  });
}
