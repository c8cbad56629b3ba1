import type { LocalizedText } from '#shared/catalog.js';
import { parsePriceToMinor } from '#shared/money.js';
import {
  CHOICE_ID_PATTERN,
  DEFAULT_ANSWER_LENGTH,
  DEFAULT_LEAD_TIME,
  MAX_ANSWER_LENGTH,
  MAX_LEAD_DAYS,
  MAX_OPTION_GROUPS,
  MAX_OPTION_VALUES,
  MAX_PRICE_DELTA_MINOR,
  MAX_PRODUCT_QUESTIONS,
  MAX_QUESTION_CHOICES,
  type CombinationStock,
  type LeadTime,
  type OptionGroup,
  type OptionValue,
  type ProductModel,
  type ProductQuestion,
  type StockMode,
} from '#shared/product-options.js';
import { slugify } from '#shared/slug.js';
import { MAX_STOCK } from '#shared/stock.js';
import type { ReturnRule } from '#shared/withdrawals.js';

/**
 * The product form's options, stock per combination, sizing, questions and lead time as the admin
 * types them (text fields), and the ProductModel they make. Each row has a `key` of its own for React
 * and for the combination table, so that renaming a value, whose id comes from its name until it is
 * saved, keeps its counts; an id once saved (`savedId`) never changes, since carts and orders name it.
 */

const messages = 'admin.products.messages';

/** A product's model as the form edits it, with what the right of withdrawal does with it. */
export type ModelModel = Omit<ProductModel, 'priceMinor'> & { returnRule: ReturnRule };

export interface ValueForm {
  key: string;
  savedId: string | null;
  nameEn: string;
  nameBg: string;
  /** The price difference as typed: "2,50", "-1", or empty for none. */
  delta: string;
}

export interface GroupForm {
  key: string;
  savedId: string | null;
  nameEn: string;
  nameBg: string;
  values: ValueForm[];
}

export interface CombinationForm {
  /** Empty: made to order. */
  count: string;
  notSold: boolean;
  /**
   * The count the form showed when opened (undefined for a combination not saved yet): the server
   * leaves a count the admin did not change to the orders taken since, and refuses one the admin did
   * change if orders changed it meanwhile (stock_changed).
   */
  seen?: number | null;
}

export interface QuestionForm {
  key: string;
  savedId: string | null;
  labelEn: string;
  labelBg: string;
  kind: 'text' | 'choice';
  required: boolean;
  maxLength: string;
  delta: string;
  choices: ValueForm[];
}

export interface LeadTimeForm {
  kind: LeadTime['kind'];
  days: string;
  minDays: string;
  maxDays: string;
}

export interface ModelForm {
  groups: GroupForm[];
  stockMode: StockMode;
  /** By combinationRowKey; a combination missing here is sold and made to order. */
  combinations: Record<string, CombinationForm>;
  sized: boolean;
  questions: QuestionForm[];
  leadTime: LeadTimeForm;
  returnRule: ReturnRule;
}

/** A refused field, by its place in the model ("optionGroups.0.values.2.priceDeltaMinor"), and its message key. */
export interface ModelProblem {
  field: string;
  messageKey: string;
}

let lastKey = 0;
/** A key no other row of this page has. */
export const newRowKey = (prefix: string) => `${prefix}${++lastKey}`;

export const emptyValue = (): ValueForm => ({ key: newRowKey('v'), savedId: null, nameEn: '', nameBg: '', delta: '' });
export const emptyGroup = (): GroupForm => ({ key: newRowKey('g'), savedId: null, nameEn: '', nameBg: '', values: [emptyValue()] });
export const emptyQuestion = (): QuestionForm => ({
  key: newRowKey('q'),
  savedId: null,
  labelEn: '',
  labelBg: '',
  kind: 'text',
  required: false,
  maxLength: String(DEFAULT_ANSWER_LENGTH),
  delta: '',
  choices: [],
});

export { MAX_OPTION_GROUPS, MAX_OPTION_VALUES, MAX_PRODUCT_QUESTIONS, MAX_QUESTION_CHOICES };

const MAX_ID_LENGTH = 40;

