import { describe, expect, it } from 'vitest';
import { DEFAULT_NAIL_SIZE_CHART } from '#shared/nail-sizes.js';
import { PLAIN_PRODUCT_MODEL, type OptionGroup, type ProductModel } from '#shared/product-options.js';
import { availability, problemsOf } from './choice-rules.js';

const group = (id: string, values: string[]): OptionGroup => ({ id, name: { en: id, bg: id }, values: values.map((value) => ({ id: value, name: { en: value, bg: value }, priceDeltaMinor: 0 })) });
const shape = group('shape', ['almond', 'coffin', 'oval']);
const length = group('length', ['short', 'long']);
const product: Omit<ProductModel, 'priceMinor'> = {
  ...PLAIN_PRODUCT_MODEL,
  optionGroups: [shape, length],
  stockMode: 'combination',
  // Oval is not sold; coffin/long is sold out; almond/short is made to order.
  combinations: [
    { key: 'almond/short', stock: null },
    { key: 'almond/long', stock: 2 },
    { key: 'coffin/short', stock: 1 },
    { key: 'coffin/long', stock: 0 },
  ],
  sized: true,
  questions: [{ id: 'wish', kind: 'text', label: { en: 'Wish', bg: 'Желание' }, required: true, priceDeltaMinor: 0, maxLength: 5 }],
};

describe('availability of an option value', () => {
  it('refuses a value no combination on sale has, and one whose combinations are all sold out', () => {
    expect(availability(product, {}, shape, 'oval')).toBe('unavailable');
    expect(availability(product, {}, shape, 'coffin')).toBeNull();
    expect(availability(product, { length: 'long' }, shape, 'coffin')).toBe('soldOut');
    expect(availability(product, { shape: 'coffin' }, length, 'long')).toBe('soldOut');
    expect(availability(product, { shape: 'almond' }, length, 'short')).toBeNull();
  });

  it('lets every value be chosen when one count serves all combinations', () => {
    expect(availability({ ...product, stockMode: 'product' }, {}, shape, 'oval')).toBeNull();
  });
});

describe('problems of the choices', () => {
  const choices = { options: {}, sizes: null, answers: {} };
  it('names every field at once: each group, the sizes and each question', () => {
    expect(problemsOf(product, choices, 0, DEFAULT_NAIL_SIZE_CHART).map((problem) => [problem.field, problem.messageKey])).toEqual([
      ['option:shape', 'choices.errors.optionRequired'],
      ['option:length', 'choices.errors.optionRequired'],
      ['answer:wish', 'choices.errors.answerRequired'],
      ['sizes', 'choices.errors.sizesRequired'],
    ]);
  });

  it('tells a partly chosen set of sizes, a combination not on sale and a long answer apart', () => {
    const problems = problemsOf(product, { options: { shape: 'oval', length: 'short' }, sizes: null, answers: { wish: 'pink ombré' } }, 4, DEFAULT_NAIL_SIZE_CHART);
    expect(problems.map((problem) => problem.messageKey)).toEqual(['choices.errors.combinationUnavailable', 'choices.errors.answerTooLong', 'choices.errors.sizesIncomplete']);
  });

  it('finds nothing wrong with a full, fitting choice', () => {
    const sizes = [3, 6, 5, 7, 9, 3, 6, 5, 7, 9];
    expect(problemsOf(product, { options: { shape: 'almond', length: 'long' }, sizes, answers: { wish: 'pink' } }, 10, DEFAULT_NAIL_SIZE_CHART)).toEqual([]);
  });
});
