import type { LocalizedText, TextLanguage } from './localized-text.js';
import { type NailSizeChart, type NailSizes, sizesText, validateNailSizes } from './nail-sizes.js';

/**
 * How a product is made for its buyer: its option groups (Shape, Length...), whether it is sized
 * (ten nail sizes), the questions it asks (personal notes), and how long it takes to make. A
 * one-of-a-kind piece has none of these. What a buyer chose for a cart or order line is its
 * LineChoices; the server checks them against the product as it is now (validateChoices) and
 * prices the line with unitPriceMinor, which both sides use.
 */

export const MAX_OPTION_GROUPS = 3;
export const MAX_OPTION_VALUES = 12;
export const MAX_PRODUCT_QUESTIONS = 5;
export const MAX_QUESTION_CHOICES = 12;
/** The longest answer a short-text question may allow, and its default. */
export const MAX_ANSWER_LENGTH = 500;
export const DEFAULT_ANSWER_LENGTH = 200;
/** The most a price may change by one option value or answer, either way (1,000.00). */
export const MAX_PRICE_DELTA_MINOR = 100_000;
/** The longest lead time a product may promise, in working days. */
export const MAX_LEAD_DAYS = 120;

/** Ids of option values, questions and choices: short, made by the admin's form, stable across edits. */
export const CHOICE_ID_PATTERN = /^[a-z0-9-]{1,40}$/;

export interface OptionValue {
  id: string;
  name: LocalizedText;
  /** Added to the product's price when chosen; negative for a cheaper value. */
  priceDeltaMinor: number;
}

export interface OptionGroup {
  id: string;
  name: LocalizedText;
  values: OptionValue[];
}

interface QuestionBase {
  id: string;
  label: LocalizedText;
  required: boolean;
  /** Added to the price when answered (a text question) or on top of the choice's own (a choice). */
  priceDeltaMinor: number;
}

export type ProductQuestion =
  | (QuestionBase & { kind: 'text'; maxLength: number })
  | (QuestionBase & { kind: 'choice'; choices: OptionValue[] });

/**
 * Stock of a product with options: one count for every combination (the product's own stock), or
 * a count per combination, each null when that combination is made to order. A combination missing
 * from the list is not sold.
 */
export type StockMode = 'product' | 'combination';

export interface CombinationStock {
  /** The chosen value ids in group order, joined by '/' (combinationKey). */
  key: string;
  stock: number | null;
}

/**
 * How long a product takes before it ships, in working days: on hand and dispatched within `days`,
 * or made to order within `minDays`–`maxDays` (see working-days.ts).
 */
export type LeadTime = { kind: 'ready'; days: number } | { kind: 'made_to_order'; minDays: number; maxDays: number };

export const DEFAULT_LEAD_TIME: LeadTime = { kind: 'ready', days: 2 };

/** A lead time from its stored form (products.lead_kind, lead_min_days, lead_max_days). */
export const leadTimeOf = (kind: string, minDays: number, maxDays: number): LeadTime =>
  kind === 'made_to_order' ? { kind: 'made_to_order', minDays, maxDays } : { kind: 'ready', days: minDays };

/** The parts of a product that shape its lines; a product without them is sold as it is. */
export interface ProductModel {
  priceMinor: number;
  optionGroups: OptionGroup[];
  stockMode: StockMode;
  /** With stockMode 'combination': each combination on sale. */
  combinations: CombinationStock[];
  sized: boolean;
  questions: ProductQuestion[];
  leadTime: LeadTime;
}

/** What a buyer chose for a line: a value per option group, ten sizes when sized, and answers (text, or a choice's id). */
export interface LineChoices {
  options: Record<string, string>;
  sizes: NailSizes | null;
  answers: Record<string, string>;
}

export const NO_CHOICES: LineChoices = { options: {}, sizes: null, answers: {} };

/** The key of a combination of option values: their ids in the product's group order. */
export const combinationKey = (groups: readonly OptionGroup[], options: Readonly<Record<string, string>>): string =>
  groups.map((group) => options[group.id] ?? '').join('/');

/**
 * A line's identity within its product: the same product with the same choices is one line (adding
 * it again raises the quantity), with other choices another. Empty for a product sold as it is.
 */
export function choiceKey(choices: LineChoices): string {
  const entries = (record: Record<string, string>) =>
    Object.keys(record)
      .sort()
      .filter((id) => record[id] !== '')
      .map((id) => [id, record[id]]);
  const options = entries(choices.options);
  const answers = entries(choices.answers);
  if (options.length === 0 && answers.length === 0 && !choices.sizes) return '';
  return JSON.stringify({ o: options, s: choices.sizes ?? undefined, a: answers });
}

/** The price of one piece with these choices: the product's price and every chosen value's and answer's difference. */
export function unitPriceMinor(product: Pick<ProductModel, 'priceMinor' | 'optionGroups' | 'questions'>, choices: LineChoices): number {
  let price = product.priceMinor;
  for (const group of product.optionGroups) {
    price += group.values.find((value) => value.id === choices.options[group.id])?.priceDeltaMinor ?? 0;
  }
  for (const question of product.questions) {
    const answer = choices.answers[question.id];
    if (!answer) continue;
    price += question.priceDeltaMinor;
    if (question.kind === 'choice') price += question.choices.find((choice) => choice.id === answer)?.priceDeltaMinor ?? 0;
  }
  return Math.max(0, price);
}

/** A refusal of a line's choices: the field it is about (option:<group>, sizes, answer:<question>) and its message key. */
export interface ChoiceProblem {
  field: string;
  messageKey: string;
}

