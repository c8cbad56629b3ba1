import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { discountCheckSchema, discountCodeInputSchema, discountRefusalKey, type DiscountCodeSummary, type DiscountTerms } from '#shared/discounts.js';
import { requireAdmin, requireUser } from '#server/auth/session.js';
import type { Database } from '#server/db/client.js';
import { cartItems } from '#server/db/schema.js';
import { HttpError } from '#server/http/errors.js';
import { GuessLimit } from '#server/http/guess-limit.js';
import { parseInput, pathId } from '#server/http/validation.js';
import { giftCardCheckSchema, giftCardIssueSchema, type GiftCardBalance, type GiftCardSummary } from '#shared/gift-cards.js';
import type { Currency } from '#shared/money.js';
import { checkGiftCard, isUnknownGiftCard, issueGiftCard, listGiftCards } from './gift-cards.js';
import { checkDiscountCode, createDiscountCode, deleteDiscountCode, listDiscountCodes, pauseDiscountCode, updateDiscountCode } from './discount-codes.js';

const pauseSchema = z.object({ paused: z.boolean() });

const codeIdOf = (params: { codeId: string }) => {
  const id = pathId(params.codeId, 'No such discount code.');
  if (!z.uuid().safeParse(id).success) throw new HttpError(404, 'not_found', 'No such discount code.');
  return id;
};

/** A discount code or gift card that does not exist (or a paused or deleted code): what a guesser mostly gets. */
export const isUnknownCode = (error: unknown) =>
  (error instanceof HttpError && error.details.messageKey === discountRefusalKey('unknown')) || isUnknownGiftCard(error);

/**
 * A client that keeps typing codes that do not exist is guessing: after a few it is refused, a real
 * code included, so that guessing tells nothing more. One limit for discount codes and gift cards,
 * their checks and the checkout.
 */
export const newPromotionGuessLimit = () => new GuessLimit('Too many discount codes or gift cards that do not exist; try again later.');

/** The admin's list shows the newest cards, this many; older ones are found by their code's use in orders. */
const GIFT_CARD_LIST_LIMIT = 200;

/** The buyer's check of a discount code or gift card at checkout, and the admin's codes and cards. */
export function registerPromotionRoutes(app: FastifyInstance, db: Database, guesses: GuessLimit, currency: Currency): void {
  app.post('/api/gift-cards/check', async (request, reply): Promise<{ card: GiftCardBalance }> => {
    await requireUser(db, request);
    const { code } = parseInput(giftCardCheckSchema, request.body);
    reply.header('cache-control', 'no-store');
    return guesses.guard(request.ip, isUnknownCode, async () => ({ card: await checkGiftCard(db, code, currency) }));
  });

  app.get('/api/admin/gift-cards', async (request, reply): Promise<{ cards: GiftCardSummary[] }> => {
    await requireAdmin(db, request);
    reply.header('cache-control', 'no-store');
    return { cards: await listGiftCards(db, GIFT_CARD_LIST_LIMIT) };
  });

  app.post('/api/admin/gift-cards', async (request, reply) => {
    await requireAdmin(db, request);
    const input = parseInput(giftCardIssueSchema, request.body);
    reply.header('cache-control', 'no-store');
    return reply.status(201).send({ card: await issueGiftCard(db, input, currency) } satisfies { card: GiftCardSummary & { code: string } });
  });

  app.post('/api/discount-codes/check', async (request, reply): Promise<{ terms: DiscountTerms }> => {
    const user = await requireUser(db, request);
    const { code } = parseInput(discountCheckSchema, request.body);
    reply.header('cache-control', 'no-store');
    return guesses.guard(request.ip, isUnknownCode, async () => {
      const cart = await db.selectDistinct({ productId: cartItems.productId }).from(cartItems).where(eq(cartItems.userId, user.id));
      return { terms: await checkDiscountCode(db, code, user.id, cart.map((line) => line.productId)) };
    });
  });

  app.get('/api/admin/discount-codes', async (request, reply): Promise<{ codes: DiscountCodeSummary[] }> => {
    await requireAdmin(db, request);
    reply.header('cache-control', 'no-store');
    return { codes: await listDiscountCodes(db) };
  });

  app.post('/api/admin/discount-codes', async (request, reply) => {
    await requireAdmin(db, request);
    const input = parseInput(discountCodeInputSchema, request.body);
    return reply.status(201).send({ code: await createDiscountCode(db, input) } satisfies { code: DiscountCodeSummary });
  });

  app.put<{ Params: { codeId: string } }>('/api/admin/discount-codes/:codeId', async (request) => {
    await requireAdmin(db, request);
    const input = parseInput(discountCodeInputSchema, request.body);
    await updateDiscountCode(db, codeIdOf(request.params), input);
    return { ok: true };
  });

  app.post<{ Params: { codeId: string } }>('/api/admin/discount-codes/:codeId/pause', async (request) => {
    await requireAdmin(db, request);
    const { paused } = parseInput(pauseSchema, request.body);
    await pauseDiscountCode(db, codeIdOf(request.params), paused);
    return { ok: true };
  });

  app.delete<{ Params: { codeId: string } }>('/api/admin/discount-codes/:codeId', async (request) => {
    await requireAdmin(db, request);
    await deleteDiscountCode(db, codeIdOf(request.params));
    return { ok: true };
  });
}
