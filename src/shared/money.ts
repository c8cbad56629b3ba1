/**
 * Money is held in integer minor units (stotinki, 1 BGN = 100 stotinki) everywhere;
 * only formatting turns it into a decimal string.
 */

export const CURRENCY_CODE = 'BGN';
export const TAX_PERCENT = 5;
export const SHIPPING_MINOR = 599;
/** The highest price a product may have (100,000.00), so that no cart's total overflows its column. */
export const MAX_PRICE_MINOR = 10_000_000;

export interface Pricing {
  subtotal: number;
  tax: number;
  shipping: number;
  total: number;
}

/** 5% of the subtotal, rounded half-up to the stotinka. */
export function taxFor(subtotalMinor: number): number {
  return Math.floor((subtotalMinor * TAX_PERCENT + 50) / 100);
}

/** Pricing of an order or cart from its lines' unit prices and quantities; shipping only applies to a non-empty cart. */
export function priceLines(lines: readonly { priceMinor: number; quantity: number }[]): Pricing {
  const subtotal = lines.reduce((sum, line) => sum + line.priceMinor * line.quantity, 0);
  const tax = taxFor(subtotal);
  const shipping = lines.some((line) => line.quantity > 0) ? SHIPPING_MINOR : 0;
  return { subtotal, tax, shipping, total: subtotal + tax + shipping };
}

/** "12.50" in English, "12,50" in Bulgarian: always two decimals. */
export function formatMinor(minor: number, locale: string): string {
  return new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(minor / 100);
}

/** An amount as the shop writes it: "BGN 12.50" in English, "BGN 12,50" in Bulgarian. */
export function formatMoney(minor: number, locale: string): string {
  return `${CURRENCY_CODE} ${formatMinor(minor, locale)}`;
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
