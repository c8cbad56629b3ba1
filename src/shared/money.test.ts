import { describe, expect, it } from 'vitest';
import { bgnToEurMinor, lineAmounts, lineText, priceAmounts, eurToBgnMinor, formatBgnEquivalent, formatMinor, formatMoney, parsePriceToMinor } from './money.js';
import { priceLines } from './pricing.js';

describe('the lev and the euro at the fixed rate 1.95583', () => {
  it.each([
    [0, 0],
    [1, 2], // 0.0195583 лв.
    [25, 49], // 0.4889575 лв.: the third decimal 8 rounds up
    [100, 196], // 1.95583 лв.
    [255, 499], // 4.9873665 лв.
    [1738, 3399], // 33.9923254 лв.: the third decimal 2 rounds down
    [50_000, 97_792], // exactly 977.915 лв.: half rounds up
    [150_000, 293_375], // exactly 2,933.745 лв.
    [999_999, 1_955_828], // 19,558.2804417 лв.
  ])('%i euro cents are %i stotinki', (eur, bgn) => {
    expect(eurToBgnMinor(eur)).toBe(bgn);
  });

  it.each([
    [1, 1], // 0.0051 €
    [599, 306], // 3.0626 €
    [3400, 1738], // 17.3839 €
    [6900, 3528], // 35.2791 €
    [9779, 5000], // 49.9992 €
    [97_792, 50_000], // 500.0026 €
    [12_999, 6646], // 66.4628 €
  ])('%i stotinki are %i euro cents', (bgn, eur) => {
    expect(bgnToEurMinor(bgn)).toBe(eur);
  });
});

describe('formatMoney', () => {
  const plain = (text: string) => text.replace(/\s/g, ' ');
  it.each<[number, 'BGN' | 'EUR', string, string]>([
    [6900, 'BGN', 'en', 'BGN 69.00'],
    [6900, 'BGN', 'bg', 'BGN 69,00'],
    [1738, 'EUR', 'en', '€17.38'],
    [1738, 'EUR', 'bg', '17,38 €'],
    [123_456, 'EUR', 'en', '€1,234.56'],
  ])('writes %i %s in %s as %s', (minor, currency, language, text) => {
    expect(plain(formatMoney(minor, currency, language))).toBe(plain(text));
  });

  it('writes the BGN equivalent of a euro amount as each language writes leva', () => {
    expect(formatBgnEquivalent(1738, 'en')).toBe('BGN 33.99');
    expect(formatBgnEquivalent(1738, 'bg')).toBe('33,99 лв.');
    expect(formatBgnEquivalent(50_000, 'bg')).toBe('977,92 лв.');
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

describe('priceAmounts', () => {
  it.each([
    [6900, 'BGN', 'en', false, ['BGN 69.00']],
    [6900, 'BGN', 'bg', true, ['BGN 69,00']],
    [1738, 'EUR', 'en', false, ['€17.38']],
    [1738, 'EUR', 'en', true, ['€17.38', 'BGN 33.99']],
    [1738, 'EUR', 'bg', true, ['17,38 €', '33,99 лв.']],
  ] as const)('%i %s in %s, equivalent %s', (minor, currency, language, show, expected) => {
    expect(priceAmounts(minor, currency, language, show)).toEqual(expected);
  });
});

describe('lineText', () => {
  it.each([
    [{ priceMinor: 793, quantity: 2 }, 'EUR', 'bg', false, '2 × 7,93 € = 15,86 €'],
    [{ priceMinor: 793, quantity: 2 }, 'EUR', 'en', false, '2 × €7.93 = €15.86'],
    [{ priceMinor: 793, quantity: 2 }, 'EUR', 'bg', true, '2 × 7,93 € / 15,51 лв. = 15,86 € / 31,02 лв.'],
    [{ priceMinor: 1550, quantity: 3 }, 'BGN', 'en', false, '3 × BGN 15.50 = BGN 46.50'],
    [{ priceMinor: 1550, quantity: 3 }, 'BGN', 'bg', true, '3 × BGN 15,50 = BGN 46,50'],
    [{ priceMinor: 793, quantity: 1 }, 'EUR', 'bg', false, '7,93 €'],
    [{ priceMinor: 1738, quantity: 1 }, 'EUR', 'en', true, '€17.38 / BGN 33.99'],
    // Each equivalent converts the euro amount it follows, as the changeover law has it: 3 × 25.41 would be 76.23.
    [{ priceMinor: 1299, quantity: 3 }, 'EUR', 'en', true, '3 × €12.99 / BGN 25.41 = €38.97 / BGN 76.22'],
  ] as const)('%o in %s (%s), equivalent %s: %s', (line, currency, language, show, expected) => {
    expect(lineText(line, currency, language, show)).toBe(expected);
  });

  it('writes each amount as it is told to join its currencies', () => {
    expect(lineText({ priceMinor: 1738, quantity: 2 }, 'EUR', 'en', true, (amounts) => amounts.join(' | '))).toBe('2 × €17.38 | BGN 33.99 = €34.76 | BGN 67.98');
  });

  it('adds up: the lines of an order are its subtotal', () => {
    const lines = [
      { priceMinor: 793, quantity: 2 },
      { priceMinor: 1250, quantity: 1 },
    ];
    expect(lines.reduce((sum, line) => sum + lineAmounts(line).totalMinor, 0)).toBe(priceLines(lines).subtotal);
  });
});
