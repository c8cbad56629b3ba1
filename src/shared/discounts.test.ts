import { describe, expect, it } from 'vitest';
import { applyDiscount, discountCodeInputSchema, normalizeDiscountCode, type DiscountTerms } from './discounts.js';
import { SPEC_PRICING, type PricingRules } from './money.js';
import { priceLines } from './pricing.js';

const terms = (overrides: Partial<DiscountTerms>): DiscountTerms => ({ code: 'CODE', kind: 'percent', value: 1000, minSubtotalMinor: null, eligibleProductIds: null, ...overrides });
const lines = [
  { productId: 'set', priceMinor: 3400, quantity: 2 },
  { productId: 'oil', priceMinor: 999, quantity: 1 },
];

describe('applyDiscount', () => {
  it.each([
    // name, terms, products taken off, each line's part
    ['10% of everything, rounded half-up', terms({}), 780, [680, 100]],
    ['12.5% of everything', terms({ value: 1250 }), 975, [850, 125]],
    ['15% of the set only', terms({ value: 1500, eligibleProductIds: ['set'] }), 1020, [1020, 0]],
    ['a fixed 5.00, shared in proportion', terms({ kind: 'amount', value: 500 }), 500, [436, 64]],
    ['a fixed amount above the products it applies to stops at their price', terms({ kind: 'amount', value: 5000, eligibleProductIds: ['oil'] }), 999, [0, 999]],
    ['100% takes everything off the products', terms({ value: 10_000 }), 7799, [6800, 999]],
    ['free shipping takes nothing off the products', terms({ kind: 'free_shipping', value: 0 }), 0, [0, 0]],
    ['a minimum the cart reaches exactly', terms({ minSubtotalMinor: 7799 }), 780, [680, 100]],
  ] as const)('%s', (_name, code, productsMinor, lineShares) => {
    const applied = applyDiscount(code, lines);
    expect(applied).toEqual({ code: 'CODE', productsMinor, lineShares, freeShipping: code.kind === 'free_shipping' });
  });

  it('refuses a cart below the minimum, and one with none of the products the code is limited to', () => {
    expect(applyDiscount(terms({ minSubtotalMinor: 7800 }), lines)).toEqual({ refusal: 'below_minimum' });
    expect(applyDiscount(terms({ eligibleProductIds: ['kit'] }), lines)).toEqual({ refusal: 'not_applicable' });
    expect(applyDiscount(terms({}), [])).toEqual({ refusal: 'not_applicable' });
  });
});

describe('a discount in the pricing rules', () => {
  const rules = (overrides: Partial<PricingRules>): PricingRules => ({ ...SPEC_PRICING, taxRateBasisPoints: 2000, shippingMinor: 599, ...overrides });
  const reduction = (code: DiscountTerms) => {
    const applied = applyDiscount(code, lines);
    if ('refusal' in applied) throw new Error(applied.refusal);
    return applied;
  };

  it.each([
    // VAT mode, code, subtotal, discount, shipping, tax, total
    ['VAT added', false, terms({}), 7799, 780, 599, 1404, 7799 - 780 + 1404 + 599],
    ['VAT included', true, terms({}), 7799, 780, 599, 1270, 7799 - 780 + 599],
    ['VAT added, a fixed amount', false, terms({ kind: 'amount', value: 500 }), 7799, 500, 599, 1460, 7799 - 500 + 1460 + 599],
    ['VAT included, a fixed amount', true, terms({ kind: 'amount', value: 500 }), 7799, 500, 599, 1316, 7799 - 500 + 599],
    ['VAT added, free shipping', false, terms({ kind: 'free_shipping', value: 0 }), 7799, 0, 0, 1560, 7799 + 1560],
    ['VAT included, free shipping', true, terms({ kind: 'free_shipping', value: 0 }), 7799, 0, 0, 1300, 7799],
    ['VAT included, everything off: shipping alone is paid', true, terms({ value: 10_000 }), 7799, 7799, 599, 100, 599],
  ] as const)('%s', (_name, pricesIncludeTax, code, subtotal, discount, shipping, tax, total) => {
    const pricing = priceLines(lines, rules({ pricesIncludeTax }), undefined, reduction(code));
    expect(pricing).toMatchObject({ subtotal, discount, shipping, tax, total, discountCode: 'CODE' });
  });

  it('compares the free-shipping threshold with the products after the discount', () => {
    const threshold = rules({ freeShippingFromMinor: 7500 });
    expect(priceLines(lines, threshold).shipping).toBe(0);
    // 77.99 − 7.80 is below 75.00: shipping is charged again.
    expect(priceLines(lines, threshold, undefined, reduction(terms({}))).shipping).toBe(599);
  });
});

describe('discount codes as typed and as the admin sets them', () => {
  it('are trimmed and compared in capitals', () => {
    expect(normalizeDiscountCode('  launch10 ')).toBe('LAUNCH10');
  });

  it.each([
    [{ code: 'ab', kind: 'percent', value: 1000 }, 'code', 'discounts.errors.codeFormat'],
    [{ code: 'две думи', kind: 'percent', value: 1000 }, 'code', 'discounts.errors.codeFormat'],
    [{ code: 'TOO-MUCH', kind: 'percent', value: 10_001 }, 'value', 'discounts.errors.percentRange'],
    [{ code: 'NOTHING', kind: 'amount', value: 0 }, 'value', 'discounts.errors.amountRequired'],
    [{ code: 'BACKWARDS', kind: 'free_shipping', value: 0, startsAt: '2026-12-02T00:00:00+02:00', endsAt: '2026-12-01T00:00:00+02:00' }, 'endsAt', 'discounts.errors.endBeforeStart'],
  ])('refuses %j', (input, field, message) => {
    const result = discountCodeInputSchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]).toMatchObject({ path: [field], message });
  });

  it('takes a code typed in lower case with spaces', () => {
    expect(discountCodeInputSchema.parse({ code: ' spring-25 ', kind: 'amount', value: 500 })).toMatchObject({ code: 'SPRING-25', minSubtotalMinor: null, productIds: [], categories: [] });
  });
});
