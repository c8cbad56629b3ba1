import { describe, expect, it } from 'vitest';
import { SPEC_PRICING, type PricingRules } from './money.js';
import { giftCardLinesMinor, priceLines } from './pricing.js';
import { applyDiscount } from './discounts.js';
import {
  formatGiftCardCode,
  giftCardCodeFrom,
  giftCardIssueSchema,
  GIFT_CARD_CODE_PATTERN,
  normalizeGiftCardCode,
  payWithGiftCard,
} from './gift-cards.js';

const lines = [
  { productId: 'a', priceMinor: 2500, quantity: 2 },
  { productId: 'b', priceMinor: 1299, quantity: 1 },
];
const taxAdded: PricingRules = { ...SPEC_PRICING, taxRateBasisPoints: 2000 };
const taxIncluded: PricingRules = { ...taxAdded, pricesIncludeTax: true };

describe('paying with a gift card', () => {
  it.each([
    // total, balance → paid, due, balance after
    [7497, 10_000, 7497, 0, 2503],
    [7497, 7497, 7497, 0, 0],
    [7497, 5000, 5000, 2497, 0],
    [7497, 1, 1, 7496, 0],
    [7497, 0, 0, 7497, 0],
    [0, 5000, 0, 0, 5000],
  ])('a total of %i with %i on the card: the card pays %i, %i is due, %i stays on it', (total, balance, paid, due, after) => {
    expect(payWithGiftCard(total, balance)).toEqual({ paidMinor: paid, dueMinor: due, balanceAfterMinor: after });
  });

  it.each([
    ['tax added', taxAdded],
    ['tax included', taxIncluded],
  ])('is a means of payment, not a discount: with %s, the order is priced and taxed as without it', (_, rules) => {
    const pricing = priceLines(lines, rules, 'card', null);
    const card = payWithGiftCard(pricing.total, 3000);
    // The lines, the tax and the total are what they were; only what is left to pay is less.
    expect(pricing.discount).toBe(0);
    expect(card.paidMinor + card.dueMinor).toBe(pricing.total);
    expect(card.dueMinor).toBe(pricing.total - 3000);
  });

  it('with tax added, the tax stays on the whole total, whatever the card pays', () => {
    const pricing = priceLines(lines, taxAdded, 'card', null);
    expect(pricing.subtotal).toBe(6299);
    expect(pricing.tax).toBe(1260);
    expect(payWithGiftCard(pricing.total, pricing.total).dueMinor).toBe(0);
  });
});

describe('gift card codes', () => {
  it('are 16 letters and digits that cannot be confused, shown in groups of four', () => {
    const code = giftCardCodeFrom(new Uint8Array(16).map((_, index) => index * 17));
    expect(code).toMatch(GIFT_CARD_CODE_PATTERN);
    expect(code).not.toMatch(/[01IO]/);
    expect(formatGiftCardCode(code)).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
  });

  it('are read in any case, with spaces and dashes', () => {
    expect(normalizeGiftCardCode(' abcd-efgh jklm-npqr ')).toBe('ABCDEFGHJKLMNPQR');
  });
});

describe("the admin's form for a card issued by hand", () => {
  it('takes an amount, and an optional note', () => {
    expect(giftCardIssueSchema.parse({ amountMinor: 5000, note: ' For Maria ' })).toEqual({ amountMinor: 5000, note: 'For Maria' });
    expect(giftCardIssueSchema.parse({ amountMinor: 1 })).toEqual({ amountMinor: 1, note: '' });
  });

  it.each([
    [{ amountMinor: 0 }, 'giftCards.errors.amountInvalid'],
    [{ amountMinor: 12.5 }, 'giftCards.errors.amountInvalid'],
    [{ amountMinor: 10_000_001 }, 'giftCards.errors.amountInvalid'],
    [{}, 'giftCards.errors.amountRequired'],
    [{ amountMinor: 5000, note: 'x'.repeat(201) }, 'giftCards.errors.noteTooLong'],
  ])('refuses %j with %s', (input, key) => {
    const result = giftCardIssueSchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(key);
  });
});

describe('gift cards sold', () => {
  const withCard = [
    { productId: 'set', priceMinor: 2500, quantity: 2 },
    { productId: 'card', priceMinor: 5000, quantity: 1, giftCard: true },
  ];

  it.each([
    // rules, tax, shipping, total: the card's 50.00 is in the subtotal and the total, outside tax and shipping
    ['tax added', taxAdded, 1000, 599, 5000 + 1000 + 599 + 5000],
    ['tax included', taxIncluded, 933, 599, 5000 + 599 + 5000],
  ] as const)('with %s, carry no tax: only the goods and shipping do', (_, rules, tax, shipping, total) => {
    expect(priceLines(withCard, rules, 'card', null)).toMatchObject({ subtotal: 10_000, tax, shipping, total });
  });

  it('ship nothing and carry no tax when the cart holds only them', () => {
    for (const rules of [taxAdded, taxIncluded]) {
      expect(priceLines([withCard[1]!], rules, 'card', null)).toMatchObject({ subtotal: 5000, tax: 0, shipping: 0, total: 5000 });
    }
  });

  it('take no discount, and do not count towards its minimum', () => {
    const terms = { code: 'TEN', kind: 'percent' as const, value: 1000, minSubtotalMinor: null, eligibleProductIds: null };
    expect(applyDiscount(terms, withCard)).toEqual({ code: 'TEN', productsMinor: 500, lineShares: [500, 0], freeShipping: false });
    expect(applyDiscount({ ...terms, minSubtotalMinor: 6000 }, withCard)).toEqual({ refusal: 'below_minimum' });
    expect(applyDiscount(terms, [withCard[1]!])).toEqual({ refusal: 'not_applicable' });
  });

  it('are not paid for with another card: a card pays the rest of the order', () => {
    const pricing = priceLines(withCard, taxAdded, 'card', null);
    const payable = pricing.total - giftCardLinesMinor(withCard);
    expect(payWithGiftCard(payable, 100_000)).toEqual({ paidMinor: 6599, dueMinor: 0, balanceAfterMinor: 100_000 - 6599 });
  });
});
