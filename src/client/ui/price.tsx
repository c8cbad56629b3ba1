import { useCallback } from 'react';
import { useTranslation } from '../i18n/i18n.js';
import { formatMinor } from '../../shared/money.js';

/** A price as text, for sentences: the currency prefix and two decimals, as the current language writes numbers. */
export function usePriceText(): (minor: number) => string {
  const { t, language } = useTranslation();
  return useCallback((minor: number) => `${t('common.currencyPrefix')}${formatMinor(minor, language)}`, [t, language]);
}

/** A price with the currency prefix and two decimals, written the way the current language writes numbers. */
export function Price({ minor }: { minor: number }) {
  const priceText = usePriceText();
  return <span className="price">{priceText(minor)}</span>;
}
