import type { DeliveryMethod } from './delivery.js';
import { divideHalfUp, SPEC_PRICING, type PricingRules } from './money.js';

/*
 * What an order costs: the tax, shipping and fee that the shop's pricing rules add to its lines. Apart
 * from money.ts (amounts, currencies and how they are written), which the first page loads, as these
 * rules are needed only where a cart or an order is priced.
 */

export interface Pricing {
  subtotal: number;
  /** Added to the subtotal, or (when taxIncluded) the part of the total that is tax. */
  tax: number;
  shipping: number;
  /** The cash-on-delivery fee; 0 for other payment methods. */
  fee: number;
  total: number;
  taxIncluded: boolean;
  /** The rate the tax was computed at, in basis points. */
  taxRateBasisPoints: number;
  /** Taken off the products' subtotal by a discount code (0 without one), before tax. */
  discount: number;
  /** The discount code applied (its discount, or free shipping), or null. */
  discountCode: string | null;
}

/** A discount code's effect on a price (applyDiscount in discounts.ts). */
export interface PriceReduction {
  code: string;
  productsMinor: number;
  freeShipping: boolean;
}


/**
 * Which tax row an order's totals show: tax added after the subtotal, tax the final prices include,
 * or none for a shop that charges no tax (not registered for VAT, TAX_RATE=0).
 */
export const taxRowOf = (pricing: { taxIncluded: boolean; taxRateBasisPoints: number }): 'added' | 'included' | null =>
  pricing.taxRateBasisPoints === 0 ? null : pricing.taxIncluded ? 'included' : 'added';

/** Tax at the rate, added to an amount, rounded half-up to the minor unit. */
export function taxFor(amountMinor: number, taxRateBasisPoints = SPEC_PRICING.taxRateBasisPoints): number {
  return divideHalfUp(amountMinor * taxRateBasisPoints, 10_000);
}

/** The tax contained in a final amount (amount × rate / (1 + rate)), rounded half-up. */
export function taxContainedIn(amountMinor: number, taxRateBasisPoints: number): number {
  return divideHalfUp(amountMinor * taxRateBasisPoints, 10_000 + taxRateBasisPoints);
}

/**
 * Shares a whole amount out over weights in proportion, in whole minor units that add up to it
 * exactly: each share rounded down, and the units left over going to the largest remainders (the
 * earlier weight first on a tie).
 */
export function shareOut(amount: number, weights: readonly number[]): number[] {
  const whole = weights.reduce((sum, weight) => sum + weight, 0);
  if (whole === 0) return weights.map(() => 0);
  const shares = weights.map((weight) => Math.floor((amount * weight) / whole));
  const remainders = weights.map((weight, index) => ({ index, remainder: (amount * weight) % whole }));
  let left = amount - shares.reduce((sum, share) => sum + share, 0);
  for (const { index } of remainders.sort((a, b) => b.remainder - a.remainder || a.index - b.index)) {
    if (left === 0) break;
    shares[index]! += 1;
    left -= 1;
  }
  return shares;
}

/** A line as pricing sees it; a gift card sold (giftCard) is money paid in advance, not goods. */
export interface PricedLine {
  priceMinor: number;
  quantity: number;
  giftCard?: boolean;
}

/** What the gift cards sold among the lines cost: no tax, no discount and no shipping touch it. */
export const giftCardLinesMinor = (lines: readonly PricedLine[]) => lines.reduce((sum, line) => sum + (line.giftCard ? line.priceMinor * line.quantity : 0), 0);

/**
 * Pricing of an order or cart from its lines' unit prices and quantities, less a discount code's
 * reduction. Shipping (and the cash-on-delivery fee) apply only to a non-empty cart, shipping only
 * below the free-shipping subtotal (compared with the products' price after the discount) and without
 * a free-shipping code; its fee is the delivery method's. Tax is added to the discounted subtotal, as the specification has it; with
 * prices that include tax, the total is what the shelf prices less the discount, shipping and fee add
 * up to, and the tax shown is the part of that total that is tax. Gift cards sold are in the subtotal
 * and the total at their value, outside all of that: no tax, and a cart of gift cards alone ships nothing.
 */
export function priceLines(
  lines: readonly PricedLine[],
  rules: PricingRules = SPEC_PRICING,
  paymentMethod?: string,
  reduction: PriceReduction | null = null,
  deliveryMethod: DeliveryMethod = 'address',
): Pricing {
  const subtotal = lines.reduce((sum, line) => sum + line.priceMinor * line.quantity, 0);
  const cards = giftCardLinesMinor(lines);
  const discount = Math.min(reduction?.productsMinor ?? 0, subtotal - cards);
  const goods = subtotal - cards - discount;
  const anyGoods = lines.some((line) => line.quantity > 0 && !line.giftCard);
  const any = lines.some((line) => line.quantity > 0);
  const shipping = anyGoods && !reduction?.freeShipping && freeShippingGap(goods, rules) !== 0 ? deliveryFeeOf(rules, deliveryMethod) : 0;
  const fee = any && paymentMethod === 'cash_on_delivery' ? rules.cashOnDeliveryFeeMinor : 0;
  const taxRateBasisPoints = rules.taxRateBasisPoints;
  const common = { subtotal, shipping, fee, taxRateBasisPoints, discount, discountCode: reduction?.code ?? null };
  if (rules.pricesIncludeTax) {
    const taxed = goods + shipping + fee;
    return { ...common, tax: taxContainedIn(taxed, taxRateBasisPoints), total: taxed + cards, taxIncluded: true };
  }
  const tax = taxFor(goods, taxRateBasisPoints);
  return { ...common, tax, total: goods + tax + shipping + fee + cards, taxIncluded: false };
}

/** What a delivery method costs before any free shipping: its own fee, or the shop's shipping fee. */
export const deliveryFeeOf = (rules: PricingRules, method: DeliveryMethod): number => rules.deliveryFeesMinor?.[method] ?? rules.shippingMinor;

/**
 * How much more the lines' subtotal (the products' prices as shown, before any tax that is added)
 * needs for free shipping: 0 once it has reached the shop's threshold, null when the shop has none.
 */
export function freeShippingGap(subtotalMinor: number, rules: Pick<PricingRules, 'freeShippingFromMinor'>): number | null {
  if (rules.freeShippingFromMinor === null) return null;
  return Math.max(0, rules.freeShippingFromMinor - subtotalMinor);
}
