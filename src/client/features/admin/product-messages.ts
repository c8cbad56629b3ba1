import { formatMoney, MAX_PRICE_MINOR, type Currency } from '#shared/money.js';
import { MAX_PRICE_DELTA_MINOR } from '#shared/product-options.js';
import type { Translate } from '#client/i18n/i18n.js';
import type { PhotoFailure } from './save-product-photos.js';

/**
 * The values the product form's messages name, in the shop's currency as the admin's language writes
 * it: "The price can be at most €100,000.00", "…най-много 100 000,00 €".
 */
export const productMessageValues = (language: string, currency: Currency) => ({
  maxPrice: formatMoney(MAX_PRICE_MINOR, currency, language),
  maxDelta: formatMoney(MAX_PRICE_DELTA_MINOR, currency, language),
});

/** How far a new price may be from the old one before the form asks: ten times more, or less than a tenth. */
const PRICE_JUMP_FACTOR = 10;

/**
 * Whether a new price is so far from the old one that it is more likely a typing slip (a decimal
 * comma lost, 24,90 become 2490) than a decision, so the form asks before saving it.
 */
export const isPriceJump = (oldMinor: number, newMinor: number): boolean =>
  oldMinor > 0 && (newMinor > oldMinor * PRICE_JUMP_FACTOR || newMinor * PRICE_JUMP_FACTOR < oldMinor);

/** A price in minor units as the price field shows it, with the admin's language's decimal mark: 12.50, 12,50. */
export const priceFieldText = (minor: number, language: string): string => {
  const text = (minor / 100).toFixed(2);
  return language === 'bg' ? text.replace('.', ',') : text;
};

/**
 * What the product form says when files were not uploaded: whether the product is saved, each file by
 * its place and name with the reason (`reasonText`), then what the admin can do: remove a refused
 * file to save without it, or save again to send one that did not get through.
 */
export function photoFailuresText(t: Translate, productSaved: boolean, failures: PhotoFailure[], reasonText: (reason: unknown) => string): string {
  const refused = failures.filter((failure) => failure.refused).length;
  return [
    ...(productSaved ? [t('admin.products.messages.photosNotAllSaved')] : []),
    ...failures.map((failure) =>
      t(failure.refused ? 'admin.products.messages.photoRefused' : 'admin.products.messages.photoFailed', {
        number: failure.number,
        file: failure.fileName,
        message: reasonText(failure.reason),
      }),
    ),
    ...(refused > 0 ? [t('admin.products.messages.removeRefused', { count: refused })] : []),
    ...(refused < failures.length ? [t('admin.products.messages.retryFailed')] : []),
  ].join(' ');
}
