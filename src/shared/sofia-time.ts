/*
 * The shop's clock: days and times as they are in Sofia, where the shop is, whatever the time zone of
 * the server or the browser.
 */

export const SHOP_TIME_ZONE = 'Europe/Sofia';

// Made once: a formatter costs tens of microseconds to make, and checkout asks for several dates.
const SOFIA_DAY = new Intl.DateTimeFormat('en-CA', { timeZone: SHOP_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });
const SOFIA_SECOND = new Intl.DateTimeFormat('en-GB', { timeZone: SHOP_TIME_ZONE, hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
const SOFIA_MINUTE = new Intl.DateTimeFormat('en-CA', { timeZone: SHOP_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/** A date (yyyy-mm-dd) as the day it is in Sofia at this moment. */
export const sofiaDate = (moment: Date): string => SOFIA_DAY.format(moment);

/** The moment a day (yyyy-mm-dd) begins in Sofia: midnight there is 22:00 or 21:00 UTC the day before. */
export function sofiaMidnight(isoDate: string): Date {
  const utcMidnight = Date.parse(`${isoDate}T00:00:00Z`);
  for (const hours of [2, 3]) {
    const moment = new Date(utcMidnight - hours * 3_600_000);
    if (sofiaDate(moment) === isoDate && sofiaDate(new Date(moment.getTime() - 1)) !== isoDate) return moment;
  }
  throw new Error(`No midnight in Sofia on ${isoDate}`);
}

/** A moment as Sofia's wall clock shows it, yyyy-mm-ddThh:mm (the value of a datetime-local field). */
export function sofiaDateTime(moment: Date): string {
  const parts = SOFIA_MINUTE.formatToParts(moment);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((candidate) => candidate.type === type)!.value;
  return `${part('year')}-${part('month')}-${part('day')}T${part('hour')}:${part('minute')}`;
}

/**
 * The moment Sofia's wall clock shows yyyy-mm-ddThh:mm: two or three hours before the same figures in
 * UTC. A time the clocks skip in spring is read as the hour after; one they show twice in autumn, as the first.
 */
export function fromSofiaDateTime(local: string): Date {
  const asUtc = Date.parse(`${local}:00Z`);
  if (Number.isNaN(asUtc)) throw new RangeError(`Not a date and time: ${local}`);
  for (const hours of [3, 2]) {
    const moment = new Date(asUtc - hours * 3_600_000);
    if (sofiaDateTime(moment) === local) return moment;
  }
  return new Date(asUtc - 2 * 3_600_000);
}

/** The time of day in Sofia to the second, hh:mm:ss. */
export const sofiaClockTime = (moment: Date): string => SOFIA_SECOND.format(moment);

/** The date `days` calendar days after a date (yyyy-mm-dd); before it when negative. */
export function addDays(isoDate: string, days: number): string {
  const date = new Date(`${isoDate}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** Calendar days from one date (yyyy-mm-dd) to another: 0 for the same day. */
export const daysBetween = (from: string, to: string): number => Math.round((Date.parse(`${to}T12:00:00Z`) - Date.parse(`${from}T12:00:00Z`)) / 86_400_000);
