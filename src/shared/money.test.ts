import { describe, expect, it } from 'vitest';
import { formatMinor, parsePriceToMinor, priceLines, taxFor } from './money.js';

describe('taxFor', () => {
  it.each([
    [0, 0],
    [1, 0], // 0.05 st rounds down
    [9, 0], // 0.45 st rounds down
    [10, 1], // 0.5 st rounds half-up
    [30, 2], // 1.5 st rounds half-up
    [1999, 100], // 99.95 st
    [2999, 150], // 149.95 st
    [12345, 617], // 617.25 st
    [100000, 5000],
  ])('tax of %i stotinki is %i', (subtotal, tax) => {
    expect(taxFor(subtotal)).toBe(tax);
  });
});

describe('priceLines', () => {
  const one = (priceMinor: number) => ({ priceMinor, quantity: 1 });

  it('charges no shipping for an empty cart', () => {
    expect(priceLines([])).toEqual({ subtotal: 0, tax: 0, shipping: 0, total: 0 });
  });

  it('adds 5% tax and 5.99 shipping to a non-empty cart', () => {
    expect(priceLines([one(1250), one(2499)])).toEqual({ subtotal: 3749, tax: 187, shipping: 599, total: 4535 });
  });

  it('charges each piece of a line: two at 12.50 and one at 24.99', () => {
    expect(priceLines([{ priceMinor: 1250, quantity: 2 }, one(2499)])).toEqual({ subtotal: 4999, tax: 250, shipping: 599, total: 5848 });
  });

  it('keeps the total equal to the sum of its parts', () => {
    for (const lines of [[1], [333, 333, 334], [8999, 1, 10], [150]]) {
      const pricing = priceLines(lines.map(one));
      expect(pricing.total).toBe(pricing.subtotal + pricing.tax + pricing.shipping);
    }
  });
});

describe('formatMinor', () => {
  it.each([
    [0, 'en', '0.00'],
    [5, 'en', '0.05'],
    [1250, 'en', '12.50'],
    [123456, 'en', '1,234.56'],
    [1250, 'bg', '12,50'],
  ])('formats %i in %s as %s', (minor, locale, text) => {
    expect(formatMinor(minor, locale).replace(/\s/g, ' ')).toBe(text.replace(/\s/g, ' '));
  });
});

describe('parsePriceToMinor', () => {
  it.each<[unknown, number | undefined]>([
    ['12.5', 1250],
    ['12,50', 1250],
    [' 7 ', 700],
    [12.5, 1250],
    ['12.500', 1250],
    ['0.01', 1],
    ['0.005', undefined],
    ['0.004', undefined],
    ['19.999', undefined],
    ['19,991', undefined],
    [19.999, undefined],
    ['abc', 0],
    ['', 0],
    ['-3', 0],
    [null, 0],
    [undefined, 0],
    [Number.NaN, 0],
    ['1e3', 0],
  ])('parses %j as %s stotinki', (input, minor) => {
    expect(parsePriceToMinor(input)).toBe(minor);
  });
});
