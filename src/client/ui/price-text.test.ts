import { describe, expect, it } from 'vitest';
import { currencyLabel, priceText } from './price-text.js';

const nbsp = '\u00a0';

describe('priceText', () => {
  it('keeps each amount on one line and the slash with the first', () => {
    expect(priceText(1738, 'EUR', 'bg', true)).toBe(`17,38${nbsp}€${nbsp}/ 33,99${nbsp}лв.`);
    expect(priceText(1738, 'EUR', 'en', true)).toBe(`€17.38${nbsp}/ BGN${nbsp}33.99`);
  });

  it('writes the default shop as the specification does', () => {
    expect(priceText(599, 'BGN', 'en', false)).toBe(`BGN${nbsp}5.99`);
  });
});

describe('currencyLabel', () => {
  it('keeps "BGN" and writes the euro sign', () => {
    expect([currencyLabel('BGN'), currencyLabel('EUR')]).toEqual(['BGN', '€']);
  });
});
