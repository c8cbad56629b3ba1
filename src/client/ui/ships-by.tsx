import { useTranslation } from '#client/i18n/i18n.js';

// Bulgarian writes short month names with a point ("3 дек."), which Intl does not give in every browser.
const BULGARIAN_MONTHS = ['яну.', 'фев.', 'март', 'апр.', 'май', 'юни', 'юли', 'авг.', 'септ.', 'окт.', 'ноем.', 'дек.'];

/** A working day (yyyy-mm-dd) as "Thu, 3 Dec" or "чт, 3 дек.": the day it is, whatever the reader's time zone. */
export function dayText(isoDate: string, language: string): string {
  const date = new Date(`${isoDate}T12:00:00Z`);
  const format = (options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(language === 'bg' ? 'bg-BG' : 'en-GB', { ...options, timeZone: 'UTC' }).format(date);
  const month = language === 'bg' ? BULGARIAN_MONTHS[date.getUTCMonth()] : format({ month: 'short' });
  return `${format({ weekday: 'short' })}, ${date.getUTCDate()} ${month}`;
}

/** "Ships by Thu, 3 Dec": the latest of the dates given (lines of a cart), or nothing when none is known. */
export function ShipsBy({ dates, className = 'ships-by' }: { dates: readonly (string | null | undefined)[]; className?: string }) {
  const { t, language } = useTranslation();
  const latest = dates.reduce<string | null>((last, date) => (date && (!last || date > last) ? date : last), null);
  if (!latest) return null;
  return <p className={className}>{t('choices.shipsBy', { date: dayText(latest, language) })}</p>;
}
