import { describe, expect, it } from 'vitest';
import { SPEC_PRICING, type PricingRules } from './money.js';
import { freeShippingGap, priceLines, taxContainedIn, taxFor, taxRowOf } from './pricing.js';

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
    expect(priceLines([])).toEqual({ subtotal: 0, tax: 0, shipping: 0, fee: 0, total: 0, taxIncluded: false, taxRateBasisPoints: 500, discount: 0, discountCode: null });
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
  const euroFinal: PricingRules = { currency: 'EUR', taxRateBasisPoints: 2000, shippingMinor: 450, pricesIncludeTax: true, cashOnDeliveryFeeMinor: 199, freeShippingFromMinor: null };
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

describe('free shipping from a subtotal', () => {
  const rules = (pricesIncludeTax: boolean): PricingRules => ({ ...SPEC_PRICING, taxRateBasisPoints: 2000, pricesIncludeTax, freeShippingFromMinor: 6000 });

  it.each([
    // Below the threshold: shipping is charged and the cart says how much is missing.
    [false, [{ priceMinor: 2500, quantity: 2 }], { subtotal: 5000, tax: 1000, shipping: 599, total: 6599 }, 1000],
    [true, [{ priceMinor: 2500, quantity: 2 }], { subtotal: 5000, tax: 933, shipping: 599, total: 5599 }, 1000],
    // From the threshold on, shipping is free, with tax added and with tax included; the subtotal is the products' as shown.
    [false, [{ priceMinor: 3000, quantity: 2 }], { subtotal: 6000, tax: 1200, shipping: 0, total: 7200 }, 0],
    [true, [{ priceMinor: 3000, quantity: 2 }], { subtotal: 6000, tax: 1000, shipping: 0, total: 6000 }, 0],
    [true, [{ priceMinor: 5999, quantity: 1 }], { subtotal: 5999, tax: 1100, shipping: 599, total: 6598 }, 1],
  ])('with tax included %s, %j costs %j and needs %i more', (included, lines, expected, gap) => {
    expect(priceLines(lines, rules(included))).toMatchObject(expected);
    expect(freeShippingGap(expected.subtotal, rules(included))).toBe(gap);
  });

  it('is never free without a threshold, and an empty cart has no shipping to be free of', () => {
    expect(freeShippingGap(1_000_000, SPEC_PRICING)).toBeNull();
    expect(priceLines([], rules(false))).toMatchObject({ shipping: 0, total: 0 });
  });
});

describe('taxRowOf', () => {
  it('shows tax added, tax included, or no tax row for a shop that charges none', () => {
    expect(taxRowOf({ taxIncluded: false, taxRateBasisPoints: 500 })).toBe('added');
    expect(taxRowOf({ taxIncluded: true, taxRateBasisPoints: 2000 })).toBe('included');
    expect(taxRowOf({ taxIncluded: true, taxRateBasisPoints: 0 })).toBeNull();
    expect(taxRowOf({ taxIncluded: false, taxRateBasisPoints: 0 })).toBeNull();
  });
});
