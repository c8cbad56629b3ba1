import { describe, expect, it } from 'vitest';
import { DEFAULT_NAIL_SIZE_CHART } from './nail-sizes.js';
import {
  choiceKey,
  choicesText,
  combinationKey,
  isPlainProduct,
  NO_CHOICES,
  PLAIN_PRODUCT_MODEL,
  summarizeChoices,
  unitPriceMinor,
  validateChoices,
  type LineChoices,
  type ProductModel,
} from './product-options.js';

const sizes = [3, 6, 5, 7, 9, 3, 6, 5, 7, 9];

const set: ProductModel = {
  priceMinor: 3400,
  optionGroups: [
    {
      id: 'shape',
      name: { en: 'Shape', bg: 'Форма' },
      values: [
        { id: 'almond', name: { en: 'Almond', bg: 'Бадем' }, priceDeltaMinor: 0 },
        { id: 'stiletto', name: { en: 'Stiletto', bg: 'Стилето' }, priceDeltaMinor: 150 },
      ],
    },
    {
      id: 'length',
      name: { en: 'Length', bg: 'Дължина' },
      values: [
        { id: 'short', name: { en: 'Short', bg: 'Къси' }, priceDeltaMinor: -200 },
        { id: 'long', name: { en: 'Long', bg: 'Дълги' }, priceDeltaMinor: 300 },
      ],
    },
  ],
  stockMode: 'combination',
  combinations: [
    { key: 'almond/short', stock: 2 },
    { key: 'almond/long', stock: null },
    { key: 'stiletto/long', stock: 0 },
  ],
  sized: true,
  questions: [
    { id: 'wish', kind: 'text', label: { en: 'Design wish', bg: 'Желание' }, required: false, priceDeltaMinor: 0, maxLength: 10 },
    {
      id: 'wrap',
      kind: 'choice',
      label: { en: 'Gift wrapping', bg: 'Опаковка' },
      required: true,
      priceDeltaMinor: 100,
      choices: [
        { id: 'none', name: { en: 'None', bg: 'Без' }, priceDeltaMinor: -100 },
        { id: 'box', name: { en: 'Gift box', bg: 'Кутия' }, priceDeltaMinor: 500 },
      ],
    },
  ],
  leadTime: { kind: 'made_to_order', minDays: 5, maxDays: 10 },
};

const valid: LineChoices = { options: { shape: 'almond', length: 'short' }, sizes, answers: { wish: 'pink', wrap: 'box' } };

describe('combinationKey and choiceKey', () => {
  it('names a combination by its values in the groups’ order', () => {
    expect(combinationKey(set.optionGroups, { length: 'long', shape: 'stiletto' })).toBe('stiletto/long');
  });

  it('is the same for the same choices in any order, and empty for none', () => {
    const a = choiceKey({ options: { shape: 'almond', length: 'short' }, sizes, answers: { wish: 'pink', wrap: 'box' } });
    const b = choiceKey({ options: { length: 'short', shape: 'almond' }, sizes: [...sizes], answers: { wrap: 'box', wish: 'pink' } });
    expect(a).toBe(b);
    expect(a).not.toBe('');
    expect(choiceKey(NO_CHOICES)).toBe('');
    // An empty answer is no answer.
    expect(choiceKey({ ...valid, answers: { wish: '', wrap: 'box' } })).toBe(choiceKey({ ...valid, answers: { wrap: 'box' } }));
  });

  it('differs when any choice differs', () => {
    const base = choiceKey(valid);
    expect(choiceKey({ ...valid, options: { ...valid.options, length: 'long' } })).not.toBe(base);
    expect(choiceKey({ ...valid, sizes: [2, ...sizes.slice(1)] })).not.toBe(base);
    expect(choiceKey({ ...valid, answers: { ...valid.answers, wish: 'blue' } })).not.toBe(base);
  });
});

describe('unitPriceMinor', () => {
  it('adds every chosen value’s and answer’s difference', () => {
    // 34.00 - 2.00 (short) + 1.00 (wrapping asked) + 5.00 (gift box)
    expect(unitPriceMinor(set, valid)).toBe(3400 - 200 + 100 + 500);
    expect(unitPriceMinor(set, { ...valid, options: { shape: 'stiletto', length: 'long' } })).toBe(3400 + 150 + 300 + 100 + 500);
    // The question's add-on and its choice's cancel out.
    expect(unitPriceMinor(set, { ...valid, answers: { wrap: 'none' } })).toBe(3400 - 200);
  });

  it('is the product’s price for a product sold as it is, and never below nothing', () => {
    expect(unitPriceMinor({ ...PLAIN_PRODUCT_MODEL, priceMinor: 1250 }, NO_CHOICES)).toBe(1250);
    expect(unitPriceMinor({ ...set, priceMinor: 100 }, { ...valid, answers: {} })).toBe(0);
  });
});

