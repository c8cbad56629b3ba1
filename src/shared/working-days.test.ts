import { describe, expect, it } from 'vitest';
import { addWorkingDays, BULGARIAN_HOLIDAYS, dispatchDate, isWorkingDay, latestDate, nextDay } from './working-days.js';
import { sofiaDate, sofiaMidnight } from './sofia-time.js';

describe('isWorkingDay', () => {
  it('is Monday to Friday outside the holidays', () => {
    expect(['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27'].map(isWorkingDay)).toEqual([true, true, true, true, true]);
    expect(['2026-11-28', '2026-11-29'].map(isWorkingDay)).toEqual([false, false]);
  });

  it('skips every listed holiday, and lists only weekdays', () => {
    for (const dates of Object.values(BULGARIAN_HOLIDAYS)) {
      for (const date of dates) {
        expect(isWorkingDay(date), date).toBe(false);
        expect([0, 6], `${date} is a weekday`).not.toContain(new Date(`${date}T12:00:00Z`).getUTCDay());
      }
    }
  });

  it('knows the Orthodox Easter of 2026 (12 April) and 2027 (2 May)', () => {
    expect(['2026-04-10', '2026-04-13'].map(isWorkingDay)).toEqual([false, false]);
    expect(['2026-04-09', '2026-04-14'].map(isWorkingDay)).toEqual([true, true]);
    expect(['2027-04-30', '2027-05-03'].map(isWorkingDay)).toEqual([false, false]);
  });

  it('has no working day from 24 to 28 December 2026', () => {
    expect(['2026-12-24', '2026-12-25', '2026-12-26', '2026-12-27', '2026-12-28'].map(isWorkingDay)).toEqual([false, false, false, false, false]);
    expect(isWorkingDay('2026-12-29')).toBe(true);
  });
});

describe('addWorkingDays', () => {
  it('steps over a weekend', () => {
    expect(addWorkingDays('2026-11-27', 1)).toBe('2026-11-30');
    expect(addWorkingDays('2026-11-26', 2)).toBe('2026-11-30');
    expect(addWorkingDays('2026-11-23', 5)).toBe('2026-11-30');
  });

  it('counts from the next working day when it starts on a day off', () => {
    expect(addWorkingDays('2026-11-28', 0)).toBe('2026-11-30');
    expect(addWorkingDays('2026-11-28', 1)).toBe('2026-12-01');
    expect(addWorkingDays('2026-11-25', 0)).toBe('2026-11-25');
  });

  it('steps over Easter 2026 and the days around Easter 2027', () => {
    expect(addWorkingDays('2026-04-09', 1)).toBe('2026-04-14');
    // Good Friday, Easter Monday, Labour Day moved from Saturday, then St George's Day.
    expect(addWorkingDays('2027-04-29', 1)).toBe('2027-05-05');
    expect(addWorkingDays('2027-04-29', 2)).toBe('2027-05-07');
  });

  it('steps over Christmas 2026 and into the new year', () => {
    expect(addWorkingDays('2026-12-23', 1)).toBe('2026-12-29');
    expect(addWorkingDays('2026-12-31', 1)).toBe('2027-01-04');
  });

  it('steps over a holiday moved from a weekend to the Monday after it', () => {
    // 24 May 2026 is a Sunday: Monday the 25th is off instead.
    expect(addWorkingDays('2026-05-22', 1)).toBe('2026-05-26');
    // 6 September 2026 is a Sunday: Monday the 7th is off instead.
    expect(addWorkingDays('2026-09-04', 1)).toBe('2026-09-08');
    expect(isWorkingDay('2026-05-24')).toBe(false);
  });
});

describe('sofiaDate and dispatchDate', () => {
  it("count the day as it is in Sofia, whose midnight is 22:00 UTC in winter and 21:00 in summer", () => {
    expect(sofiaDate(new Date('2026-11-26T21:59:59Z'))).toBe('2026-11-26');
    expect(sofiaDate(new Date('2026-11-26T22:00:00Z'))).toBe('2026-11-27');
    expect(sofiaDate(new Date('2026-07-09T20:59:59Z'))).toBe('2026-07-09');
    expect(sofiaDate(new Date('2026-07-09T21:00:00Z'))).toBe('2026-07-10');
  });

  it('promises a ready piece within its days, counted from that Sofia day', () => {
    const ready = { kind: 'ready', days: 1 } as const;
    // A minute before midnight on Thursday ships on Friday; a minute after, on Monday.
    expect(dispatchDate(ready, new Date('2026-11-26T21:59:00Z'))).toBe('2026-11-27');
    expect(dispatchDate(ready, new Date('2026-11-26T22:01:00Z'))).toBe('2026-11-30');
  });

  it('promises a made-to-order piece by its longest time', () => {
    const madeToOrder = { kind: 'made_to_order', minDays: 5, maxDays: 10 } as const;
    // From Wednesday 25 November 2026: ten working days later, two weekends between.
    expect(dispatchDate(madeToOrder, new Date('2026-11-25T10:00:00Z'))).toBe('2026-12-09');
    // Ordered on 21 December 2026: the Christmas days do not count.
    expect(dispatchDate(madeToOrder, new Date('2026-12-21T10:00:00Z'))).toBe('2027-01-08');
  });

  it('ships a mixed order by its latest line', () => {
    expect(latestDate(['2026-12-09', '2027-01-08', '2026-11-30'])).toBe('2027-01-08');
    expect(latestDate([])).toBeNull();
  });
});

describe('sofiaMidnight', () => {
  it.each([
    ['2026-01-15', '2026-01-14T22:00:00.000Z'],
    ['2026-07-01', '2026-06-30T21:00:00.000Z'],
    // The days summer time begins and ends: midnight is still before the change.
    ['2026-03-29', '2026-03-28T22:00:00.000Z'],
    ['2026-10-25', '2026-10-24T21:00:00.000Z'],
  ])('%s begins at %s', (day, moment) => {
    expect(sofiaMidnight(day).toISOString()).toBe(moment);
    expect(nextDay(day) > day).toBe(true);
  });
});
