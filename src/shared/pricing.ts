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
}


/** Tax at the rate, added to an amount, rounded half-up to the minor unit. */
export function taxFor(amountMinor: number, taxRateBasisPoints = SPEC_PRICING.taxRateBasisPoints): number {
  return divideHalfUp(amountMinor * taxRateBasisPoints, 10_000);
}

/** The tax contained in a final amount (amount × rate / (1 + rate)), rounded half-up. */
export function taxContainedIn(amountMinor: number, taxRateBasisPoints: number): number {
  return divideHalfUp(amountMinor * taxRateBasisPoints, 10_000 + taxRateBasisPoints);
}

/**
 * Pricing of an order or cart from its lines' unit prices and quantities. Shipping (and the
 * cash-on-delivery fee) apply only to a non-empty cart, shipping only below the free-shipping subtotal. Tax is added to the subtotal, as the
 * specification has it; with prices that include tax, the total is what the shelf prices, shipping
 * and fee add up to, and the tax shown is the part of that total that is tax.
 */
export function priceLines(
  lines: readonly { priceMinor: number; quantity: number }[],
  rules: PricingRules = SPEC_PRICING,
  paymentMethod?: string,
): Pricing {
  const subtotal = lines.reduce((sum, line) => sum + line.priceMinor * line.quantity, 0);
  const any = lines.some((line) => line.quantity > 0);
  const shipping = any && freeShippingGap(subtotal, rules) !== 0 ? rules.shippingMinor : 0;
  const fee = any && paymentMethod === 'cash_on_delivery' ? rules.cashOnDeliveryFeeMinor : 0;
  const taxRateBasisPoints = rules.taxRateBasisPoints;
  if (rules.pricesIncludeTax) {
    const total = subtotal + shipping + fee;
    return { subtotal, tax: taxContainedIn(total, taxRateBasisPoints), shipping, fee, total, taxIncluded: true, taxRateBasisPoints };
  }
  const tax = taxFor(subtotal, taxRateBasisPoints);
  return { subtotal, tax, shipping, fee, total: subtotal + tax + shipping + fee, taxIncluded: false, taxRateBasisPoints };
}

/**
 * How much more the lines' subtotal (the products' prices as shown, before any tax that is added)
 * needs for free shipping: 0 once it has reached the shop's threshold, null when the shop has none.
 */
export function freeShippingGap(subtotalMinor: number, rules: Pick<PricingRules, 'freeShippingFromMinor'>): number | null {
  if (rules.freeShippingFromMinor === null) return null;
  return Math.max(0, rules.freeShippingFromMinor - subtotalMinor);
}
