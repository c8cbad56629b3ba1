import { useTranslation } from '#client/i18n/i18n.js';
import { usePriceText } from '#client/ui/price.js';

/** Flags a line whose price changed, in words that screen readers read as they are shown. */
export function PriceChangeNote({ earlierMinor, nowMinor }: { earlierMinor: number; nowMinor: number }) {
  const { t } = useTranslation();
  const priceText = usePriceText();
  return <span className="price-change">{t('cartPage.priceChanged', { was: priceText(earlierMinor), now: priceText(nowMinor) })}</span>;
}
