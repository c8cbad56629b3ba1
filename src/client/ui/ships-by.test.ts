import { describe, expect, it } from 'vitest';
import { dayText } from './ships-by.js';

describe('dayText', () => {
  it.each([
    ['2026-12-03', 'en', 'Thu, 3 Dec'],
    ['2026-12-03', 'bg', 'чт, 3 дек.'],
    ['2027-05-04', 'bg', 'вт, 4 май'],
    ['2026-01-05', 'en', 'Mon, 5 Jan'],
  ])('writes %s in %s as %s', (date, language, text) => {
    expect(dayText(date, language)).toBe(text);
  });
});
