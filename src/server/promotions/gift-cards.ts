import { randomBytes } from 'node:crypto';
import { and, asc, desc, eq, gte, ne, sql } from 'drizzle-orm';
import type { TextLanguage } from '#shared/catalog.js';
import type { Currency } from '#shared/money.js';
import { bgnToEurMinor } from '#shared/money.js';
import {
  giftCardCodeFrom,
  giftCardEnding,
  giftCardRefusalKey,
  GIFT_CARD_CODE_PATTERN,
  normalizeGiftCardCode,
  payWithGiftCard,
  type GiftCardBalance,
  type GiftCardIssue,
  type GiftCardRefusal,
  type GiftCardSummary,
} from '#shared/gift-cards.js';
import type { Executor } from '#server/db/client.js';
import { giftCards, orderItems, orders } from '#server/db/schema.js';
import { databaseErrorCode, UNIQUE_VIOLATION } from '#server/db/transaction.js';
import { HttpError } from '#server/http/errors.js';
import { queueMails } from '#server/mail/mail-queue.js';

type GiftCardRow = typeof giftCards.$inferSelect;

const REFUSAL_MESSAGES: Record<GiftCardRefusal, string> = {
  unknown: 'No such gift card.',
  empty: 'Nothing is left on this gift card.',
  changed: 'What is left on this gift card has changed; check the order again.',
};

/** A card refused, with the reason the buyer is told (the field is the checkout's gift card box). */
const giftCardRefused = (reason: GiftCardRefusal) =>
  new HttpError(409, 'gift_card_refused', REFUSAL_MESSAGES[reason], { field: 'giftCardCode', messageKey: giftCardRefusalKey(reason) });

/** A card that does not exist: what a guesser mostly gets, counted by the promotions' guess limit. */
export const isUnknownGiftCard = (error: unknown) => error instanceof HttpError && error.details.messageKey === giftCardRefusalKey('unknown');