/**
 * Checks a buyer's choices against the product as it is now: a value for every group and only known
 * ones, a combination on sale, ten sizes within the chart when sized (none otherwise), every required
 * question answered within its length, known choices. Returns the choices cleaned (answers trimmed,
 * unknown keys dropped) or the first problem.
 */
export function validateChoices(
  product: Pick<ProductModel, 'optionGroups' | 'stockMode' | 'combinations' | 'sized' | 'questions'>,
  choices: LineChoices,
  chart: NailSizeChart,
): { choices: LineChoices } | { problem: ChoiceProblem } {
  const options: Record<string, string> = {};
  for (const group of product.optionGroups) {
    const valueId = choices.options[group.id];
    if (!valueId) return { problem: { field: `option:${group.id}`, messageKey: 'choices.errors.optionRequired' } };
    if (!group.values.some((value) => value.id === valueId)) return { problem: { field: `option:${group.id}`, messageKey: 'choices.errors.optionUnknown' } };
    options[group.id] = valueId;
  }
  if (product.optionGroups.length > 0 && product.stockMode === 'combination') {
    const key = combinationKey(product.optionGroups, options);
    if (!product.combinations.some((combination) => combination.key === key)) {
      return { problem: { field: `option:${product.optionGroups[0]!.id}`, messageKey: 'choices.errors.combinationUnavailable' } };
    }
  }
  let sizes: NailSizes | null = null;
  if (product.sized) {
    if (!choices.sizes) return { problem: { field: 'sizes', messageKey: 'choices.errors.sizesRequired' } };
    const sizeProblem = validateNailSizes(choices.sizes, chart);
    if (sizeProblem) return { problem: { field: 'sizes', messageKey: sizeProblem } };
    sizes = [...choices.sizes];
  }
  const answers: Record<string, string> = {};
  for (const question of product.questions) {
    const answer = (choices.answers[question.id] ?? '').trim();
    const field = `answer:${question.id}`;
    if (!answer) {
      if (question.required) return { problem: { field, messageKey: 'choices.errors.answerRequired' } };
      continue;
    }
    if (question.kind === 'text' && [...answer].length > question.maxLength) return { problem: { field, messageKey: 'choices.errors.answerTooLong' } };
    if (question.kind === 'choice' && !question.choices.some((choice) => choice.id === answer)) return { problem: { field, messageKey: 'choices.errors.answerUnknown' } };
    answers[question.id] = answer;
  }
  return { choices: { options, sizes, answers } };
}

/**
 * A line's choices as they were when it was ordered, with their names in both languages, so that an
 * order reads the same after the product changes or is deleted.
 */
export interface ChoiceSummary {
  options: { group: LocalizedText; value: LocalizedText }[];
  sizes: NailSizes | null;
  answers: { question: LocalizedText; answer: LocalizedText }[];
}

export const EMPTY_CHOICE_SUMMARY: ChoiceSummary = { options: [], sizes: null, answers: [] };

/** The names of what was chosen, from the product as it is now (for a cart line) or was (when ordering). */
export function summarizeChoices(product: Pick<ProductModel, 'optionGroups' | 'questions'>, choices: LineChoices): ChoiceSummary {
  const options = product.optionGroups.flatMap((group) => {
    const value = group.values.find((candidate) => candidate.id === choices.options[group.id]);
    return value ? [{ group: group.name, value: value.name }] : [];
  });
  const answers = product.questions.flatMap((question) => {
    const answer = choices.answers[question.id];
    if (!answer) return [];
    if (question.kind === 'text') return [{ question: question.label, answer: { en: answer, bg: answer } }];
    const choice = question.choices.find((candidate) => candidate.id === answer);
    return choice ? [{ question: question.label, answer: choice.name }] : [];
  });
  return { options, sizes: choices.sizes ? [...choices.sizes] : null, answers };
}

export const hasChoices = (summary: ChoiceSummary) => summary.options.length > 0 || summary.sizes !== null || summary.answers.length > 0;

/** A name in the language, else in the other (as catalog.ts's pickText, which this module cannot import). */
const textIn = (text: LocalizedText, language: TextLanguage) => text[language] || text[language === 'en' ? 'bg' : 'en'];

/**
 * The choices in one line of text, for e-mails, lists and the work list: "Almond · Medium · Sizes
 * 3-6-5-7-9 / 3-6-5-7-9 · Design wish: pink ombré". The caller's `sizesLabel` is the translated word.
 */
export function choicesText(summary: ChoiceSummary, language: TextLanguage, sizesLabel: string): string {
  const parts = summary.options.map((option) => textIn(option.value, language));
  if (summary.sizes) parts.push(`${sizesLabel} ${sizesText(summary.sizes)}`);
  for (const answer of summary.answers) parts.push(`${textIn(answer.question, language)}: ${textIn(answer.answer, language)}`);
  return parts.join(' · ');
}

/** Whether a product is sold as it is: no options, sizes or questions. */
export const isPlainProduct = (product: Pick<ProductModel, 'optionGroups' | 'sized' | 'questions'>) =>
  product.optionGroups.length === 0 && !product.sized && product.questions.length === 0;

/** The model of a product sold as it is: no options, sizes or questions, ready within the usual days. */
export const PLAIN_PRODUCT_MODEL: Omit<ProductModel, 'priceMinor'> = {
  optionGroups: [],
  stockMode: 'product',
  combinations: [],
  sized: false,
  questions: [],
  leadTime: DEFAULT_LEAD_TIME,
};