describe('validateChoices', () => {
  const problem = (choices: LineChoices, product: ProductModel = set) => {
    const result = validateChoices(product, choices, DEFAULT_NAIL_SIZE_CHART);
    return 'problem' in result ? result.problem : undefined;
  };

  it('cleans valid choices: answers trimmed, unknown keys and empty answers dropped', () => {
    const result = validateChoices(set, { options: { ...valid.options, colour: 'red' }, sizes, answers: { wish: '  pink ', wrap: 'box', extra: 'x' } }, DEFAULT_NAIL_SIZE_CHART);
    expect(result).toEqual({ choices: { options: { shape: 'almond', length: 'short' }, sizes, answers: { wish: 'pink', wrap: 'box' } } });
    expect(validateChoices(set, { ...valid, answers: { wish: '   ', wrap: 'box' } }, DEFAULT_NAIL_SIZE_CHART)).toEqual({ choices: { ...valid, answers: { wrap: 'box' } } });
  });

  it('accepts a product sold as it is without choices, and drops sizes it does not take', () => {
    const plain = { ...PLAIN_PRODUCT_MODEL, priceMinor: 100 };
    expect(validateChoices(plain, NO_CHOICES, DEFAULT_NAIL_SIZE_CHART)).toEqual({ choices: NO_CHOICES });
    expect(validateChoices(plain, { ...NO_CHOICES, sizes }, DEFAULT_NAIL_SIZE_CHART)).toEqual({ choices: NO_CHOICES });
  });

  it.each([
    ['a missing value', { ...valid, options: { shape: 'almond' } }, 'option:length', 'choices.errors.optionRequired'],
    ['an unknown value', { ...valid, options: { shape: 'square', length: 'short' } }, 'option:shape', 'choices.errors.optionUnknown'],
    ['a combination not on sale', { ...valid, options: { shape: 'stiletto', length: 'short' } }, 'option:shape', 'choices.errors.combinationUnavailable'],
    ['no sizes', { ...valid, sizes: null }, 'sizes', 'choices.errors.sizesRequired'],
    ['nine sizes', { ...valid, sizes: sizes.slice(1) }, 'sizes', 'choices.errors.sizesIncomplete'],
    ['a size off the chart', { ...valid, sizes: [12, ...sizes.slice(1)] }, 'sizes', 'choices.errors.sizeOutsideChart'],
    ['a size that is no whole number', { ...valid, sizes: [2.5, ...sizes.slice(1)] }, 'sizes', 'choices.errors.sizeOutsideChart'],
    ['a required question unanswered', { ...valid, answers: { wish: 'pink' } }, 'answer:wrap', 'choices.errors.answerRequired'],
    ['an answer too long', { ...valid, answers: { wish: 'pink roses!', wrap: 'box' } }, 'answer:wish', 'choices.errors.answerTooLong'],
    ['an unknown choice', { ...valid, answers: { wrap: 'bag' } }, 'answer:wrap', 'choices.errors.answerUnknown'],
  ] as const)('refuses %s', (_case, choices, field, messageKey) => {
    expect(problem(choices as LineChoices)).toEqual({ field, messageKey });
  });

  it('counts an answer’s length in characters, not UTF-16 units', () => {
    expect(problem({ ...valid, answers: { wish: '💅💅💅💅💅💅💅💅💅💅', wrap: 'box' } })).toBeUndefined();
  });

  it('takes any combination of a product counting all together', () => {
    expect(problem({ ...valid, options: { shape: 'stiletto', length: 'short' } }, { ...set, stockMode: 'product' })).toBeUndefined();
  });
});

describe('summarizeChoices and choicesText', () => {
  it('keeps the names of what was chosen, in both languages, and writes them in one line', () => {
    const summary = summarizeChoices(set, valid);
    expect(summary).toEqual({
      options: [
        { group: { en: 'Shape', bg: 'Форма' }, value: { en: 'Almond', bg: 'Бадем' } },
        { group: { en: 'Length', bg: 'Дължина' }, value: { en: 'Short', bg: 'Къси' } },
      ],
      sizes,
      answers: [
        { question: { en: 'Design wish', bg: 'Желание' }, answer: { en: 'pink', bg: 'pink' } },
        { question: { en: 'Gift wrapping', bg: 'Опаковка' }, answer: { en: 'Gift box', bg: 'Кутия' } },
      ],
    });
    expect(choicesText(summary, 'en', 'Sizes')).toBe('Almond · Short · Sizes 3-6-5-7-9 / 3-6-5-7-9 · Design wish: pink · Gift wrapping: Gift box');
    expect(choicesText(summary, 'bg', 'Размери')).toBe('Бадем · Къси · Размери 3-6-5-7-9 / 3-6-5-7-9 · Желание: pink · Опаковка: Кутия');
  });

  it('tells a product sold as it is', () => {
    expect(isPlainProduct({ ...PLAIN_PRODUCT_MODEL })).toBe(true);
    expect(isPlainProduct(set)).toBe(false);
    expect(isPlainProduct({ ...PLAIN_PRODUCT_MODEL, sized: true })).toBe(false);
  });
});
