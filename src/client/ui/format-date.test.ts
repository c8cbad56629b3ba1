import { describe, expect, it } from 'vitest';
import { formatDateTime } from './format-date.js';

describe('formatDateTime', () => {
  it('shows the not-available text for a missing or invalid date', () => {
    expect(formatDateTime(null, 'en', 'N/A')).toBe('N/A');
    expect(formatDateTime(undefined, 'en', 'N/A')).toBe('N/A');
    expect(formatDateTime('not a date', 'bg', 'Няма данни')).toBe('Няма данни');
  });

  it('writes a valid date in the reader’s language', () => {
    expect(formatDateTime('2026-03-04T10:05:00Z', 'en', 'N/A')).toMatch(/2026/);
    expect(formatDateTime('2026-03-04T10:05:00Z', 'bg', 'N/A')).toMatch(/2026/);
  });
});
