import { useTranslation } from '../i18n/i18n.js';
import { formatMinor } from '../../shared/money.js';

/** A price with the currency prefix and two decimals, written the way the current language writes numbers. */
export function Price({ minor }: { minor: number }) {
  const { t, language } = useTranslation();
  return (
    <span className="price">
      {t('common.currencyPrefix')}
      {formatMinor(minor, language)}
    </span>
  );
}
