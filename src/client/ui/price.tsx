import { useCallback } from 'react';
import { priceAmounts, type Currency } from '#shared/money.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { settings } from '#client/settings.js';
import { EQUIVALENT_SEPARATOR, priceText } from './price-text.js';

/**
 * A price as text, for sentences, in the given currency (the shop's unless told: an order keeps its
 * own) and, in a euro shop during the changeover, with its BGN equivalent.
 */
export function usePriceText(): (minor: number, currency?: Currency) => string {
  const { language } = useTranslation();
  return useCallback(
    (minor: number, currency: Currency = settings.pricing.currency) => priceText(minor, currency, language, settings.showBgnEquivalent),
    [language],
  );
}

/**
 * A price, written the way the current language writes numbers and the currency. Its BGN equivalent
 * follows in the same font and size, as the changeover law asks; a line may break between the two
 * amounts but never inside one.
 */
export function Price({ minor, currency = settings.pricing.currency }: { minor: number; currency?: Currency }) {
  const { language } = useTranslation();
  const [own, equivalent] = priceAmounts(minor, currency, language, settings.showBgnEquivalent);
  if (equivalent === undefined) return <span className="price">{own}</span>;
  return (
    <span className="price price--with-equivalent">
      <span className="price__amount">{own}</span>
      {EQUIVALENT_SEPARATOR}
      <span className="price__amount">{equivalent}</span>
    </span>
  );
}
