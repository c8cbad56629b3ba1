import { describe, expect, it } from 'vitest';
import { CHOICE_ID_PATTERN, PLAIN_PRODUCT_MODEL } from '#shared/product-options.js';
import {
  assignIds,
  choiceIdFrom,
  combinationRows,
  emptyGroup,
  emptyQuestion,
  emptyValue,
  formField,
  formToModel,
  modelToForm,
  parsePriceDelta,
  priceDeltaText,
  sentCombinationRows,
  withSavedIds,
  type ModelForm,
  type ModelModel,
} from './product-model-form.js';

const name = (en: string, bg = '') => ({ en, bg });

const pressOnModel: ModelModel = {
  optionGroups: [
    {
      id: 'shape',
      name: name('Shape', 'Форма'),
      values: [
        { id: 'almond', name: name('Almond', 'Бадем'), priceDeltaMinor: 0 },
        { id: 'coffin', name: name('Coffin', 'Ковчег'), priceDeltaMinor: 250 },
      ],
    },
    {
      id: 'length',
      name: name('Length', 'Дължина'),
      values: [
        { id: 'short', name: name('Short', 'Къси'), priceDeltaMinor: -100 },
        { id: 'long', name: name('Long', 'Дълги'), priceDeltaMinor: 0 },
      ],
    },
  ],
  stockMode: 'combination',
  returnRule: 'personalised',
  combinations: [
    { key: 'almond/short', stock: 3 },
    { key: 'almond/long', stock: null },
    { key: 'coffin/long', stock: 0 },
  ],
  sized: true,
  questions: [
    { id: 'design-wish', label: name('Design wish', 'Желание за дизайна'), required: false, priceDeltaMinor: 0, kind: 'text', maxLength: 300 },
    {
      id: 'charms',
      label: name('Charms', 'Висулки'),
      required: true,
      priceDeltaMinor: 100,
      kind: 'choice',
      choices: [
        { id: 'none', name: name('None', 'Без'), priceDeltaMinor: 0 },
        { id: 'gold', name: name('Gold', 'Златни'), priceDeltaMinor: 150 },
      ],
    },
  ],
  leadTime: { kind: 'made_to_order', minDays: 5, maxDays: 10 },
};

describe('ids made from names', () => {
  it.each([
    [name('Extra long'), 'extra-long'],
    [name('', 'Бадем'), 'badem'],
    [name('', 'Много дълги'), 'mnogo-dalgi'],
    [name('Ombré  & pearls!'), 'ombre-pearls'],
    [name('  '), 'value'],
    [name('***'), 'value'],
    [name('a'.repeat(80)), 'a'.repeat(36)],
  ])('%j → %s', (text, id) => {
    expect(choiceIdFrom(text, new Set(), 'value')).toBe(id);
    expect(id).toMatch(CHOICE_ID_PATTERN);
  });

  it('numbers a name already taken', () => {
    expect(choiceIdFrom(name('Short'), new Set(['short', 'short-2']), 'value')).toBe('short-3');
  });

  it('keeps saved ids and gives new rows others, whatever their order', () => {
    const rows = [
      { key: 'a', savedId: null, nameEn: 'Short', nameBg: '' },
      { key: 'b', savedId: 'short', nameEn: 'Shorter now', nameBg: '' },
      { key: 'c', savedId: null, nameEn: 'Short', nameBg: '' },
    ];
    const ids = assignIds(rows, (row) => name(row.nameEn, row.nameBg), 'value');
    expect([...ids.values()]).toEqual(['short-2', 'short', 'short-3']);
  });
});

describe('price differences as typed', () => {
  it.each([
    ['', 0],
    ['2,50', 250],
    ['2.5', 250],
    ['+3', 300],
    ['-1', -100],
    ['\u22121,20', -120],
    [' - 0,99 ', -99],
    ['1000', 100_000],
    ['-1000', -100_000],
  ])('%j → %i', (text, minor) => {
    expect(parsePriceDelta(text)).toEqual({ minor });
  });

  it.each([
    ['abc', 'invalidPriceDelta'],
    ['-', 'invalidPriceDelta'],
    ['1,2,3', 'invalidPriceDelta'],
    ['2,505', 'priceTooPrecise'],
    ['1000,01', 'priceDeltaTooLarge'],
    ['-1000,01', 'priceDeltaTooLarge'],
  ])('refuses %j (%s)', (text, key) => {
    expect(parsePriceDelta(text)).toEqual({ messageKey: `admin.products.messages.${key}` });
  });

  it('shows a difference with the language’s decimal mark and its sign', () => {
    expect(priceDeltaText(-150, 'bg')).toBe('-1,50');
    expect(priceDeltaText(250, 'en')).toBe('2.50');
    expect(priceDeltaText(0, 'en')).toBe('');
    for (const minor of [-150, 250, 1, -100_000]) expect(parsePriceDelta(priceDeltaText(minor, 'bg'))).toEqual({ minor });
  });
});

