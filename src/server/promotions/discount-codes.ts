import { and, count, desc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import {
  applyDiscount,
  discountRefusalKey,
  normalizeDiscountCode,
  DISCOUNT_CODE_PATTERN,
  type AppliedDiscount,
  type DiscountCodeSummary,
  type DiscountLine,
  type DiscountRefusal,
  type DiscountTerms,
  type DiscountKind,
  type discountCodeInputSchema,
} from '#shared/discounts.js';
import type { z } from 'zod';
import { bgnToEurMinor } from '#shared/money.js';
import type { Executor } from '#server/db/client.js';
import { discountCodes, orders, products } from '#server/db/schema.js';
import { databaseErrorCode, UNIQUE_VIOLATION } from '#server/db/transaction.js';
import { HttpError } from '#server/http/errors.js';

type DiscountCodeRow = typeof discountCodes.$inferSelect;
type DiscountCodeFields = z.output<typeof discountCodeInputSchema>;

const REFUSAL_MESSAGES: Record<DiscountRefusal, string> = {
  unknown: 'No such discount code.',
  not_started: 'This discount code is not valid yet.',
  expired: 'This discount code has expired.',
  used_up: 'This discount code has been used as many times as it may be.',
  below_minimum: "The cart's products do not reach this code's minimum.",
  not_applicable: 'This discount code does not apply to any product in the cart.',
};

/** A code refused, with the reason the buyer is told (the field is the checkout's code box). */
const discountRefused = (reason: DiscountRefusal) =>
  new HttpError(409, 'discount_refused', REFUSAL_MESSAGES[reason], { field: 'discountCode', messageKey: discountRefusalKey(reason) });

/**
 * The code's row if it may be used now by this customer, read under a lock when `lock` (a checkout:
 * the uses counted here stay right until it commits, however many buyers use the code at once).
 * A paused or deleted code is unknown to buyers, as one that never existed.
 */
async function usableCode(tx: Executor, typed: string, userId: string, now: Date, lock: boolean): Promise<DiscountCodeRow> {
  const code = normalizeDiscountCode(typed);
  if (!DISCOUNT_CODE_PATTERN.test(code)) throw discountRefused('unknown');
  const query = tx
    .select()
    .from(discountCodes)
    .where(and(eq(discountCodes.code, code), isNull(discountCodes.deletedAt), eq(discountCodes.paused, false)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw discountRefused('unknown');
  if (row.startsAt && now < row.startsAt) throw discountRefused('not_started');
  if (row.endsAt && now >= row.endsAt) throw discountRefused('expired');
  if (row.usageLimit !== null || row.perCustomerLimit !== null) {
    const [uses] = await tx
      .select({ all: count(), customer: sql<number>`count(*) filter (where ${orders.userId} = ${userId})`.mapWith(Number) })
      .from(orders)
      .where(and(eq(orders.discountCodeId, row.id), ne(orders.status, 'cancelled')));
    if ((row.usageLimit !== null && uses!.all >= row.usageLimit) || (row.perCustomerLimit !== null && uses!.customer >= row.perCustomerLimit)) {
      throw discountRefused('used_up');
    }
  }
  return row;
}

/** The code's terms for these products: the ones it applies to among them (all, when it is not limited). */
async function termsFor(tx: Executor, row: DiscountCodeRow, productIds: readonly string[]): Promise<DiscountTerms> {
  const terms = { code: row.code, kind: row.kind as DiscountKind, value: row.value, minSubtotalMinor: row.minSubtotalMinor };
  if (row.productIds.length === 0 && row.categories.length === 0) return { ...terms, eligibleProductIds: null };
  const listed = productIds.filter((id) => row.productIds.includes(id));
  const inCategories =
    row.categories.length === 0 || productIds.length === 0
      ? []
      : await tx
          .select({ id: products.id })
          .from(products)
          .where(and(inArray(products.id, [...productIds]), inArray(products.category, row.categories)))
          .then((found) => found.map((product) => product.id));
  return { ...terms, eligibleProductIds: [...new Set([...listed, ...inCategories])] };
}

/**
 * The buyer checks a code against her cart's products: its terms, which her checkout prices the cart
 * with (applyDiscount), or the reason it is refused. Whether the cart reaches its minimum is the
 * checkout's to say, as the cart changes.
 */
export async function checkDiscountCode(db: Executor, typed: string, userId: string, cartProductIds: readonly string[]): Promise<DiscountTerms> {
  const row = await usableCode(db, typed, userId, new Date(), false);
  return termsFor(db, row, cartProductIds);
}

/**
 * The discount an order placed now gets from the code, inside the checkout's transaction, with the
 * code's row locked until the order commits (usableCode): the code's limits hold under any number of
 * checkouts at once. Refused with the reason, so that the order is not placed at a total the buyer
 * did not see.
 */
export async function discountForCheckout(
  tx: Executor,
  typed: string,
  userId: string,
  lines: readonly DiscountLine[],
): Promise<AppliedDiscount & { codeId: string }> {
  const row = await usableCode(tx, typed, userId, new Date(), true);
  const applied = applyDiscount(await termsFor(tx, row, lines.map((line) => line.productId)), lines);
  if ('refusal' in applied) throw discountRefused(applied.refusal);
  return { ...applied, codeId: row.id };
}

// The admin's side: codes created, edited, paused and deleted, listed with their uses and revenue.

const fieldsOf = (input: DiscountCodeFields) => ({
  code: input.code,
  kind: input.kind,
  value: input.kind === 'free_shipping' ? 0 : input.value,
  minSubtotalMinor: input.minSubtotalMinor,
  startsAt: input.startsAt ? new Date(input.startsAt) : null,
  endsAt: input.endsAt ? new Date(input.endsAt) : null,
  usageLimit: input.usageLimit,
  perCustomerLimit: input.perCustomerLimit,
  productIds: input.productIds,
  categories: input.categories,
});

/** A code's text is taken while another code that is not deleted has it (discount_codes_code_idx). */
const codeTaken = (code: string) => new HttpError(409, 'conflict', `The code ${code} exists already.`, { field: 'code', messageKey: 'discounts.errors.codeTaken' });

const isUniqueViolation = (error: unknown) => databaseErrorCode(error) === UNIQUE_VIOLATION;

export async function listDiscountCodes(db: Executor): Promise<DiscountCodeSummary[]> {
  const counted = sql`${orders.status} <> 'cancelled'`;
  const rows = await db
    .select({
      code: discountCodes,
      uses: sql<number>`count(${orders.id}) filter (where ${counted})`.mapWith(Number),
      revenueMinor: sql<number>`coalesce(sum(${orders.totalMinor}) filter (where ${counted}), 0)`.mapWith(Number),
    })
    .from(discountCodes)
    .leftJoin(orders, eq(orders.discountCodeId, discountCodes.id))
    .where(isNull(discountCodes.deletedAt))
    .groupBy(discountCodes.id)
    .orderBy(desc(discountCodes.createdAt), desc(discountCodes.id));
  return rows.map(({ code, uses, revenueMinor }) => summaryOf(code, uses, revenueMinor));
}

function summaryOf(row: DiscountCodeRow, uses = 0, revenueMinor = 0): DiscountCodeSummary {
  return {
    id: row.id,
    code: row.code,
    kind: row.kind as DiscountKind,
    value: row.value,
    minSubtotalMinor: row.minSubtotalMinor,
    startsAt: row.startsAt?.toISOString() ?? null,
    endsAt: row.endsAt?.toISOString() ?? null,
    usageLimit: row.usageLimit,
    perCustomerLimit: row.perCustomerLimit,
    productIds: row.productIds,
    categories: row.categories as DiscountCodeSummary['categories'],
    paused: row.paused,
    createdAt: row.createdAt.toISOString(),
    uses,
    revenueMinor,
  };
}

export async function createDiscountCode(db: Executor, input: DiscountCodeFields): Promise<DiscountCodeSummary> {
  try {
    const [row] = await db.insert(discountCodes).values(fieldsOf(input)).returning();
    return summaryOf(row!);
  } catch (error) {
    if (isUniqueViolation(error)) throw codeTaken(input.code);
    throw error;
  }
}

const notFound = () => new HttpError(404, 'not_found', 'No such discount code.');

/** Changes a code's terms; orders placed with it keep what it took off them. */
export async function updateDiscountCode(db: Executor, id: string, input: DiscountCodeFields): Promise<void> {
  try {
    const changed = await db
      .update(discountCodes)
      .set(fieldsOf(input))
      .where(and(eq(discountCodes.id, id), isNull(discountCodes.deletedAt)))
      .returning({ id: discountCodes.id });
    if (changed.length === 0) throw notFound();
  } catch (error) {
    if (isUniqueViolation(error)) throw codeTaken(input.code);
    throw error;
  }
}

export async function pauseDiscountCode(db: Executor, id: string, paused: boolean): Promise<void> {
  const changed = await db
    .update(discountCodes)
    .set({ paused })
    .where(and(eq(discountCodes.id, id), isNull(discountCodes.deletedAt)))
    .returning({ id: discountCodes.id });
  if (changed.length === 0) throw notFound();
}

/** Deletes a code for buyers and the admin's list; its row stays for the orders placed with it. */
export async function deleteDiscountCode(db: Executor, id: string): Promise<void> {
  const changed = await db
    .update(discountCodes)
    .set({ deletedAt: sql`now()` })
    .where(and(eq(discountCodes.id, id), isNull(discountCodes.deletedAt)))
    .returning({ id: discountCodes.id });
  if (changed.length === 0) throw notFound();
}

/**
 * At the euro's introduction (npm run currency:euro), the amounts of codes that are not deleted are
 * converted with the catalogue: a fixed amount off and a minimum subtotal, at the fixed rate, half-up.
 */
export async function convertDiscountCodesToEuro(tx: Executor): Promise<void> {
  const rows = await tx
    .select({ id: discountCodes.id, kind: discountCodes.kind, value: discountCodes.value, minSubtotalMinor: discountCodes.minSubtotalMinor })
    .from(discountCodes)
    .where(isNull(discountCodes.deletedAt))
    .for('update');
  for (const row of rows) {
    await tx
      .update(discountCodes)
      .set({
        value: row.kind === 'amount' ? bgnToEurMinor(row.value) : row.value,
        minSubtotalMinor: row.minSubtotalMinor === null ? null : bgnToEurMinor(row.minSubtotalMinor),
      })
      .where(eq(discountCodes.id, row.id));
  }
}
