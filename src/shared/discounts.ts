import { z } from 'zod';
import { divideHalfUp, MAX_PRICE_MINOR } from './money.js';
import { PRODUCT_CATEGORIES } from './catalog.js';
import { shareOut } from './pricing.js';

/*
 * Discount codes: what a code takes off an order, computed the same way by the buyer's checkout (to
 * show it) and by the server (to charge it). Amounts are integer minor units of the shop's currency.
 */

const DISCOUNT_KINDS = ['percent', 'amount', 'free_shipping'] as const;
export type DiscountKind = (typeof DISCOUNT_KINDS)[number];

/** Letters A–Z, digits, '-' and '_', 3 to 32 of them; typed in any case, with spaces around. */
export const DISCOUNT_CODE_PATTERN = /^[A-Z0-9][A-Z0-9_-]{2,31}$/;

/** A code as it is stored and compared: trimmed and in capitals ("launch10 " is LAUNCH10). */
export const normalizeDiscountCode = (input: string): string => input.trim().toUpperCase();

/**
 * What a code does, as the checkout needs it to price the cart: the kind and its value (basis points
 * for a percentage, 1000 being 10%; minor units for an amount; 0 for free shipping), the products'
 * subtotal it needs, and the products it is limited to (null: every product).
 */
export interface DiscountTerms {
  code: string;
  kind: DiscountKind;
  value: number;
  minSubtotalMinor: number | null;
  eligibleProductIds: string[] | null;
}

/** Why a code takes nothing off: each is said to the buyer in its own words. */
export const DISCOUNT_REFUSALS = ['unknown', 'not_started', 'expired', 'used_up', 'below_minimum', 'not_applicable'] as const;
export type DiscountRefusal = (typeof DISCOUNT_REFUSALS)[number];

/** The i18n key of a refusal's text. */
export const discountRefusalKey = (reason: DiscountRefusal) => `discounts.refused.${reason}`;

/** What a code takes off: from the products (shared out over the lines it applies to), and the shipping. */
export interface AppliedDiscount {
  code: string;
  /** Taken off the products' subtotal. */
  productsMinor: number;
  /** Each line's part of productsMinor, in the lines' order; 0 for a line the code does not apply to. */
  lineShares: number[];
  freeShipping: boolean;
}

export interface DiscountLine {
  productId: string;
  priceMinor: number;
  quantity: number;
  /** A gift card sold: money paid in advance, which no code takes anything off. */
  giftCard?: boolean;
}

/**
 * What the code takes off these lines, or why it takes nothing (gift cards sold are left out of all
 * of it). The minimum is compared with the subtotal of every line (the products' prices as shown, before any tax that is added). A percentage
 * is taken of the lines the code applies to and rounded half-up; a fixed amount is at most what those
 * lines cost, so a discount never makes a total negative. The amount is shared out over those lines
 * in proportion to their amounts (shareOut), which is how each line's VAT base is lowered.
 */
export function applyDiscount(terms: DiscountTerms, lines: readonly DiscountLine[]): AppliedDiscount | { refusal: 'below_minimum' | 'not_applicable' } {
  const amounts = lines.map((line) => (line.giftCard ? 0 : line.priceMinor * line.quantity));
  const subtotal = amounts.reduce((sum, amount) => sum + amount, 0);
  if (terms.minSubtotalMinor !== null && subtotal < terms.minSubtotalMinor) return { refusal: 'below_minimum' };
  const eligible = lines.map((line) => !line.giftCard && (terms.eligibleProductIds === null || terms.eligibleProductIds.includes(line.productId)));
  const weights = amounts.map((amount, index) => (eligible[index] ? amount : 0));
  const base = weights.reduce((sum, weight) => sum + weight, 0);
  if (base === 0) return { refusal: 'not_applicable' };
  if (terms.kind === 'free_shipping') return { code: terms.code, productsMinor: 0, lineShares: lines.map(() => 0), freeShipping: true };
  const productsMinor = terms.kind === 'percent' ? divideHalfUp(base * terms.value, 10_000) : Math.min(terms.value, base);
  return { code: terms.code, productsMinor, lineShares: shareOut(productsMinor, weights), freeShipping: false };
}

/** The admin's form for a code. Times are instants (ISO 8601); the form enters them in Sofia's time. */
export const discountCodeInputSchema = z
  .object({
    code: z
      .string()
      .transform(normalizeDiscountCode)
      .pipe(z.string().regex(DISCOUNT_CODE_PATTERN, { error: 'discounts.errors.codeFormat' })),
    kind: z.enum(DISCOUNT_KINDS),
    /** Basis points for a percentage (1–10000), minor units for an amount, 0 for free shipping. */
    value: z.number().int().min(0).max(MAX_PRICE_MINOR),
    minSubtotalMinor: z.number().int().min(1).max(MAX_PRICE_MINOR).nullable().default(null),
    startsAt: z.iso.datetime({ offset: true }).nullable().default(null),
    endsAt: z.iso.datetime({ offset: true }).nullable().default(null),
    usageLimit: z.number().int().min(1).max(1_000_000).nullable().default(null),
    perCustomerLimit: z.number().int().min(1).max(1000).nullable().default(null),
    productIds: z.array(z.uuid()).max(500).default([]),
    categories: z.array(z.enum(PRODUCT_CATEGORIES)).max(PRODUCT_CATEGORIES.length).default([]),
  })
  .superRefine((input, context) => {
    if (input.kind === 'percent' && (input.value < 1 || input.value > 10_000)) {
      context.addIssue({ code: 'custom', path: ['value'], message: 'discounts.errors.percentRange' });
    }
    if (input.kind === 'amount' && input.value < 1) context.addIssue({ code: 'custom', path: ['value'], message: 'discounts.errors.amountRequired' });
    if (input.startsAt && input.endsAt && Date.parse(input.endsAt) <= Date.parse(input.startsAt)) {
      context.addIssue({ code: 'custom', path: ['endsAt'], message: 'discounts.errors.endBeforeStart' });
    }
  });
export type DiscountCodeInput = z.input<typeof discountCodeInputSchema>;

/** A code as the admin's list shows it, with its uses and what its orders brought in. */
export interface DiscountCodeSummary extends z.output<typeof discountCodeInputSchema> {
  id: string;
  paused: boolean;
  createdAt: string;
  /** Orders placed with it that were not cancelled, and their totals. */
  uses: number;
  revenueMinor: number;
}

/** The code the buyer types at checkout; anything longer or stranger than a code is unknown at once. */
export const discountCheckSchema = z.object({ code: z.string().max(64) });