describe('the combination table', () => {
  it('has a row for every combination, the first group changing slowest', () => {
    const form = modelToForm(pressOnModel, 'en');
    const rows = combinationRows(form.groups);
    expect(rows.map((row) => row.values.map((value) => value.nameEn).join(' / '))).toEqual(['Almond / Short', 'Almond / Long', 'Coffin / Short', 'Coffin / Long']);
  });

  it('has none without groups or with an empty group', () => {
    expect(combinationRows([])).toEqual([]);
    expect(combinationRows([{ ...emptyGroup(), values: [] }])).toEqual([]);
  });

  it('reads a missing combination as not sold and an empty count as made to order', () => {
    const form = modelToForm(pressOnModel, 'en');
    const rows = combinationRows(form.groups);
    expect(rows.map((row) => form.combinations[row.rowKey])).toEqual([
      { count: '3', notSold: false, seen: 3 },
      { count: '', notSold: false, seen: null },
      { count: '', notSold: true },
      { count: '0', notSold: false, seen: 0 },
    ]);
  });

  it('keeps a combination’s count when its groups change order', () => {
    const form = modelToForm(pressOnModel, 'en');
    const swapped: ModelForm = { ...form, groups: [form.groups[1]!, form.groups[0]!] };
    const built = formToModel(swapped);
    if (!('model' in built)) throw new Error(JSON.stringify(built));
    expect(built.model.combinations).toContainEqual({ key: 'short/almond', stock: 3, stockSeen: 3 });
  });
});

