import { useTranslation } from '#client/i18n/i18n.js';
import { dayText } from '#shared/orders.js';

/** "Ships by Thu 3 Dec": the latest of the dates given (lines of a cart), or nothing when none is known. */
export function ShipsBy({ dates, className = 'ships-by' }: { dates: readonly (string | null | undefined)[]; className?: string }) {
  const { t, language } = useTranslation();
  const latest = dates.reduce<string | null>((last, date) => (date && (!last || date > last) ? date : last), null);
  if (!latest) return null;
  return <p className={className}>{t('choices.shipsBy', { date: dayText(latest, language) })}</p>;
}
