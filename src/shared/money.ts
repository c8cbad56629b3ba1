import type { DeliveryMethod } from './delivery.js';

/**
 * Money is held in integer minor units (stotinki for BGN, cents for EUR) everywhere; only
 * formatting turns it into a decimal string. Every amount belongs to one currency: the shop's for
 * its catalogue and carts, the order's own for an order (past orders keep theirs when the shop
 * changes currency).
 */

export const CURRENCIES = ['BGN', 'EUR'] as const;
export type Currency = (typeof CURRENCIES)[number];

/** The highest price a product may have (100,000.00), so that no cart's total overflows its column. */
export const MAX_PRICE_MINOR = 10_000_000;

/**
 * How an order is priced: the shop's settings. The defaults are the specification's: BGN, 5% tax
 * added to the subtotal, 5.99 shipping.
 */
export interface PricingRules {
  currency: Currency;
  /** The tax rate in basis points: 500 is 5%. */
  taxRateBasisPoints: number;
  shippingMinor: number;
  /** Shelf prices are final and contain the tax (EU consumer prices); otherwise tax is added. */
  pricesIncludeTax: boolean;
  /** Charged on top for cash on delivery. */
  cashOnDeliveryFeeMinor: number;
  /** Shipping is free from this subtotal on; null: never. */
  freeShippingFromMinor: number | null;
  /** The fee of each delivery method (src/shared/delivery.ts) that has its own; the others cost shippingMinor. */
  deliveryFeesMinor?: Partial<Record<string, number>>;
  /** The delivery methods whose fee their courier quotes for each order (delivery-quotes: the checkout asks for it before the total). */
  quotedDeliveryMethods?: DeliveryMethod[];
}

export const SPEC_PRICING: PricingRules = {
  currency: 'BGN',
  taxRateBasisPoints: 500,
  shippingMinor: 599,
  pricesIncludeTax: false,
  cashOnDeliveryFeeMinor: 0,
  freeShippingFromMinor: null,
};

/** Half-up division of non-negative integers: the nearest whole number, .5 going up. */
export const divideHalfUp = (numerator: number, denominator: number) => Math.floor((2 * numerator + denominator) / (2 * denominator));

/** "5" for 500 basis points, "20" for 2000, "9.5" for 950: the rate as people write it. */
export const taxPercentText = (taxRateBasisPoints: number) => String(taxRateBasisPoints / 100);

/** A formatter per locale, made once: making one costs tens of microseconds, and a catalogue page shows dozens of prices. */
const amountFormats = new Map<string, Intl.NumberFormat>();

/** "12.50" in English, "12,50" in Bulgarian: always two decimals. */
export function formatMinor(minor: number, locale: string): string {
  let format = amountFormats.get(locale);
  if (!format) amountFormats.set(locale, (format = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 })));
  return format.format(minor / 100);
}

/**
 * An amount as the shop writes it. BGN keeps the specification's "BGN 12.50" ("BGN 12,50" in
 * Bulgarian); euro is written as each language does: "€17.38" and "17,38 €".
 */
export function formatMoney(minor: number, currency: Currency, language: string): string {
  const number = formatMinor(minor, language);
  if (currency === 'BGN') return `BGN ${number}`;
  return language === 'bg' ? `${number} €` : `€${number}`;
}

/** The fixed conversion rate of the lev to the euro: 1 EUR = 1.95583 BGN, as 195583 / 100000. */
export const BGN_PER_EUR = { numerator: 195_583, denominator: 100_000 } as const;

/** Euro cents in stotinki at the fixed rate, rounded half-up to the stotinka (the changeover law's rule). */
export function eurToBgnMinor(eurMinor: number): number {
  return divideHalfUp(eurMinor * BGN_PER_EUR.numerator, BGN_PER_EUR.denominator);
}

/** Stotinki in euro cents at the fixed rate, rounded half-up to the cent. */
export function bgnToEurMinor(bgnMinor: number): number {
  return divideHalfUp(bgnMinor * BGN_PER_EUR.denominator, BGN_PER_EUR.numerator);
}

/**
 * The BGN equivalent of a euro amount, written as each language writes leva during the
 * changeover: "BGN 34.00" in English, "34,00 лв." in Bulgarian.
 */
export function formatBgnEquivalent(eurMinor: number, language: string): string {
  const number = formatMinor(eurToBgnMinor(eurMinor), language);
  return language === 'bg' ? `${number} лв.` : `BGN ${number}`;
}

/**
 * The amounts a price is written as: its own and, while the changeover law asks for it, the BGN
 * equivalent of a euro amount after it.
 */
export function priceAmounts(minor: number, currency: Currency, language: string, showBgnEquivalent: boolean): string[] {
  const own = formatMoney(minor, currency, language);
  return showBgnEquivalent && currency === 'EUR' ? [own, formatBgnEquivalent(minor, language)] : [own];
}

/** One line of a cart or an order: how many pieces, at which unit price, and what they cost together. */
export interface LineAmounts {
  quantity: number;
  unitMinor: number;
  totalMinor: number;
}

export const lineAmounts = (line: { priceMinor: number; quantity: number }): LineAmounts => ({
  quantity: line.quantity,
  unitMinor: line.priceMinor,
  totalMinor: line.priceMinor * line.quantity,
});

/**
 * A line as the shop writes it everywhere (cart, checkout, profile, admin, e-mails): quantity × unit
 * price = line total, "2 × €7.93 = €15.86", so that the lines visibly add up to the subtotal. A single
 * piece is written as its price alone. Each amount is written as priceAmounts writes it, its BGN
 * equivalent included, joined by joinAmounts (" / " unless told).
 */
export function lineText(
  line: { priceMinor: number; quantity: number },
  currency: Currency,
  language: string,
  showBgnEquivalent: boolean,
  joinAmounts: (amounts: string[]) => string = (amounts) => amounts.join(' / '),
): string {
  const { quantity, unitMinor, totalMinor } = lineAmounts(line);
  const amount = (minor: number) => joinAmounts(priceAmounts(minor, currency, language, showBgnEquivalent));
  return quantity === 1 ? amount(totalMinor) : `${quantity} × ${amount(unitMinor)} = ${amount(totalMinor)}`;
}

/**
 * A price typed by a person or sent as a string ("12.5", "12,50", 12.5) in minor units.
 * Anything that is not a finite, non-negative amount becomes 0, as the specification asks ("a
 * string is parsed to a number, defaulting to 0"), and the form then asks for the price. An amount
 * with a non-zero digit past the stotinka ("12.345") gives undefined: rounding it would store a
 * price nobody typed, so it is refused instead. Zeros past the stotinka ("12.500") change nothing.
 */
export function parsePriceToMinor(input: unknown): number | undefined {
  const text = typeof input === 'number' ? String(input) : typeof input === 'string' ? input.trim().replace(',', '.') : '';
  if (!/^\d+(\.\d+)?$/.test(text)) return 0;
  const [whole = '0', fraction = ''] = text.split('.');
  if (/[1-9]/.test(fraction.slice(2))) return undefined;
  const minor = Number(whole) * 100 + Number((fraction + '00').slice(0, 2));
  return Number.isSafeInteger(minor) ? minor : 0;
}
