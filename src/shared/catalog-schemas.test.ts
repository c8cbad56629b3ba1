import { describe, expect, it } from 'vitest';
import { nailSizeChartSchema, productModelSchema, savedNailSizesSchema } from './catalog-schemas.js';
import { DEFAULT_NAIL_SIZE_CHART } from './nail-sizes.js';
import { DEFAULT_LEAD_TIME, MAX_LEAD_DAYS, MAX_PRICE_DELTA_MINOR, PLAIN_PRODUCT_MODEL } from './product-options.js';

const value = (id: string, priceDeltaMinor = 0) => ({ id, name: { en: id, bg: '' }, priceDeltaMinor });
const shape = { id: 'shape', name: { en: 'Shape', bg: 'Форма' }, values: [value('almond'), value('coffin')] };
const length = { id: 'length', name: { en: '', bg: 'Дължина' }, values: [value('short'), value('long', 300)] };

const model = {
  optionGroups: [shape, length],
  stockMode: 'combination',
  combinations: [
    { key: 'almond/short', stock: 3 },
    { key: 'coffin/long', stock: null },
  ],
  sized: true,
  questions: [
    { id: 'wish', kind: 'text', label: { en: 'Design wish', bg: 'Желание за дизайна' }, required: false, priceDeltaMinor: 0, maxLength: 200 },
    { id: 'wrap', kind: 'choice', label: { en: 'Gift wrapping', bg: '' }, required: true, priceDeltaMinor: 0, choices: [value('box', 700)] },
  ],
  leadTime: { kind: 'made_to_order', minDays: 5, maxDays: 10 },
  returnRule: 'personalised',
};

/** The first refusal's field path and message key. */
function refusal(input: unknown) {
  const result = productModelSchema.safeParse(input);
  if (result.success) return undefined;
  const [issue] = result.error.issues;
  return { path: issue!.path.join('.'), message: issue!.message };
}

const messages = 'admin.products.messages';
const edited = (change: (copy: typeof model) => unknown) => change(structuredClone(model));

