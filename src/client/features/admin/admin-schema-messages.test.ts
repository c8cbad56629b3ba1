import { describe, expect, it } from 'vitest';
import { orderSearchSchema } from '#shared/admin-order-schemas.js';
import { PRODUCT_DESCRIPTION_MAX_LENGTH, PRODUCT_NAME_MAX_LENGTH, productFieldsSchema } from '#shared/catalog-schemas.js';
import { PHOTO_TOO_MANY_PIXELS } from '#shared/photo-schemas.js';
import { MAX_STOCK } from '#shared/stock.js';
import bgCore from '#client/i18n/bg.json';
import bgPages from '#client/i18n/bg.pages.json';
import enCore from '#client/i18n/en.json';
import enPages from '#client/i18n/en.pages.json';
import { createTranslator } from '#client/i18n/i18n.js';
import { isPriceJump, photoFailuresText, priceFieldText, productMessageValues } from './product-messages.js';

// The dashboard shows a refused field's message as it is translated, whether the form's own check
// or the server's (which uses the same schema) refused it: each rule's message must be a text.
const translators = { en: createTranslator('en', { ...enCore, ...enPages }), bg: createTranslator('bg', { ...bgCore, ...bgPages }) };

const product = { nameEn: 'Pearl set', descriptionEn: 'Ten tips', price: '12.50', category: '', stock: '3' };

describe('the admin forms’ messages', () => {
  it.each<[string, unknown, string]>([
    ['no name', { ...product, nameEn: ' ' }, 'requiredFields'],
    ['no description', { ...product, descriptionEn: '' }, 'requiredFields'],
    ['a long name', { ...product, nameBg: 'a'.repeat(PRODUCT_NAME_MAX_LENGTH + 1) }, 'nameTooLong'],
    ['a long description', { ...product, descriptionBg: 'a'.repeat(PRODUCT_DESCRIPTION_MAX_LENGTH + 1) }, 'descriptionTooLong'],
    ['a NUL in a name', { ...product, nameEn: 'Pearl\u0000' }, 'invalidCharacters'],
    ['no price', { ...product, price: '0' }, 'requiredFields'],
    ['a third decimal', { ...product, price: '1.005' }, 'priceTooPrecise'],
    ['a price above the highest', { ...product, price: '100000.01' }, 'priceTooHigh'],
    ['an unknown category', { ...product, category: 'hats' }, 'unknownCategory'],
    ['a count above the highest', { ...product, stock: String(MAX_STOCK + 1) }, 'invalidStock'],
  ])('product form, %s: a text in both languages', (_case, input, rule) => {
    const message = productFieldsSchema.safeParse(input).error?.issues[0]?.message;
    expect(message).toBe(`admin.products.messages.${rule}`);
    for (const t of Object.values(translators)) expect(t(message!)).not.toBe(message);
  });

  it('takes the limits it names: the longest name and description, the highest count', () => {
    const longest = { ...product, nameEn: 'a'.repeat(PRODUCT_NAME_MAX_LENGTH), descriptionEn: 'a'.repeat(PRODUCT_DESCRIPTION_MAX_LENGTH), stock: String(MAX_STOCK) };
    expect(productFieldsSchema.safeParse(longest).success).toBe(true);
  });

  it('a photo of too many pixels, which the server refuses: a text in both languages', () => {
    for (const t of Object.values(translators)) expect(t(PHOTO_TOO_MANY_PIXELS)).toMatch(/50/);
  });

  it('order search: a text in both languages', () => {
    const message = orderSearchSchema.safeParse('a'.repeat(300)).error?.issues[0]?.message;
    expect(message).toBe('admin.orders.searchInvalid');
    for (const t of Object.values(translators)) expect(t(message!)).not.toBe(message);
  });
});