/**
 * An id made from a name (English first, else the Bulgarian one in Latin letters), different from
 * every id in `taken`: "Extra long" → "extra-long", a second "Short" → "short-2".
 */
export function choiceIdFrom(name: LocalizedText, taken: ReadonlySet<string>, fallback: string): string {
  const source = name.en.trim() || name.bg.trim();
  const slug = source ? slugify(source) : '';
  // slugify names what it cannot spell "product"; an id says what it is instead.
  const base = (slug && slug !== 'product' ? slug : fallback).slice(0, MAX_ID_LENGTH - 4).replace(/-+$/, '') || fallback;
  if (!taken.has(base)) return base;
  for (let number = 2; ; number += 1) {
    const candidate = `${base}-${number}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/**
 * The ids of rows: a saved id stays; a new row's comes from its name, unlike every other id in its
 * list (saved ids are reserved first, so that a new row never takes one an old row has).
 */
export function assignIds<Row extends { key: string; savedId: string | null }>(rows: readonly Row[], nameOf: (row: Row) => LocalizedText, fallback: string): Map<string, string> {
  const taken = new Set(rows.flatMap((row) => (row.savedId ? [row.savedId] : [])));
  const ids = new Map<string, string>();
  for (const row of rows) {
    const id = row.savedId ?? choiceIdFrom(nameOf(row), taken, fallback);
    taken.add(id);
    ids.set(row.key, id);
  }
  return ids;
}

/** One combination of the groups' values, a value of each group in group order. */
export interface CombinationRow {
  /** The values' row keys, sorted: the same combination whatever order the groups are in. */
  rowKey: string;
  values: ValueForm[];
}

const combinationRowKey = (values: readonly Pick<ValueForm, 'key'>[]) =>
  values
    .map((value) => value.key)
    .sort()
    .join('|');

/** Every combination of the groups' values, the first group's changing slowest; none without groups. */
export function combinationRows(groups: readonly GroupForm[]): CombinationRow[] {
  if (groups.length === 0 || groups.some((group) => group.values.length === 0)) return [];
  let combinations: ValueForm[][] = [[]];
  for (const group of groups) combinations = combinations.flatMap((prefix) => group.values.map((value) => [...prefix, value]));
  return combinations.map((values) => ({ rowKey: combinationRowKey(values), values }));
}

/**
 * A price difference as typed, in minor units: "2,50" → 250, "-1" → -100, "" → 0. Refused: what is
 * not a number (invalidPriceDelta), a third decimal (priceTooPrecise), more than 1,000 either way
 * (priceDeltaTooLarge). Either decimal mark, as the price field takes.
 */
export function parsePriceDelta(text: string): { minor: number } | { messageKey: string } {
  const trimmed = text.trim().replace(/\s+/g, '');
  if (trimmed === '') return { minor: 0 };
  // A minus as typed or as a word processor writes it (U+2212).
  const match = /^([+\-\u2212]?)(\d+(?:[.,]\d+)?)$/.exec(trimmed);
  if (!match) return { messageKey: `${messages}.invalidPriceDelta` };
  const magnitude = parsePriceToMinor(match[2]);
  if (magnitude === undefined) return { messageKey: `${messages}.priceTooPrecise` };
  if (magnitude > MAX_PRICE_DELTA_MINOR) return { messageKey: `${messages}.priceDeltaTooLarge` };
  return { minor: match[1] === '-' || match[1] === '\u2212' ? -magnitude : magnitude };
}

/** A price difference as the field shows it: empty for none, "2,50" or "-1,00" in Bulgarian. */
export function priceDeltaText(minor: number, language: string): string {
  if (minor === 0) return '';
  const text = `${minor < 0 ? '-' : ''}${(Math.abs(minor) / 100).toFixed(2)}`;
  return language === 'bg' ? text.replace('.', ',') : text;
}

const countText = (count: number | null) => (count === null ? '' : String(count));

/** The form's state for a product's model (a new product's is empty: plain, ready within the usual days). */
export function modelToForm(model: ModelModel | undefined, language: string): ModelForm {
  const valueForm = (value: OptionValue, prefix: string): ValueForm => ({
    key: newRowKey(prefix),
    savedId: value.id,
    nameEn: value.name.en,
    nameBg: value.name.bg,
    delta: priceDeltaText(value.priceDeltaMinor, language),
  });
  const groups = (model?.optionGroups ?? []).map((group) => ({
    key: newRowKey('g'),
    savedId: group.id,
    nameEn: group.name.en,
    nameBg: group.name.bg,
    values: group.values.map((value) => valueForm(value, 'v')),
  }));
  const combinations: Record<string, CombinationForm> = {};
  if (model?.stockMode === 'combination') {
    const stockByKey = new Map(model.combinations.map((combination) => [combination.key, combination.stock]));
    const ids = new Map(groups.flatMap((group) => group.values.map((value) => [value.key, value.savedId!] as const)));
    for (const row of combinationRows(groups)) {
      const key = row.values.map((value) => ids.get(value.key)).join('/');
      combinations[row.rowKey] = stockByKey.has(key) ? { count: countText(stockByKey.get(key)!), notSold: false, seen: stockByKey.get(key)! } : { count: '', notSold: true };
    }
  }
  const leadTime = model?.leadTime ?? DEFAULT_LEAD_TIME;
  // The other kind's fields start filled, so that choosing it leaves a valid time to adjust.
  return {
    groups,
    stockMode: model?.stockMode === 'combination' && groups.length > 0 ? 'combination' : 'product',
    combinations,
    sized: model?.sized ?? false,
    returnRule: model?.returnRule ?? 'standard',
    questions: (model?.questions ?? []).map((question) => ({
      key: newRowKey('q'),
      savedId: question.id,
      labelEn: question.label.en,
      labelBg: question.label.bg,
      kind: question.kind,
      required: question.required,
      maxLength: String(question.kind === 'text' ? question.maxLength : DEFAULT_ANSWER_LENGTH),
      delta: priceDeltaText(question.priceDeltaMinor, language),
      choices: question.kind === 'choice' ? question.choices.map((choice) => valueForm(choice, 'c')) : [],
    })),
    leadTime:
      leadTime.kind === 'ready'
        ? { kind: 'ready', days: String(leadTime.days), minDays: '5', maxDays: '10' }
        : { kind: 'made_to_order', days: '2', minDays: String(leadTime.minDays), maxDays: String(leadTime.maxDays) },
  };
}

const nameOf = (row: { nameEn: string; nameBg: string }): LocalizedText => ({ en: row.nameEn.trim(), bg: row.nameBg.trim() });

/** Whole working days within the limit, or undefined. */
const daysOf = (text: string, min: number): number | undefined => {
  const trimmed = text.trim();
  return /^\d{1,3}$/.test(trimmed) && Number(trimmed) >= min && Number(trimmed) <= MAX_LEAD_DAYS ? Number(trimmed) : undefined;
};

/** A combination as the form sends it: its count, and the count it showed (see CombinationForm.seen). */
type CombinationInput = CombinationStock & { stockSeen?: number | null };

export interface BuiltModel {
  model: Omit<ModelModel, 'combinations'> & { combinations: CombinationInput[] };
  /** The id each row was given, by row key, so that the form keeps them once saved. */
  ids: Map<string, string>;
}

/** What the form will send: the model, or the first field it refuses, as the server would. */
export function formToModel(form: ModelForm): BuiltModel | { problem: ModelProblem } {
  const problem = (field: string, key: string) => ({ problem: { field, messageKey: `${messages}.${key}` } });
  if (form.groups.length > MAX_OPTION_GROUPS) return problem('optionGroups', 'tooManyOptionGroups');
  const ids = assignIds(form.groups, nameOf, 'option');
  const optionGroups: OptionGroup[] = [];
  for (const [groupIndex, group] of form.groups.entries()) {
    const field = `optionGroups.${groupIndex}`;
    if (!group.nameEn.trim() && !group.nameBg.trim()) return problem(`${field}.name`, 'optionNameRequired');
    if (group.values.length === 0) return problem(`${field}.values`, 'optionValuesRequired');
    if (group.values.length > MAX_OPTION_VALUES) return problem(`${field}.values`, 'tooManyOptionValues');
    const valueIds = assignIds(group.values, nameOf, 'value');
    const values: OptionValue[] = [];
    const names = new Set<string>();
    for (const [valueIndex, value] of group.values.entries()) {
      const valueField = `${field}.values.${valueIndex}`;
      const name = nameOf(value);
      if (!name.en && !name.bg) return problem(`${valueField}.name`, 'optionNameRequired');
      const sameName = `${name.en.toLocaleLowerCase()}|${name.bg.toLocaleLowerCase()}`;
      if (names.has(sameName)) return problem(`${valueField}.name`, 'optionValueDuplicate');
      names.add(sameName);
      const delta = parsePriceDelta(value.delta);
      if ('messageKey' in delta) return { problem: { field: `${valueField}.priceDeltaMinor`, messageKey: delta.messageKey } };
      values.push({ id: valueIds.get(value.key)!, name, priceDeltaMinor: delta.minor });
      ids.set(value.key, valueIds.get(value.key)!);
    }
    optionGroups.push({ id: ids.get(group.key)!, name: nameOf(group), values });
  }

  const stockMode: StockMode = optionGroups.length > 0 ? form.stockMode : 'product';
  const combinations: CombinationInput[] = [];
  if (stockMode === 'combination') {
    for (const row of combinationRows(form.groups)) {
      const entry = form.combinations[row.rowKey] ?? { count: '', notSold: false };
      if (entry.notSold) continue;
      const key = row.values.map((value) => ids.get(value.key)).join('/');
      const count = entry.count.trim();
      if (count !== '' && !(/^\d{1,9}$/.test(count) && Number(count) <= MAX_STOCK)) return problem(`combinations.${row.rowKey}`, 'invalidStock');
      combinations.push({ key, stock: count === '' ? null : Number(count), ...(entry.seen !== undefined && { stockSeen: entry.seen }) });
    }
    if (combinations.length === 0) return problem('combinations', 'combinationsRequired');
  }

  if (form.questions.length > MAX_PRODUCT_QUESTIONS) return problem('questions', 'tooManyQuestions');
  const questionIds = assignIds(form.questions, (question) => ({ en: question.labelEn.trim(), bg: question.labelBg.trim() }), 'question');
  const questions: ProductQuestion[] = [];
  for (const [index, question] of form.questions.entries()) {
    const field = `questions.${index}`;
    const label = { en: question.labelEn.trim(), bg: question.labelBg.trim() };
    if (!label.en && !label.bg) return problem(`${field}.label`, 'questionLabelRequired');
    const delta = parsePriceDelta(question.delta);
    if ('messageKey' in delta) return { problem: { field: `${field}.priceDeltaMinor`, messageKey: delta.messageKey } };
    const id = questionIds.get(question.key)!;
    ids.set(question.key, id);
    const base = { id, label, required: question.required, priceDeltaMinor: delta.minor };
    if (question.kind === 'text') {
      const maxLength = question.maxLength.trim();
      if (!/^\d{1,4}$/.test(maxLength) || Number(maxLength) < 1 || Number(maxLength) > MAX_ANSWER_LENGTH) return problem(`${field}.maxLength`, 'invalidAnswerLength');
      questions.push({ ...base, kind: 'text', maxLength: Number(maxLength) });
      continue;
    }
    if (question.choices.length === 0) return problem(`${field}.choices`, 'questionChoicesRequired');
    if (question.choices.length > MAX_QUESTION_CHOICES) return problem(`${field}.choices`, 'tooManyQuestionChoices');
    const choiceIds = assignIds(question.choices, nameOf, 'choice');
    const choices: OptionValue[] = [];
    for (const [choiceIndex, choice] of question.choices.entries()) {
      const choiceField = `${field}.choices.${choiceIndex}`;
      const name = nameOf(choice);
      if (!name.en && !name.bg) return problem(`${choiceField}.name`, 'optionNameRequired');
      const choiceDelta = parsePriceDelta(choice.delta);
      if ('messageKey' in choiceDelta) return { problem: { field: `${choiceField}.priceDeltaMinor`, messageKey: choiceDelta.messageKey } };
      choices.push({ id: choiceIds.get(choice.key)!, name, priceDeltaMinor: choiceDelta.minor });
      ids.set(choice.key, choiceIds.get(choice.key)!);
    }
    questions.push({ ...base, kind: 'choice', choices });
  }

  let leadTime: LeadTime;
  if (form.leadTime.kind === 'ready') {
    const days = daysOf(form.leadTime.days, 0);
    if (days === undefined) return problem('leadTime.days', 'invalidLeadTime');
    leadTime = { kind: 'ready', days };
  } else {
    const minDays = daysOf(form.leadTime.minDays, 1);
    if (minDays === undefined) return problem('leadTime.minDays', 'invalidLeadTime');
    const maxDays = daysOf(form.leadTime.maxDays, 1);
    if (maxDays === undefined || maxDays < minDays) return problem('leadTime.maxDays', 'invalidLeadTime');
    leadTime = { kind: 'made_to_order', minDays, maxDays };
  }

  for (const id of ids.values()) if (!CHOICE_ID_PATTERN.test(id)) throw new Error(`An id the server would refuse: ${id}`);
  return { model: { optionGroups, stockMode, combinations, sized: form.sized, questions, leadTime, returnRule: form.returnRule }, ids };
}

/**
 * The form once saved: every row keeps the id it was sent with, so that renaming it later keeps its
 * id, and each combination's count as saved (`saved`, the server's answer) is the one it has seen.
 */
export function withSavedIds(form: ModelForm, ids: ReadonlyMap<string, string>, saved: readonly CombinationStock[] = []): ModelForm {
  const keep = <Row extends { key: string; savedId: string | null }>(row: Row): Row => ({ ...row, savedId: ids.get(row.key) ?? row.savedId });
  const stockByKey = new Map(saved.map((combination) => [combination.key, combination.stock]));
  const combinations = { ...form.combinations };
  for (const row of combinationRows(form.groups)) {
    const key = row.values.map((value) => ids.get(value.key)).join('/');
    const entry = combinations[row.rowKey];
    if (stockByKey.has(key)) combinations[row.rowKey] = { ...(entry ?? { count: '', notSold: false }), seen: stockByKey.get(key)! };
  }
  return {
    ...form,
    combinations,
    groups: form.groups.map((group) => ({ ...keep(group), values: group.values.map(keep) })),
    questions: form.questions.map((question) => ({ ...keep(question), choices: question.choices.map(keep) })),
  };
}

/** Whether the form's options, sizing and questions are all empty: a one-of-a-kind piece's. */
export const isPlainForm = (form: ModelForm) => form.groups.length === 0 && !form.sized && form.questions.length === 0;

/**
 * Where a refused field's message shows: the server's field ("model.optionGroups[0].values.1.name",
 * "optionGroups.0.values.1.name") as the form names it ("optionGroups.0.values.1.name"), a
 * combination's place in the list sent (`combinations.3`) as its row, so that it shows beside its input.
 */
export function formField(field: string, sentCombinationRows: readonly string[] = []): string {
  const normal = field
    .replace(/\[(\d+)\]/g, '.$1')
    .replace(/^model\./, '')
    .replace(/^\./, '')
    // A name refused in one language shows once, beside the pair; an id (made from the name) beside its name.
    .replace(/\.(?:en|bg)$/, '')
    .replace(/\.id$/, '.name');
  const combination = /^combinations\.(\d+)(?:\.|$)/.exec(normal);
  if (combination) {
    const rowKey = sentCombinationRows[Number(combination[1])];
    return rowKey ? `combinations.${rowKey}` : 'combinations';
  }
  return normal;
}

/** The row keys of the combinations formToModel sends, in their order. */
export const sentCombinationRows = (form: ModelForm): string[] =>
  form.stockMode === 'combination' && form.groups.length > 0
    ? combinationRows(form.groups)
        .filter((row) => !(form.combinations[row.rowKey]?.notSold ?? false))
        .map((row) => row.rowKey)
    : [];