describe('productModelSchema', () => {
  it('takes a full model as the form sends it', () => {
    expect(productModelSchema.parse(model)).toEqual(model);
  });

  it('makes the missing parts those of a product sold as it is', () => {
    expect(productModelSchema.parse({})).toEqual({ ...PLAIN_PRODUCT_MODEL, returnRule: 'standard' });
    expect(productModelSchema.parse({}).leadTime).toEqual(DEFAULT_LEAD_TIME);
  });

  it('trims names, and forgets counts per combination of a product counting all together', () => {
    const parsed = productModelSchema.parse(edited((copy) => ({ ...copy, stockMode: 'product', optionGroups: [{ ...shape, name: { en: '  Shape ', bg: '' } }, length] })));
    expect(parsed.optionGroups[0]!.name).toEqual({ en: 'Shape', bg: '' });
    expect(parsed.combinations).toEqual([]);
  });

  it('keeps the count the form showed for a combination', () => {
    const parsed = productModelSchema.parse(edited((copy) => ({ ...copy, combinations: [{ key: 'almond/short', stock: 2, stockSeen: 3 }] })));
    expect(parsed.combinations).toEqual([{ key: 'almond/short', stock: 2, stockSeen: 3 }]);
  });

  it.each([
    ['no object', 'nails', '', 'invalidModel'],
    ['four option groups', { ...model, stockMode: 'product', optionGroups: ['a', 'b', 'c', 'd'].map((id) => ({ ...shape, id })) }, 'optionGroups', 'tooManyOptionGroups'],
    ['two groups with one id', { ...model, stockMode: 'product', optionGroups: [shape, { ...length, id: 'shape' }] }, 'optionGroups.1.id', 'duplicateChoiceId'],
    ['a group without values', { ...model, optionGroups: [{ ...shape, values: [] }] }, 'optionGroups.0.values', 'optionValuesRequired'],
    ['thirteen values', { ...model, optionGroups: [{ ...shape, values: Array.from({ length: 13 }, (_, i) => value(`v${i}`)) }] }, 'optionGroups.0.values', 'tooManyOptionValues'],
    ['two values with one id', { ...model, optionGroups: [{ ...shape, values: [value('almond'), value('almond')] }] }, 'optionGroups.0.values.1.id', 'duplicateChoiceId'],
    ['an id with capitals', { ...model, optionGroups: [{ ...shape, values: [value('Almond')] }] }, 'optionGroups.0.values.0.id', 'invalidChoiceId'],
    ['an id of 41 characters', { ...model, optionGroups: [{ ...shape, id: 'a'.repeat(41) }] }, 'optionGroups.0.id', 'invalidChoiceId'],
    ['a value named in neither language', { ...model, optionGroups: [{ ...shape, values: [{ ...value('almond'), name: { en: ' ', bg: '' } }] }] }, 'optionGroups.0.values.0.name.en', 'optionNameRequired'],
    ['a group name too long', { ...model, optionGroups: [{ ...shape, name: { en: 'x'.repeat(61), bg: '' } }] }, 'optionGroups.0.name.en', 'optionNameTooLong'],
    ['a name with NUL', { ...model, optionGroups: [{ ...shape, name: { en: 'Sha\u0000pe', bg: '' } }] }, 'optionGroups.0.name.en', 'invalidCharacters'],
    ['a price difference in decimals', { ...model, optionGroups: [{ ...shape, values: [value('almond', 1.5)] }] }, 'optionGroups.0.values.0.priceDeltaMinor', 'invalidPriceDelta'],
    ['a price difference as text', { ...model, optionGroups: [{ ...shape, values: [{ ...value('almond'), priceDeltaMinor: '3.00' }] }] }, 'optionGroups.0.values.0.priceDeltaMinor', 'invalidPriceDelta'],
    ['a price difference too large', { ...model, optionGroups: [{ ...shape, values: [value('almond', MAX_PRICE_DELTA_MINOR + 1)] }] }, 'optionGroups.0.values.0.priceDeltaMinor', 'invalidPriceDelta'],
    ['a price difference too low', { ...model, optionGroups: [{ ...shape, values: [value('almond', -MAX_PRICE_DELTA_MINOR - 1)] }] }, 'optionGroups.0.values.0.priceDeltaMinor', 'invalidPriceDelta'],
    ['an unknown stock mode', { ...model, stockMode: 'variant' }, 'stockMode', 'invalidStockMode'],
    ['counts per combination without options', { ...model, optionGroups: [], combinations: [] }, 'stockMode', 'combinationStockNeedsOptions'],
    ['a combination of unknown values', { ...model, combinations: [{ key: 'almond/huge', stock: 1 }] }, 'combinations.0.key', 'invalidCombination'],
    ['a combination missing a group', { ...model, combinations: [{ key: 'almond', stock: 1 }] }, 'combinations.0.key', 'invalidCombination'],
    ['a combination in the wrong order', { ...model, combinations: [{ key: 'short/almond', stock: 1 }] }, 'combinations.0.key', 'invalidCombination'],
    ['a combination twice', { ...model, combinations: [{ key: 'almond/short', stock: 1 }, { key: 'almond/short', stock: 2 }] }, 'combinations.1.key', 'duplicateCombination'],
    ['a negative count', { ...model, combinations: [{ key: 'almond/short', stock: -1 }] }, 'combinations.0.stock', 'invalidStock'],
    ['a count past the limit', { ...model, combinations: [{ key: 'almond/short', stock: 100_001 }] }, 'combinations.0.stock', 'invalidStock'],
    ['a count as text', { ...model, combinations: [{ key: 'almond/short', stock: '3' }] }, 'combinations.0.stock', 'invalidStock'],
    ['sized as text', { ...model, sized: 'yes' }, 'sized', 'invalidModel'],
    ['six questions', { ...model, questions: ['a', 'b', 'c', 'd', 'e', 'f'].map((id) => ({ ...model.questions[0], id })) }, 'questions', 'tooManyQuestions'],
    ['two questions with one id', { ...model, questions: [model.questions[0], { ...model.questions[1], id: 'wish' }] }, 'questions.1.id', 'duplicateChoiceId'],
    ['an unknown kind of question', { ...model, questions: [{ ...model.questions[0], kind: 'number' }] }, 'questions.0.kind', 'invalidQuestionKind'],
    ['a question without a label', { ...model, questions: [{ ...model.questions[0], label: { en: '', bg: '' } }] }, 'questions.0.label.en', 'questionLabelRequired'],
    ['a label too long', { ...model, questions: [{ ...model.questions[0], label: { en: '', bg: 'я'.repeat(201) } }] }, 'questions.0.label.bg', 'questionLabelTooLong'],
    ['an answer length of 0', { ...model, questions: [{ ...model.questions[0], maxLength: 0 }] }, 'questions.0.maxLength', 'invalidAnswerLength'],
    ['an answer length of 501', { ...model, questions: [{ ...model.questions[0], maxLength: 501 }] }, 'questions.0.maxLength', 'invalidAnswerLength'],
    ['a choice question without choices', { ...model, questions: [{ ...model.questions[1], choices: [] }] }, 'questions.0.choices', 'questionChoicesRequired'],
    ['thirteen choices', { ...model, questions: [{ ...model.questions[1], choices: Array.from({ length: 13 }, (_, i) => value(`c${i}`)) }] }, 'questions.0.choices', 'tooManyQuestionChoices'],
    ['two choices with one id', { ...model, questions: [{ ...model.questions[1], choices: [value('box'), value('box')] }] }, 'questions.0.choices.1.id', 'duplicateChoiceId'],
    ['a question’s add-on too large', { ...model, questions: [{ ...model.questions[0], priceDeltaMinor: MAX_PRICE_DELTA_MINOR + 1 }] }, 'questions.0.priceDeltaMinor', 'invalidPriceDelta'],
    ['an unknown lead time', { ...model, leadTime: { kind: 'soon', days: 2 } }, 'leadTime.kind', 'invalidLeadTime'],
    ['ready in negative days', { ...model, leadTime: { kind: 'ready', days: -1 } }, 'leadTime.days', 'invalidLeadTime'],
    ['ready in too many days', { ...model, leadTime: { kind: 'ready', days: MAX_LEAD_DAYS + 1 } }, 'leadTime.days', 'invalidLeadTime'],
    ['made to order in no days', { ...model, leadTime: { kind: 'made_to_order', minDays: 0, maxDays: 3 } }, 'leadTime.minDays', 'invalidLeadTime'],
    ['made to order in longer than the limit', { ...model, leadTime: { kind: 'made_to_order', minDays: 5, maxDays: MAX_LEAD_DAYS + 1 } }, 'leadTime.maxDays', 'invalidLeadTime'],
    ['made to order from 10 to 5 days', { ...model, leadTime: { kind: 'made_to_order', minDays: 10, maxDays: 5 } }, 'leadTime.maxDays', 'invalidLeadTime'],
  ])('refuses %s', (_case, input, path, key) => {
    expect(refusal(input)).toEqual({ path, message: `${messages}.${key}` });
  });

  it('takes the limits themselves', () => {
    expect(refusal({ ...model, leadTime: { kind: 'ready', days: 0 } })).toBeUndefined();
    expect(refusal({ ...model, leadTime: { kind: 'made_to_order', minDays: MAX_LEAD_DAYS, maxDays: MAX_LEAD_DAYS } })).toBeUndefined();
    expect(refusal({ ...model, optionGroups: [{ ...shape, values: [value('almond', -MAX_PRICE_DELTA_MINOR), value('coffin', MAX_PRICE_DELTA_MINOR)] }, length] })).toBeUndefined();
    expect(refusal({ ...model, questions: [{ ...model.questions[0], maxLength: 500 }] })).toBeUndefined();
  });
});

