import { describe, expect, it } from 'vitest';
import { SPEC_PRICING, type PricingRules } from '#shared/money.js';
import { priceLines } from '#shared/pricing.js';
import { applyDiscount, type DiscountTerms } from '#shared/discounts.js';
import { shareOut } from '#shared/pricing.js';
import { documentAmounts, type PricedOrder } from './document-lines.js';

describe('shareOut', () => {
  it.each([
    [100, [1, 1, 1], [34, 33, 33]],
    [10, [50, 30, 20], [5, 3, 2]],
    [7, [1, 0, 1], [4, 0, 3]],
    [0, [5, 5], [0, 0]],
    [5, [0, 0], [0, 0]],
    [1, [333, 333, 334], [0, 0, 1]],
  ])('shares %i over %j as %j', (amount, weights, shares) => {
    expect(shareOut(amount, weights)).toEqual(shares);
    if (weights.some((weight) => weight > 0)) expect(shares.reduce((a, b) => a + b, 0)).toBe(amount);
  });
});

/** An order priced by the shop's own rules, as checkout prices it. */
function order(lines: { priceMinor: number; quantity: number; giftCard?: boolean }[], rules: Partial<PricingRules> = {}, method?: string, discount?: DiscountTerms): PricedOrder {
  const applied = discount ? applyDiscount(discount, lines.map((line, index) => ({ ...line, productId: `p${index}` }))) : null;
  if (applied && 'refusal' in applied) throw new Error(applied.refusal);
  const pricing = priceLines(lines, { ...SPEC_PRICING, ...rules }, method, applied);
  return {
    lines: lines.map((line, index) => ({ ...line, nameEn: `Set ${index + 1}`, nameBg: `Комплект ${index + 1}`, discountMinor: applied?.lineShares[index] ?? 0 })),
    shippingMinor: pricing.shipping,
    feeMinor: pricing.fee,
    taxMinor: pricing.tax,
    totalMinor: pricing.total,
    taxIncluded: pricing.taxIncluded,
    taxRateBasisPoints: pricing.taxRateBasisPoints,
  };
}

