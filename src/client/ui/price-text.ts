import { priceAmounts, type Currency } from '#shared/money.js';

/** Between a price and its equivalent: the slash stays on the line of the first amount. */
export const EQUIVALENT_SEPARATOR = '\u00a0/ ';

/**
 * A price for a sentence: "BGN 12.50", "17,38 € / 33,99 лв.". Its spaces are non-breaking, so that a
 * line wrapping on a phone never parts a currency from its number; a long pair may wrap only after the slash.
 */
export function priceText(minor: number, currency: Currency, language: string, showBgnEquivalent: boolean): string {
  return priceAmounts(minor, currency, language, showBgnEquivalent)
    .map((amount) => amount.replace(/ /g, '\u00a0'))
    .join(EQUIVALENT_SEPARATOR);
}

/** How a label names the currency: "Price (BGN)" as the specification has it, "Price (€)". */
export const currencyLabel = (currency: Currency): string => (currency === 'EUR' ? '€' : 'BGN');
