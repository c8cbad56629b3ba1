import { describe, expect, it } from 'vitest';
import { storableText } from '#shared/text.js';
import { moneyOf, timeOf } from './legacy-export.js';

describe('the export’s times', () => {
  it.each([
    [{ _seconds: 1710061200, _nanoseconds: 500_000_000 }, '2024-03-10T09:00:00.500Z'],
    [{ seconds: 1710061200, nanoseconds: 0 }, '2024-03-10T09:00:00.000Z'],
    ['2024-03-10T09:00:00.000Z', '2024-03-10T09:00:00.000Z'],
    ['2024-03-10', '2024-03-10T00:00:00.000Z'],
    [1710061200000, '2024-03-10T09:00:00.000Z'],
    ['1710061200000', '2024-03-10T09:00:00.000Z'],
    ['yesterday', null],
    [{ _seconds: 'x' }, null],
    [0, null],
    [true, null],
  ])('%j is %s', (value, iso) => {
    expect(timeOf(value)).toBe(iso);
  });
});

describe('the export’s amounts', () => {
  it.each([
    [24.9, 2490],
    [18.505, 1851],
    ['18.50', 1850],
    ['32,00', 3200],
    ['24,90 лв.', 2490],
    ['BGN 5', 500],
    ['ask us', undefined],
    ['1.2.3', undefined],
    [-5, undefined],
    [null, undefined],
  ])('%j is %s minor units', (value, minor) => {
    expect(moneyOf(value)).toBe(minor);
  });
});

describe('storableText', () => {
  it('drops NUL and lone surrogate halves and keeps emoji whole', () => {
    expect(storableText('a\u0000b\uD800c 💅')).toBe('abc 💅');
  });
});
