const localeOf = (language: string) => (language === 'bg' ? 'bg-BG' : 'en-GB');

/** A date and time in the reader's language, or the "not available" text for a missing or invalid one. */
export function formatDateTime(iso: string | null | undefined, language: string, notAvailable: string): string {
  const time = iso ? Date.parse(iso) : Number.NaN;
  if (Number.isNaN(time)) return notAvailable;
  return new Intl.DateTimeFormat(localeOf(language), { dateStyle: 'medium', timeStyle: 'short' }).format(time);
}

/** As formatDateTime, but only the time ("17:18") for a moment of the same day as `now`. */
export function formatTimeOrDateTime(iso: string | null | undefined, language: string, notAvailable: string, now = Date.now()): string {
  const time = iso ? Date.parse(iso) : Number.NaN;
  if (Number.isNaN(time) || new Date(time).toDateString() !== new Date(now).toDateString()) return formatDateTime(iso, language, notAvailable);
  return new Intl.DateTimeFormat(localeOf(language), { timeStyle: 'short' }).format(time);
}

/** A time of day in the reader's language (19:05 in both). */
export function formatTime(time: number, language: string): string {
  return new Intl.DateTimeFormat(language === 'bg' ? 'bg-BG' : 'en-GB', { timeStyle: 'short' }).format(time);
}

/** A day in Sofia, where the shop's documents are dated: "26.11.2026 г." in Bulgarian, "26 Nov 2026" in English. */
export function formatSofiaDate(iso: string, language: string): string {
  return new Intl.DateTimeFormat(localeOf(language), { timeZone: 'Europe/Sofia', day: 'numeric', month: language === 'bg' ? '2-digit' : 'short', year: 'numeric' }).format(new Date(iso));
}
