import { describe, expect, it } from 'vitest';
import { SPEC_PRICING, type PricingRules } from '#shared/money.js';
import { emptyGroup, emptyValue } from './product-model-form.js';
import { pricesWithoutWholeCentNet } from './vat-price-warning.js';

const bulgarianVat: PricingRules = { ...SPEC_PRICING, currency: 'EUR', taxRateBasisPoints: 2000, pricesIncludeTax: true };

const shapes = () => {
  const group = emptyGroup();
  group.values = [
    { ...emptyValue(), nameEn: 'Almond', nameBg: 'Бадем', delta: '' },
    { ...emptyValue(), nameEn: 'Coffin', nameBg: 'Ковчег', delta: '2,50' },
    { ...emptyValue(), nameEn: 'Stiletto', nameBg: 'Стилето', delta: '3' },
  ];
  return [group];
};

describe('prices without a whole-cent net price', () => {
  it('names the product’s own price and each option value’s whose VAT-inclusive price no net price in whole cents gives', () => {
    // 9.99 has none at 20%; 9.99 + 2.50 = 12.49 has (10.41 + 2.08); 9.99 + 3 = 12.99 has none either.
    expect(pricesWithoutWholeCentNet('9,99', shapes(), bulgarianVat, 'bg')).toEqual([
      { option: null, priceMinor: 999 },
      { option: 'Стилето', priceMinor: 1299 },
    ]);
    expect(pricesWithoutWholeCentNet('10.00', shapes(), bulgarianVat, 'en')).toEqual([]);
  });

  it('says nothing while prices exclude VAT, the rate is nil, or the price is not a price yet', () => {
    expect(pricesWithoutWholeCentNet('9.99', shapes(), { ...bulgarianVat, pricesIncludeTax: false }, 'en')).toEqual([]);
    expect(pricesWithoutWholeCentNet('9.99', shapes(), { ...bulgarianVat, taxRateBasisPoints: 0 }, 'en')).toEqual([]);
    expect(pricesWithoutWholeCentNet('9,9x', shapes(), bulgarianVat, 'en')).toEqual([]);
  });
});