describe('the model, the form and back', () => {
  it('gives back the same model, ids included, each combination with the count it showed', () => {
    for (const language of ['en', 'bg']) {
      const built = formToModel(modelToForm(pressOnModel, language));
      expect(built).toHaveProperty('model', { ...pressOnModel, combinations: pressOnModel.combinations.map((combination) => ({ ...combination, stockSeen: combination.stock })) });
    }
  });

  it('a one-of-a-kind piece stays plain, and returnable', () => {
    const plain = { ...PLAIN_PRODUCT_MODEL, returnRule: 'standard' as const };
    const built = formToModel(modelToForm(undefined, 'en'));
    expect(built).toHaveProperty('model', plain);
    expect(formToModel(modelToForm(plain, 'bg'))).toHaveProperty('model', plain);
  });

  it('keeps what the right of withdrawal does with the product', () => {
    for (const returnRule of ['standard', 'personalised', 'hygiene_sealed'] as const) {
      expect(formToModel(modelToForm({ ...PLAIN_PRODUCT_MODEL, returnRule }, 'en'))).toHaveProperty('model.returnRule', returnRule);
    }
  });

  it('keeps a saved value’s id when it is renamed, and names a new one after itself', () => {
    const form = modelToForm(pressOnModel, 'en');
    const shape = form.groups[0]!;
    const renamed: ModelForm = {
      ...form,
      groups: [{ ...shape, values: [{ ...shape.values[0]!, nameEn: 'Almond, soft' }, ...shape.values.slice(1), { ...emptyValue(), nameEn: 'Stiletto', delta: '1,5' }] }, form.groups[1]!],
    };
    const built = formToModel(renamed);
    if (!('model' in built)) throw new Error(JSON.stringify(built));
    expect(built.model.optionGroups[0]!.values.map((value) => [value.id, value.priceDeltaMinor])).toEqual([
      ['almond', 0],
      ['coffin', 250],
      ['stiletto', 150],
    ]);
    // New combinations are on sale and made to order until the admin says otherwise.
    expect(built.model.combinations).toContainEqual({ key: 'stiletto/short', stock: null });

    // Once saved, renaming the new value keeps the id it was saved with, and its count as saved is the one seen.
    const saved = withSavedIds(renamed, built.ids, [...built.model.combinations, { key: 'stiletto/long', stock: 4 }]);
    const stiletto = saved.groups[0]!.values[2]!;
    const again = formToModel({ ...saved, groups: [{ ...saved.groups[0]!, values: [...saved.groups[0]!.values.slice(0, 2), { ...stiletto, nameEn: 'Stiletto, long' }] }, saved.groups[1]!] });
    if (!('model' in again)) throw new Error(JSON.stringify(again));
    expect(again.model.optionGroups[0]!.values[2]!.id).toBe('stiletto');
    expect(again.model.combinations).toContainEqual({ key: 'stiletto/long', stock: null, stockSeen: 4 });
  });

  it('one count for all sends no combinations', () => {
    const built = formToModel({ ...modelToForm(pressOnModel, 'en'), stockMode: 'product' });
    expect(built).toHaveProperty('model.combinations', []);
    expect(built).toHaveProperty('model.stockMode', 'product');
  });

  it.each<[string, (form: ModelForm) => ModelForm, string, string]>([
    ['a group without a name', (form) => ({ ...form, groups: [{ ...form.groups[0]!, nameEn: ' ', nameBg: '' }] }), 'optionGroups.0.name', 'optionNameRequired'],
    ['a group without values', (form) => ({ ...form, groups: [{ ...form.groups[0]!, values: [] }] }), 'optionGroups.0.values', 'optionValuesRequired'],
    ['four groups', (form) => ({ ...form, groups: [...form.groups, emptyGroup(), emptyGroup()] }), 'optionGroups', 'tooManyOptionGroups'],
    ['a value without a name', (form) => ({ ...form, groups: [form.groups[0]!, { ...form.groups[1]!, values: [form.groups[1]!.values[0]!, emptyValue()] }] }), 'optionGroups.1.values.1.name', 'optionNameRequired'],
    [
      'two values of one name',
      (form) => ({ ...form, groups: [{ ...form.groups[0]!, values: [...form.groups[0]!.values, { ...emptyValue(), nameEn: 'almond', nameBg: 'бадем' }] }] }),
      'optionGroups.0.values.2.name',
      'optionValueDuplicate',
    ],
    ['a difference of letters', (form) => ({ ...form, groups: [{ ...form.groups[0]!, values: [{ ...form.groups[0]!.values[0]!, delta: 'two' }] }] }), 'optionGroups.0.values.0.priceDeltaMinor', 'invalidPriceDelta'],
    ['a question without a label', (form) => ({ ...form, questions: [emptyQuestion()] }), 'questions.0.label', 'questionLabelRequired'],
    ['a choice question without choices', (form) => ({ ...form, questions: [{ ...emptyQuestion(), labelEn: 'Charms', kind: 'choice' }] }), 'questions.0.choices', 'questionChoicesRequired'],
    ['an answer longer than allowed', (form) => ({ ...form, questions: [{ ...emptyQuestion(), labelEn: 'Wish', maxLength: '501' }] }), 'questions.0.maxLength', 'invalidAnswerLength'],
    ['a lead time the wrong way round', (form) => ({ ...form, leadTime: { ...form.leadTime, minDays: '10', maxDays: '5' } }), 'leadTime.maxDays', 'invalidLeadTime'],
    ['a lead time of no days to make', (form) => ({ ...form, leadTime: { ...form.leadTime, minDays: '0' } }), 'leadTime.minDays', 'invalidLeadTime'],
    ['ready in too many days', (form) => ({ ...form, leadTime: { ...form.leadTime, kind: 'ready', days: '121' } }), 'leadTime.days', 'invalidLeadTime'],
  ])('refuses %s at its field', (_case, change, field, key) => {
    expect(formToModel(change(modelToForm(pressOnModel, 'en')))).toEqual({ problem: { field, messageKey: `admin.products.messages.${key}` } });
  });

  it('refuses a count that is not one, and every combination not sold, at the table', () => {
    const form = modelToForm(pressOnModel, 'en');
    const [first] = combinationRows(form.groups);
    expect(formToModel({ ...form, combinations: { ...form.combinations, [first!.rowKey]: { count: '-2', notSold: false } } })).toEqual({
      problem: { field: `combinations.${first!.rowKey}`, messageKey: 'admin.products.messages.invalidStock' },
    });
    const none = Object.fromEntries(combinationRows(form.groups).map((row) => [row.rowKey, { count: '', notSold: true }]));
    expect(formToModel({ ...form, combinations: none })).toEqual({ problem: { field: 'combinations', messageKey: 'admin.products.messages.combinationsRequired' } });
  });
});

describe('the server’s refused field, as the form names it', () => {
  it.each([
    ['optionGroups.0.values.1.name', 'optionGroups.0.values.1.name'],
    ['model.optionGroups[0].values[1].priceDeltaMinor', 'optionGroups.0.values.1.priceDeltaMinor'],
    ['leadTime', 'leadTime'],
    ['questions.1.label.bg', 'questions.1.label'],
    ['model.optionGroups.0.values.1.id', 'optionGroups.0.values.1.name'],
    ['combinations.9', 'combinations'],
  ])('%s → %s', (field, expected) => {
    expect(formField(field, [])).toBe(expected);
  });

  it('puts a refused combination beside its row', () => {
    const form = modelToForm(pressOnModel, 'en');
    const sent = sentCombinationRows(form);
    expect(sent).toHaveLength(3);
    expect(formField('combinations.2.stock', sent)).toBe(`combinations.${sent[2]}`);
  });
});
