import { describe, expect, it } from 'vitest';
import { bgnToEurMinor, lineAmounts, lineText, priceAmounts, eurToBgnMinor, formatBgnEquivalent, formatMinor, formatMoney, parsePriceToMinor, priceLines, SPEC_PRICING, taxContainedIn, taxFor, type PricingRules } from './money.js';

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
    expect(priceLines([])).toEqual({ subtotal: 0, tax: 0, shipping: 0, fee: 0, total: 0, taxIncluded: false, taxRateBasisPoints: 500 });
  });

  it('adds 5% tax and 5.99 shipping to a non-empty cart', () => {
    expect(priceLines([one(1250), one(2499)])).toMatchObject({ subtotal: 3749, tax: 187, shipping: 599, fee: 0, total: 4535 });
  });

  it('charges each piece of a line: two at 12.50 and one at 24.99', () => {
    expect(priceLines([{ priceMinor: 1250, quantity: 2 }, one(2499)])).toMatchObject({ subtotal: 4999, tax: 250, shipping: 599, total: 5848 });
  });

  it('keeps the total equal to the sum of its parts', () => {
    for (const lines of [[1], [333, 333, 334], [8999, 1, 10], [150]]) {
      const pricing = priceLines(lines.map(one));
      expect(pricing.total).toBe(pricing.subtotal + pricing.tax + pricing.shipping);
    }
  });
});

describe('priceLines under the shop’s rules', () => {
  const euroFinal: PricingRules = { currency: 'EUR', taxRateBasisPoints: 2000, shippingMinor: 450, pricesIncludeTax: true, cashOnDeliveryFeeMinor: 199 };
  const euroAdded: PricingRules = { ...euroFinal, pricesIncludeTax: false };
  const lines = [
    { priceMinor: 1738, quantity: 2 },
    { priceMinor: 999, quantity: 1 },
  ];

  it.each<[string, PricingRules, string | undefined, object]>([
    ['the specification', SPEC_PRICING, 'card', { subtotal: 4475, tax: 224, shipping: 599, fee: 0, total: 5298, taxIncluded: false }],
    ['20% added, by card', euroAdded, 'card', { subtotal: 4475, tax: 895, shipping: 450, fee: 0, total: 5820, taxIncluded: false }],
    ['20% added, cash on delivery', euroAdded, 'cash_on_delivery', { subtotal: 4475, tax: 895, shipping: 450, fee: 199, total: 6019, taxIncluded: false }],
    // 5124 × 20 / 120 = 854: the tax the final prices contain.
    ['20% included, cash on delivery', euroFinal, 'cash_on_delivery', { subtotal: 4475, tax: 854, shipping: 450, fee: 199, total: 5124, taxIncluded: true }],
    // 4925 × 20 / 120 = 820.83.
    ['20% included, by link', euroFinal, 'pay_by_link', { subtotal: 4475, tax: 821, shipping: 450, fee: 0, total: 4925, taxIncluded: true }],
  ])('prices %s', (_name, rules, method, expected) => {
    expect(priceLines(lines, rules, method)).toMatchObject(expected);
  });

  it('charges no shipping and no fee for an empty cart, in either mode', () => {
    expect(priceLines([], euroFinal, 'cash_on_delivery')).toMatchObject({ subtotal: 0, tax: 0, shipping: 0, fee: 0, total: 0 });
    expect(priceLines([], euroAdded, 'cash_on_delivery')).toMatchObject({ total: 0 });
  });

  it('keeps every total the sum of its parts, and the contained tax within it', () => {
    for (const amounts of [[1], [333, 333, 334], [8999, 1, 10], [150], [10_000_000]]) {
      const priced = amounts.map((priceMinor) => ({ priceMinor, quantity: 3 }));
      const added = priceLines(priced, euroAdded, 'cash_on_delivery');
      expect(added.total).toBe(added.subtotal + added.tax + added.shipping + added.fee);
      const included = priceLines(priced, euroFinal, 'cash_on_delivery');
      expect(included.total).toBe(included.subtotal + included.shipping + included.fee);
      expect(included.tax).toBeLessThan(included.total);
    }
  });

  it.each([
    [0, 2000, 0],
    [120, 2000, 20],
    [6, 2000, 1], // 1.0
    [3, 2000, 1], // 0.5 rounds up
    [2, 2000, 0], // 0.33
    [105, 500, 5],
    [10_000_000, 900, 825_688], // 825,688.07
  ])('the tax contained in %i at %i basis points is %i', (amount, rate, tax) => {
    expect(taxContainedIn(amount, rate)).toBe(tax);
  });
});

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