describe('nailSizeChartSchema', () => {
  const chartRefusal = (input: unknown) => {
    const result = nailSizeChartSchema.safeParse(input);
    return result.success ? undefined : { path: result.error.issues[0]!.path.join('.'), message: result.error.issues[0]!.message };
  };

  it('takes the default chart', () => {
    expect(nailSizeChartSchema.parse(DEFAULT_NAIL_SIZE_CHART)).toEqual(DEFAULT_NAIL_SIZE_CHART);
  });

  it.each([
    ['no sizes', { sizes: [], presets: [] }, 'sizes', 'sizesRequired'],
    ['a size twice', { sizes: [{ size: 1, widthTenthsMm: 170 }, { size: 1, widthTenthsMm: 160 }], presets: [] }, 'sizes.1.size', 'duplicateSize'],
    ['a size of 31', { sizes: [{ size: 31, widthTenthsMm: 170 }], presets: [] }, 'sizes.0.size', 'invalidSize'],
    ['a negative size', { sizes: [{ size: -1, widthTenthsMm: 170 }], presets: [] }, 'sizes.0.size', 'invalidSize'],
    ['a width of 0', { sizes: [{ size: 1, widthTenthsMm: 0 }], presets: [] }, 'sizes.0.widthTenthsMm', 'invalidWidth'],
    ['a width over 30 mm', { sizes: [{ size: 1, widthTenthsMm: 301 }], presets: [] }, 'sizes.0.widthTenthsMm', 'invalidWidth'],
    ['21 sizes', { sizes: Array.from({ length: 21 }, (_, size) => ({ size, widthTenthsMm: 200 - size })), presets: [] }, 'sizes', 'tooManySizes'],
    ['a preset of nine sizes', { ...DEFAULT_NAIL_SIZE_CHART, presets: [{ ...DEFAULT_NAIL_SIZE_CHART.presets[0]!, sizes: [1, 2, 3, 4, 5, 1, 2, 3, 4] }] }, 'presets.0.sizes', 'presetIncomplete'],
    ['a preset off the chart', { ...DEFAULT_NAIL_SIZE_CHART, presets: [{ ...DEFAULT_NAIL_SIZE_CHART.presets[0]!, sizes: [1, 2, 3, 4, 12, 1, 2, 3, 4, 5] }] }, 'presets.0.sizes.4', 'presetOutsideChart'],
    ['a preset without a name', { ...DEFAULT_NAIL_SIZE_CHART, presets: [{ ...DEFAULT_NAIL_SIZE_CHART.presets[0]!, name: { en: '', bg: '' } }] }, 'presets.0.name.en', 'optionNameRequired'],
    ['nine presets', { ...DEFAULT_NAIL_SIZE_CHART, presets: Array.from({ length: 9 }, (_, i) => ({ ...DEFAULT_NAIL_SIZE_CHART.presets[0]!, id: `p${i}` })) }, 'presets', 'tooManyPresets'],
    ['two presets with one id', { ...DEFAULT_NAIL_SIZE_CHART, presets: [DEFAULT_NAIL_SIZE_CHART.presets[0], DEFAULT_NAIL_SIZE_CHART.presets[0]] }, 'presets.1.id', 'duplicateChoiceId'],
  ])('refuses %s', (_case, input, path, key) => {
    const result = chartRefusal(input);
    expect(result?.path).toBe(path);
    expect(result?.message).toMatch(new RegExp(`\\.${key}$`));
  });
});

describe('savedNailSizesSchema', () => {
  it('takes ten sizes or null, and refuses anything else with the sizes field', () => {
    expect(savedNailSizesSchema.parse({ sizes: null })).toEqual({ sizes: null });
    expect(savedNailSizesSchema.parse({ sizes: [1, 2, 3, 4, 5, 1, 2, 3, 4, 5] }).sizes).toHaveLength(10);
    const refused = savedNailSizesSchema.safeParse({ sizes: 'M' });
    expect(refused.error?.issues[0]).toMatchObject({ path: ['sizes'], message: 'choices.errors.sizesIncomplete' });
  });
});