describe('the product options’ refusals', () => {
  // The form's own checks (product-model-form.ts, size-chart-form.ts) and the server's, which name the same keys.
  it.each([
    ...['tooManyOptionGroups', 'optionNameRequired', 'optionNameTooLong', 'optionValuesRequired', 'tooManyOptionValues', 'optionValueDuplicate', 'invalidChoiceId', 'duplicateChoiceId'],
    ...['invalidPriceDelta', 'priceDeltaTooLarge', 'invalidStockMode', 'combinationStockNeedsOptions', 'combinationsRequired', 'invalidCombination', 'duplicateCombination'],
    ...['tooManyQuestions', 'questionLabelRequired', 'questionLabelTooLong', 'invalidQuestionKind', 'questionChoicesRequired', 'tooManyQuestionChoices', 'invalidAnswerLength', 'invalidLeadTime', 'invalidModel'],
  ].map((rule) => `admin.products.messages.${rule}`))('%s: a text in both languages', (key) => {
    for (const t of Object.values(translators)) expect(t(key, productMessageValues('en', 'EUR'))).not.toMatch(/admin\.|\{\{/);
  });

  it.each(['invalidChart', 'sizesRequired', 'tooManySizes', 'invalidSize', 'duplicateSize', 'invalidWidth', 'tooManyPresets', 'presetIncomplete', 'presetOutsideChart'].map((rule) => `admin.sizeChart.messages.${rule}`))(
    '%s: a text in both languages',
    (key) => {
      for (const t of Object.values(translators)) expect(t(key)).not.toMatch(/admin\.|\{\{/);
    },
  );

  it('names the largest price difference in the shop’s currency', () => {
    expect(translators.bg('admin.products.messages.priceDeltaTooLarge', productMessageValues('bg', 'EUR')).replace(/\s/g, ' ')).toBe('Разликата в цената може да е най-много 1000,00 € нагоре или надолу.');
  });
});

describe('the product form’s price', () => {
  it.each([
    ['en', 'BGN', 'The price can be at most BGN 100,000.00.'],
    ['en', 'EUR', 'The price can be at most €100,000.00.'],
    ['bg', 'BGN', 'Цената може да е най-много BGN 100 000,00.'],
    ['bg', 'EUR', 'Цената може да е най-много 100 000,00 €.'],
  ] as const)('in %s, a %s shop names its own currency in the highest price', (language, currency, text) => {
    const message = productFieldsSchema.safeParse({ ...product, price: '100000.01' }).error?.issues[0]?.message;
    expect(translators[language](message!, productMessageValues(language, currency)).replace(/\s/g, ' ')).toBe(text);
  });

  it.each([
    ['24,90', 2490],
    ['24.90', 2490],
    [' 12,5 ', 1250],
  ])('reads %j typed with either decimal mark as %i', (price, minor) => {
    expect(productFieldsSchema.parse({ ...product, price }).price).toBe(minor);
  });

  it('refuses a third decimal, with a comma as with a point, instead of reading a thousands separator', () => {
    for (const price of ['24,905', '24.905']) expect(productFieldsSchema.safeParse({ ...product, price }).error?.issues[0]?.message).toBe('admin.products.messages.priceTooPrecise');
  });

  it.each([
    [2490, 2490, false],
    [2490, 24900, false],
    [2490, 24901, true],
    [2490, 249, false],
    [2490, 248, true],
    [0, 100, false],
  ])('from %i to %i asks first: %s', (oldMinor, newMinor, asks) => {
    expect(isPriceJump(oldMinor, newMinor)).toBe(asks);
  });

  it('shows a price with the decimal mark of the admin’s language', () => {
    expect(priceFieldText(2490, 'bg')).toBe('24,90');
    expect(priceFieldText(2490, 'en')).toBe('24.90');
  });
});

describe('the product form’s message for files not uploaded', () => {
  const failure = (number: number, fileName: string, refused: boolean) => ({ key: fileName, number, fileName, reason: fileName, refused });
  const reasonText = (reason: unknown) => `Why ${String(reason)}.`;

  it('names each file with its reason and says what the admin can do', () => {
    expect(photoFailuresText(translators.en, true, [failure(2, 'huge.png', true)], reasonText)).toBe(
      'The product is saved, but not with every photo. Photo 2 (huge.png) was refused: Why huge.png. Remove the refused photo to save the product without it.',
    );
    expect(photoFailuresText(translators.en, true, [failure(2, 'huge.png', true), failure(3, 'old.gif', true), failure(4, 'blue.png', false)], reasonText)).toBe(
      'The product is saved, but not with every photo. Photo 2 (huge.png) was refused: Why huge.png. Photo 3 (old.gif) was refused: Why old.gif. ' +
        'Photo 4 (blue.png) could not be uploaded: Why blue.png. Remove the refused photos to save the product without them. Press Save product to try again.',
    );
  });

  it('does not call a product saved that could not be created', () => {
    expect(photoFailuresText(translators.bg, false, [failure(1, 'cover.png', false)], reasonText)).toBe(
      'Снимка 1 (cover.png) не можа да бъде качена: Why cover.png. Натиснете „Запазете продукта“, за да опитате отново.',
    );
    expect(photoFailuresText(translators.bg, false, [failure(1, 'a.png', true), failure(2, 'b.png', true)], reasonText)).toBe(
      'Снимка 1 (a.png) беше отказана: Why a.png. Снимка 2 (b.png) беше отказана: Why b.png. Премахнете отказаните снимки, за да запазите продукта без тях.',
    );
  });
});
