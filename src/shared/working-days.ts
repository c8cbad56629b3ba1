import type { LeadTime } from './product-options.js';
import { sofiaDate } from './sofia-time.js';

/**
 * Working days in Bulgaria: Monday to Friday, except the public holidays (Labour Code, art. 154),
 * with the days off that replace a holiday falling on a weekend. Orthodox Easter moves every year,
 * so the days are listed per year; a year missing here counts weekends only, and the list is to be
 * extended before it begins.
 */
export const BULGARIAN_HOLIDAYS: Readonly<Record<number, readonly string[]>> = {
  2026: [
    '2026-01-01', // New Year
    '2026-03-03', // Liberation Day
    '2026-04-10', // Good Friday (Orthodox Easter: 12 April)
    '2026-04-13', // Easter Monday
    '2026-05-01', // Labour Day
    '2026-05-06', // St George's Day
    '2026-05-25', // for 24 May (Sunday), the Day of Bulgarian Culture and Script
    '2026-09-07', // for 6 September (Sunday), Unification Day
    '2026-09-22', // Independence Day
    '2026-12-24', // Christmas Eve
    '2026-12-25', // Christmas
    '2026-12-28', // for 26 December (Saturday)
  ],
  2027: [
    '2027-01-01', // New Year
    '2027-03-03', // Liberation Day
    '2027-04-30', // Good Friday (Orthodox Easter: 2 May)
    '2027-05-03', // Easter Monday
    '2027-05-04', // for 1 May (Saturday), Labour Day
    '2027-05-06', // St George's Day
    '2027-05-24', // Day of Bulgarian Culture and Script
    '2027-09-06', // Unification Day
    '2027-09-22', // Independence Day
    '2027-12-24', // Christmas Eve
    '2027-12-27', // for 25 December (Saturday)
    '2027-12-28', // for 26 December (Sunday)
  ],
};

const HOLIDAYS = new Set(Object.values(BULGARIAN_HOLIDAYS).flat());

/** The day after a date (yyyy-mm-dd). */
export const nextDay = (isoDate: string): string => {
  const date = new Date(`${isoDate}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
};

export function isWorkingDay(isoDate: string): boolean {
  const weekday = new Date(`${isoDate}T12:00:00Z`).getUTCDay();
  return weekday !== 0 && weekday !== 6 && !HOLIDAYS.has(isoDate);
}

/**
 * Answers already counted, by date and days: every cart line and page asks again for the few lead
 * times of the catalogue, and counting walks the calendar a day at a time.
 */
const alreadyCounted = new Map<string, string>();

/** The date `days` working days after `isoDate` (the day itself not counted); 0 days is the next working day from it on. */
export function addWorkingDays(isoDate: string, days: number): string {
  const key = `${isoDate}+${days}`;
  let date = alreadyCounted.get(key);
  if (date === undefined) {
    date = countWorkingDays(isoDate, days);
    // Dates move on, so old answers are dropped now and then rather than kept for ever.
    if (alreadyCounted.size >= 1_000) alreadyCounted.clear();
    alreadyCounted.set(key, date);
  }
  return date;
}

function countWorkingDays(isoDate: string, days: number): string {
  let date = isoDate;
  while (!isWorkingDay(date)) date = nextDay(date);
  for (let counted = 0; counted < days; ) {
    date = nextDay(date);
    if (isWorkingDay(date)) counted += 1;
  }
  return date;
}

/** The latest working day a product ordered at `moment` ships by: its lead time's longest promise, counted in Sofia's days. */
export function dispatchDate(leadTime: LeadTime, moment: Date): string {
  const days = leadTime.kind === 'ready' ? leadTime.days : leadTime.maxDays;
  return addWorkingDays(sofiaDate(moment), days);
}

/** A mixed order ships by its latest line's date. */
export const latestDate = (dates: readonly string[]): string | null => dates.reduce<string | null>((latest, date) => (latest === null || date > latest ? date : latest), null);