/** The card with this code in the shop's currency, read under a lock when `lock` (a checkout, which changes its balance). */
async function findCard(tx: Executor, typed: string, currency: Currency, lock: boolean): Promise<GiftCardRow> {
  const code = normalizeGiftCardCode(typed);
  if (!GIFT_CARD_CODE_PATTERN.test(code)) throw giftCardRefused('unknown');
  const query = tx
    .select()
    .from(giftCards)
    .where(and(eq(giftCards.code, code), eq(giftCards.currency, currency)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw giftCardRefused('unknown');
  if (row.balanceMinor === 0) throw giftCardRefused('empty');
  return row;
}

/** The buyer checks a card at checkout: what is left on it, which her checkout takes off what she pays. */
export async function checkGiftCard(db: Executor, typed: string, currency: Currency): Promise<GiftCardBalance> {
  const row = await findCard(db, typed, currency, false);
  return { code: row.code, balanceMinor: row.balanceMinor };
}

/**
 * What the card pays of an order placed now, inside the checkout's transaction: the card's row is
 * locked until the order commits and its balance taken down at once, so any number of checkouts with
 * one card at the same moment take turns, and together never take more than it holds. The buyer saw
 * what the card would pay (`expectedPaidMinor`); if that changed meanwhile (the card paid for another
 * order), the order is refused rather than asking her for more than she saw.
 */
export async function giftCardForCheckout(
  tx: Executor,
  typed: string,
  currency: Currency,
  totalMinor: number,
  expectedPaidMinor: number | undefined,
): Promise<{ giftCardId: string; ending: string; paidMinor: number }> {
  const row = await findCard(tx, typed, currency, true);
  const { paidMinor, balanceAfterMinor } = payWithGiftCard(totalMinor, row.balanceMinor);
  if (expectedPaidMinor !== undefined && paidMinor !== expectedPaidMinor) throw giftCardRefused('changed');
  await tx.update(giftCards).set({ balanceMinor: balanceAfterMinor }).where(eq(giftCards.id, row.id));
  return { giftCardId: row.id, ending: giftCardEnding(row.code), paidMinor };
}

/** A cancelled order gives back to its card what the card paid for it, in the cancellation's transaction. */
export async function giveBackGiftCardPayment(tx: Executor, orderId: string): Promise<void> {
  await tx.execute(sql`
    update ${giftCards} set balance_minor = ${giftCards.balanceMinor} + ${orders.giftCardMinor}
    from ${orders}
    where ${orders.id} = ${orderId} and ${orders.giftCardId} = ${giftCards.id} and ${orders.giftCardMinor} > 0`);
}

/**
 * A cancelled order that is reopened takes again from its card what the card paid for it; refused
 * (changing nothing) when the card no longer holds that much, since the order would then be unpaid.
 */
export async function retakeGiftCardPayment(tx: Executor, orderId: string): Promise<void> {
  const [order] = await tx.select({ giftCardId: orders.giftCardId, giftCardMinor: orders.giftCardMinor }).from(orders).where(eq(orders.id, orderId));
  if (!order?.giftCardId || order.giftCardMinor === 0) return;
  const taken = await tx
    .update(giftCards)
    .set({ balanceMinor: sql`${giftCards.balanceMinor} - ${order.giftCardMinor}` })
    .where(and(eq(giftCards.id, order.giftCardId), gte(giftCards.balanceMinor, order.giftCardMinor)))
    .returning({ id: giftCards.id });
  if (taken.length === 0) {
    throw new HttpError(409, 'conflict', `The gift card that paid for order ${orderId} no longer holds what it paid; the order stays cancelled.`, {
      messageKey: 'giftCards.errors.reopenShort',
    });
  }
}

// Cards sold: issued when the order that buys them is paid, and sent to the buyer.

/**
 * Issues the cards an order bought, in the transaction that records its payment: one card for each
 * piece of each gift card line, of the line's unit price, and the e-mail that sends their codes to
 * the buyer. An order is paid once, so its cards are issued once.
 */
export async function issueSoldGiftCards(tx: Executor, order: { id: string; currency: string; customerEmail: string; language: string }): Promise<void> {
  const lines = await tx
    .select({ priceMinor: orderItems.priceMinor, quantity: orderItems.quantity })
    .from(orderItems)
    .where(and(eq(orderItems.orderId, order.id), eq(orderItems.giftCard, true)))
    .orderBy(asc(orderItems.position));
  if (lines.length === 0) return;
  const cards = lines.flatMap((line) =>
    Array.from({ length: line.quantity }, () => ({ code: giftCardCodeFrom(randomBytes(16)), currency: order.currency, initialMinor: line.priceMinor, balanceMinor: line.priceMinor, orderId: order.id })),
  );
  await tx.insert(giftCards).values(cards);
  await queueMails(tx, [{ orderId: order.id, kind: 'gift_cards_issued', recipient: order.customerEmail, language: order.language as TextLanguage }]);
}

/** The cards an order bought, in the order they were issued, for the e-mail that sends them. */
export const giftCardsOfOrder = (db: Executor, orderId: string) =>
  db.select({ code: giftCards.code, initialMinor: giftCards.initialMinor }).from(giftCards).where(eq(giftCards.orderId, orderId)).orderBy(asc(giftCards.createdAt), asc(giftCards.code));

/** A cancelled order's cards are no longer worth anything: what is left on them is cancelled with it. */
export async function cancelSoldGiftCards(tx: Executor, orderId: string): Promise<void> {
  await tx.update(giftCards).set({ balanceMinor: 0 }).where(eq(giftCards.orderId, orderId));
}

// The admin's side: cards issued by hand, and the list with what is left on each.

/** Issues a card by hand; the answer carries its whole code, which the admin copies or prints for the recipient. */
export async function issueGiftCard(db: Executor, input: Required<GiftCardIssue>, currency: Currency): Promise<GiftCardSummary & { code: string }> {
  // 80 random bits: a second try is there for completeness, not because a collision is expected.
  for (let attempt = 0; ; attempt++) {
    try {
      const [row] = await db
        .insert(giftCards)
        .values({ code: giftCardCodeFrom(randomBytes(16)), currency, initialMinor: input.amountMinor, balanceMinor: input.amountMinor, note: input.note })
        .returning();
      return { ...summaryOf(row!, 0), code: row!.code };
    } catch (error) {
      if (attempt > 0 || databaseErrorCode(error) !== UNIQUE_VIOLATION) throw error;
    }
  }
}

/** The newest cards first, a page at a time, with how many orders (not cancelled) each has paid for. */
export async function listGiftCards(db: Executor, limit: number): Promise<GiftCardSummary[]> {
  const rows = await db
    .select({ card: giftCards, uses: sql<number>`count(${orders.id})`.mapWith(Number) })
    .from(giftCards)
    .leftJoin(orders, and(eq(orders.giftCardId, giftCards.id), ne(orders.status, 'cancelled')))
    .groupBy(giftCards.id)
    .orderBy(desc(giftCards.createdAt), desc(giftCards.id))
    .limit(limit);
  return rows.map(({ card, uses }) => summaryOf(card, uses));
}

const summaryOf = (row: GiftCardRow, uses: number): GiftCardSummary => ({
  id: row.id,
  ending: giftCardEnding(row.code),
  initialMinor: row.initialMinor,
  balanceMinor: row.balanceMinor,
  note: row.note,
  createdAt: row.createdAt.toISOString(),
  uses,
});

/** The euro changeover (npm run currency:euro): every card's amounts at the fixed rate, as the catalogue's. */
export async function convertGiftCardsToEuro(tx: Executor): Promise<void> {
  const rows = await tx.select({ id: giftCards.id, initialMinor: giftCards.initialMinor, balanceMinor: giftCards.balanceMinor }).from(giftCards).where(eq(giftCards.currency, 'BGN')).for('update');
  for (const row of rows) {
    await tx
      .update(giftCards)
      .set({ currency: 'EUR', initialMinor: bgnToEurMinor(row.initialMinor), balanceMinor: bgnToEurMinor(row.balanceMinor) })
      .where(eq(giftCards.id, row.id));
  }
}