describe('documentAmounts', () => {
  it('with VAT included, shares the order’s VAT over every line, shipping and fee too, and each line’s net and VAT make what was paid for it', () => {
    const placed = order([{ priceMinor: 1999, quantity: 3 }, { priceMinor: 1250, quantity: 1 }], { currency: 'EUR', taxRateBasisPoints: 2000, pricesIncludeTax: true, shippingMinor: 306, cashOnDeliveryFeeMinor: 150 }, 'cash_on_delivery');
    const amounts = documentAmounts(placed, true);
    expect(amounts.lines.map((line) => [line.description.bg, line.quantity, line.valueMinor, line.vatRateBasisPoints])).toEqual([
      ['Комплект 1', 3, 5997, 2000],
      ['Комплект 2', 1, 1250, 2000],
      ['Доставка', 1, 306, 2000],
      ['Такса за наложен платеж', 1, 150, 2000],
    ]);
    expect(amounts.totalMinor).toBe(placed.totalMinor);
    expect(amounts.vatMinor).toBe(placed.taxMinor);
    expect(amounts.netMinor + amounts.vatMinor).toBe(placed.totalMinor);
    for (const line of amounts.lines) {
      expect(line.netMinor + line.vatMinor).toBe(line.valueMinor);
      // Each line's VAT is within a cent of the VAT its own amount contains.
      expect(Math.abs(line.vatMinor - (line.valueMinor * 2000) / 12_000)).toBeLessThan(1);
    }
    expect(amounts.lines[0]!.unitNetMinor).toBe(Math.round((amounts.lines[0]!.netMinor / 3) * 100) / 100);
  });

  it('with VAT added (the specification’s pricing), puts the VAT on the goods only and shipping at no VAT', () => {
    const placed = order([{ priceMinor: 1000, quantity: 1 }, { priceMinor: 333, quantity: 3 }]);
    const amounts = documentAmounts(placed, true);
    expect(amounts.lines.map((line) => [line.netMinor, line.vatMinor, line.valueMinor, line.vatRateBasisPoints])).toEqual([
      [1000, 50, 1050, 500],
      [999, 50, 1049, 500],
      [599, 0, 599, 0],
    ]);
    expect(amounts).toMatchObject({ netMinor: 2598, vatMinor: 100, totalMinor: placed.totalMinor });
    expect(amounts.lines[1]!.unitNetMinor).toBe(333);
  });

  it.each([
    ['VAT included', { pricesIncludeTax: true, taxRateBasisPoints: 2000 }],
    ['VAT added', { taxRateBasisPoints: 2000 }],
  ] as const)('with %s, a gift card sold carries no VAT: the goods and shipping carry all of it', (_, rules) => {
    const priced = order([{ priceMinor: 2500, quantity: 2 }, { priceMinor: 5000, quantity: 1, giftCard: true }], rules);
    const amounts = documentAmounts(priced, true);
    const card = amounts.lines[1]!;
    expect(card).toMatchObject({ vatRateBasisPoints: 0, vatMinor: 0, netMinor: 5000, valueMinor: 5000 });
    expect(amounts.vatMinor).toBe(priced.taxMinor);
    expect(amounts.totalMinor).toBe(priced.totalMinor);
  });

  it('shows no VAT for a seller not registered for it: each line is its whole value', () => {
    const placed = order([{ priceMinor: 1999, quantity: 2 }], { taxRateBasisPoints: 0, pricesIncludeTax: true });
    const amounts = documentAmounts(placed, false);
    expect(amounts).toMatchObject({ vatMinor: 0, netMinor: placed.totalMinor, totalMinor: placed.totalMinor });
    expect(amounts.lines.every((line) => line.vatMinor === 0 && line.vatRateBasisPoints === 0)).toBe(true);
  });

  it.each([
    ['BGN, 5% added', { taxRateBasisPoints: 500 }],
    ['BGN, 20% included', { taxRateBasisPoints: 2000, pricesIncludeTax: true }],
    ['EUR, 9% included with a fee', { currency: 'EUR' as const, taxRateBasisPoints: 900, pricesIncludeTax: true, cashOnDeliveryFeeMinor: 99 }],
    ['EUR, 20% added', { currency: 'EUR' as const, taxRateBasisPoints: 2000 }],
  ])('adds up to the order to the cent for many baskets (%s)', (_case, rules) => {
    for (let seed = 1; seed <= 200; seed += 1) {
      const lines = Array.from({ length: (seed % 4) + 1 }, (_, index) => ({ priceMinor: ((seed * 7919 + index * 104_729) % 20_000) + 1, quantity: ((seed + index) % 5) + 1 }));
      const placed = order(lines, rules, 'cash_on_delivery');
      const amounts = documentAmounts(placed, true);
      expect(amounts.totalMinor).toBe(placed.totalMinor);
      expect(amounts.vatMinor).toBe(placed.taxMinor);
      expect(amounts.lines.every((line) => line.netMinor + line.vatMinor === line.valueMinor && line.vatMinor >= 0)).toBe(true);
    }
  });

  it('refuses an order whose stored total its lines do not make', () => {
    expect(() => documentAmounts({ ...order([{ priceMinor: 1000, quantity: 1 }]), totalMinor: 1 }, true)).toThrow(/add up to/);
  });

  it.each([
    ['VAT added', { pricesIncludeTax: false, taxRateBasisPoints: 2000 }],
    ['VAT included', { pricesIncludeTax: true, taxRateBasisPoints: 2000 }],
  ] as const)('with a discount code and %s, each line is at what was paid for it and the lines add up to the order', (_mode, rules) => {
    const tenPercentOffFirst: DiscountTerms = { code: 'LAUNCH10', kind: 'percent', value: 1000, minSubtotalMinor: null, eligibleProductIds: ['p0'] };
    const placed = order([{ priceMinor: 1999, quantity: 3 }, { priceMinor: 1250, quantity: 1 }], { currency: 'EUR', shippingMinor: 500, ...rules }, undefined, tenPercentOffFirst);
    // 10% of 59.97, rounded half-up, off the first line only.
    expect(placed.lines.map((line) => line.discountMinor)).toEqual([600, 0]);
    const amounts = documentAmounts(placed, true);
    const [first, second] = amounts.lines;
    expect(first!.valueMinor).toBe(rules.pricesIncludeTax ? 5397 : 5397 + first!.vatMinor);
    expect(second!.valueMinor).toBe(rules.pricesIncludeTax ? 1250 : 1250 + second!.vatMinor);
    expect(amounts.totalMinor).toBe(placed.totalMinor);
    expect(amounts.vatMinor).toBe(placed.taxMinor);
    // The discount lowered the VAT base: 20% of (59.97 − 6.00 + 12.50) added, or contained in the total.
    expect(placed.taxMinor).toBe(rules.pricesIncludeTax ? 1191 : 1329);
  });
});
