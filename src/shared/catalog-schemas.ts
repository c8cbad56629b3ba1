import { z } from 'zod';
import { PRODUCT_CATEGORIES } from './catalog.js';
import { MAX_PRICE_MINOR, parsePriceToMinor } from './money.js';
import { MAX_CHART_SIZES, MAX_NAIL_SIZE, MAX_NAIL_WIDTH_TENTHS_MM, MAX_SIZE_PRESETS, NAIL_COUNT } from './nail-sizes.js';
import {
  CHOICE_ID_PATTERN,
  type CombinationStock,
  DEFAULT_ANSWER_LENGTH,
  DEFAULT_LEAD_TIME,
  MAX_ANSWER_LENGTH,
  MAX_LEAD_DAYS,
  MAX_OPTION_GROUPS,
  MAX_OPTION_VALUES,
  MAX_PRICE_DELTA_MINOR,
  MAX_PRODUCT_QUESTIONS,
  MAX_QUESTION_CHOICES,
  type ProductModel,
} from './product-options.js';
import { MAX_SYNONYM_GROUPS, MAX_SYNONYM_LENGTH, MAX_SYNONYMS_PER_GROUP, searchKey } from './search.js';
import { MAX_STOCK } from './stock.js';
import { typedText } from './text.js';
import { RETURN_RULES, type ReturnRule } from './withdrawals.js';

// Kept apart from catalog.ts so that the first page, which needs only its types, does not load zod.

const messages = 'admin.products.messages';

/** The longest name and description, in each language, that a product takes. */
export const PRODUCT_NAME_MAX_LENGTH = 200;
export const PRODUCT_DESCRIPTION_MAX_LENGTH = 2000;
/** The lowest price a product may have: one minor unit (0.01). */
const MIN_PRICE_MINOR = 1;

/** A count as a form sends it: empty for made to order (null), else a whole number of pieces. */
const stockCount = z
  .union([z.string(), z.number()])
  .transform((value, context) => {
    const text = String(value).trim();
    if (text === '') return null;
    if (/^\d{1,9}$/.test(text) && Number(text) <= MAX_STOCK) return Number(text);
    context.addIssue({ code: 'custom', message: `${messages}.invalidStock` });
    return z.NEVER;
  });

const productText = (max: number, tooLong: string) =>
  typedText(max, { tooLong: `${messages}.${tooLong}`, invalid: `${messages}.invalidCharacters` })
    .optional()
    .transform((text) => text ?? '');

/** The heaviest piece the form takes, in grams: far above any set of nails, well below a courier's limit. */
const MAX_PIECE_GRAMS = 30_000;

/**
 * The product form's fields as the admin types them; the server reads the same from multipart. A
 * name and a description are needed in at least one language; the page shows the other language's
 * where one is empty.
 */
export const productFieldsSchema = z
  .object({
    nameEn: productText(PRODUCT_NAME_MAX_LENGTH, 'nameTooLong'),
    nameBg: productText(PRODUCT_NAME_MAX_LENGTH, 'nameTooLong'),
    descriptionEn: productText(PRODUCT_DESCRIPTION_MAX_LENGTH, 'descriptionTooLong'),
    descriptionBg: productText(PRODUCT_DESCRIPTION_MAX_LENGTH, 'descriptionTooLong'),
    price: z
      .unknown()
      .transform((value, context) => {
        const minor = parsePriceToMinor(value);
        if (minor !== undefined) return minor;
        context.addIssue({ code: 'custom', message: `${messages}.priceTooPrecise` });
        return z.NEVER;
      })
      .pipe(z.number().min(MIN_PRICE_MINOR, { error: `${messages}.requiredFields` }).max(MAX_PRICE_MINOR, { error: `${messages}.priceTooHigh` })),
    category: z.enum(['', ...PRODUCT_CATEGORIES], { error: `${messages}.unknownCategory` }).default(''),
    /** Absent: made to order for a new product, unchanged for an edited one. */
    stock: stockCount.optional(),
    /**
     * The count the form showed when the admin opened it. A count the admin changed is refused when
     * orders changed it meanwhile, and one the admin left alone is not written back over their sales.
     */
    stockSeen: stockCount.optional(),
    /** The weight of one piece packed, in grams, for the courier's label; empty: not known. Absent: unchanged. */
    weight: z
      .union([z.string(), z.number()])
      .transform((value, context) => {
        const text = String(value).trim();
        if (text === '') return null;
        if (/^\d{1,5}$/.test(text) && Number(text) >= 1 && Number(text) <= MAX_PIECE_GRAMS) return Number(text);
        context.addIssue({ code: 'custom', message: `${messages}.invalidWeight` });
        return z.NEVER;
      })
      .optional(),
  })
  .superRefine((fields, context) => {
    if (!fields.nameEn && !fields.nameBg) context.addIssue({ code: 'custom', path: ['nameEn'], message: `${messages}.requiredFields` });
    if (!fields.descriptionEn && !fields.descriptionBg) context.addIssue({ code: 'custom', path: ['descriptionEn'], message: `${messages}.requiredFields` });
  });


/** The longest name of an option group, value or choice, and the longest question, in each language. */
const OPTION_NAME_MAX_LENGTH = 60;
const QUESTION_LABEL_MAX_LENGTH = 200;

const choiceId = z.string({ error: `${messages}.invalidChoiceId` }).regex(CHOICE_ID_PATTERN, { error: `${messages}.invalidChoiceId` });

/** A name in both languages, at least one of them given; the other language shows it where one is empty. */
const bilingualName = (max: number, missing: string, tooLong: string) =>
  z
    .object(
      {
        en: productText(max, tooLong),
        bg: productText(max, tooLong),
      },
      { error: `${messages}.${missing}` },
    )
    .superRefine((name, context) => {
      if (!name.en && !name.bg) context.addIssue({ code: 'custom', path: ['en'], message: `${messages}.${missing}` });
    });

const priceDelta = z
  .number({ error: `${messages}.invalidPriceDelta` })
  .int({ error: `${messages}.invalidPriceDelta` })
  .min(-MAX_PRICE_DELTA_MINOR, { error: `${messages}.invalidPriceDelta` })
  .max(MAX_PRICE_DELTA_MINOR, { error: `${messages}.invalidPriceDelta` })
  .default(0);

/** Ids must differ within their list (values of a group, groups, questions, a question's choices). */
function refuseDuplicateIds(items: readonly { id: string }[], context: z.RefinementCtx, at: (index: number) => PropertyKey[]) {
  const seen = new Set<string>();
  items.forEach((item, index) => {
    if (seen.has(item.id)) context.addIssue({ code: 'custom', path: at(index), message: `${messages}.duplicateChoiceId` });
    seen.add(item.id);
  });
}

const optionValueSchema = z.object({
  id: choiceId,
  name: bilingualName(OPTION_NAME_MAX_LENGTH, 'optionNameRequired', 'optionNameTooLong'),
  priceDeltaMinor: priceDelta,
});

const optionValuesSchema = z
  .array(optionValueSchema, { error: `${messages}.optionValuesRequired` })
  .min(1, { error: `${messages}.optionValuesRequired` })
  .max(MAX_OPTION_VALUES, { error: `${messages}.tooManyOptionValues` })
  .superRefine((values, context) => refuseDuplicateIds(values, context, (index) => [index, 'id']));

const optionGroupSchema = z.object({
  id: choiceId,
  name: bilingualName(OPTION_NAME_MAX_LENGTH, 'optionNameRequired', 'optionNameTooLong'),
  values: optionValuesSchema,
});

const questionBase = {
  id: choiceId,
  label: bilingualName(QUESTION_LABEL_MAX_LENGTH, 'questionLabelRequired', 'questionLabelTooLong'),
  required: z.boolean({ error: `${messages}.invalidModel` }).default(false),
  priceDeltaMinor: priceDelta,
};

const questionSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({
      ...questionBase,
      kind: z.literal('text'),
      maxLength: z
        .number({ error: `${messages}.invalidAnswerLength` })
        .int({ error: `${messages}.invalidAnswerLength` })
        .min(1, { error: `${messages}.invalidAnswerLength` })
        .max(MAX_ANSWER_LENGTH, { error: `${messages}.invalidAnswerLength` })
        .default(DEFAULT_ANSWER_LENGTH),
    }),
    z.object({
      ...questionBase,
      kind: z.literal('choice'),
      choices: z
        .array(optionValueSchema, { error: `${messages}.questionChoicesRequired` })
        .min(1, { error: `${messages}.questionChoicesRequired` })
        .max(MAX_QUESTION_CHOICES, { error: `${messages}.tooManyQuestionChoices` })
        .superRefine((choices, context) => refuseDuplicateIds(choices, context, (index) => [index, 'id'])),
    }),
  ],
  { error: `${messages}.invalidQuestionKind` },
);

const leadDays = (min: number) =>
  z
    .number({ error: `${messages}.invalidLeadTime` })
    .int({ error: `${messages}.invalidLeadTime` })
    .min(min, { error: `${messages}.invalidLeadTime` })
    .max(MAX_LEAD_DAYS, { error: `${messages}.invalidLeadTime` });

const leadTimeSchema = z
  .discriminatedUnion(
    'kind',
    [z.object({ kind: z.literal('ready'), days: leadDays(0) }), z.object({ kind: z.literal('made_to_order'), minDays: leadDays(1), maxDays: leadDays(1) })],
    { error: `${messages}.invalidLeadTime` },
  )
  .superRefine((lead, context) => {
    if (lead.kind === 'made_to_order' && lead.minDays > lead.maxDays) context.addIssue({ code: 'custom', path: ['maxDays'], message: `${messages}.invalidLeadTime` });
  });

/** The most combinations a product can list: every value of three full groups. */
const MAX_COMBINATIONS = MAX_OPTION_VALUES ** MAX_OPTION_GROUPS;

const combinationSchema = z.object({
  key: z.string({ error: `${messages}.invalidCombination` }).max(200, { error: `${messages}.invalidCombination` }),
  /** Null: made to order. */
  stock: z
    .number({ error: `${messages}.invalidStock` })
    .int({ error: `${messages}.invalidStock` })
    .min(0, { error: `${messages}.invalidStock` })
    .max(MAX_STOCK, { error: `${messages}.invalidStock` })
    .nullable(),
  /**
   * The count the form showed when it was opened (absent for a new combination): as with the
   * product's own count, one left alone is not written back over orders taken since.
   */
  stockSeen: z.number().int().min(0).max(MAX_STOCK).nullable().optional().catch(undefined),
});

/**
 * A product's options, sizing, questions and lead time as the product form sends them (the `model`
 * field, JSON; prices in minor units). Combinations are read only when stock is counted per
 * combination, and each must name one value of every group, in the groups' order.
 */
export const productModelSchema = z
  .object(
    {
      optionGroups: z
        .array(optionGroupSchema, { error: `${messages}.invalidModel` })
        .max(MAX_OPTION_GROUPS, { error: `${messages}.tooManyOptionGroups` })
        .superRefine((groups, context) => refuseDuplicateIds(groups, context, (index) => [index, 'id']))
        .default([]),
      stockMode: z.enum(['product', 'combination'], { error: `${messages}.invalidStockMode` }).default('product'),
      combinations: z.array(combinationSchema, { error: `${messages}.invalidModel` }).max(MAX_COMBINATIONS, { error: `${messages}.invalidCombination` }).default([]),
      sized: z.boolean({ error: `${messages}.invalidModel` }).default(false),
      questions: z
        .array(questionSchema, { error: `${messages}.invalidModel` })
        .max(MAX_PRODUCT_QUESTIONS, { error: `${messages}.tooManyQuestions` })
        .superRefine((questions, context) => refuseDuplicateIds(questions, context, (index) => [index, 'id']))
        .default([]),
      leadTime: leadTimeSchema.default(DEFAULT_LEAD_TIME),
      returnRule: z.enum(RETURN_RULES, { error: `${messages}.invalidModel` }).default('standard'),
    },
    { error: `${messages}.invalidModel` },
  )
  .superRefine((model, context) => {
    if (model.stockMode !== 'combination') return;
    if (model.optionGroups.length === 0) {
      context.addIssue({ code: 'custom', path: ['stockMode'], message: `${messages}.combinationStockNeedsOptions` });
      return;
    }
    const seen = new Set<string>();
    model.combinations.forEach((combination, index) => {
      const ids = combination.key.split('/');
      const valid = ids.length === model.optionGroups.length && model.optionGroups.every((group, position) => group.values.some((value) => value.id === ids[position]));
      if (!valid) context.addIssue({ code: 'custom', path: ['combinations', index, 'key'], message: `${messages}.invalidCombination` });
      else if (seen.has(combination.key)) context.addIssue({ code: 'custom', path: ['combinations', index, 'key'], message: `${messages}.duplicateCombination` });
      seen.add(combination.key);
    });
  })
  .transform(
    (model): ProductModelInput => ({
      ...model,
      // Counts per combination mean nothing to a product counting all together.
      combinations: model.stockMode === 'combination' ? model.combinations : [],
    }),
  );

/** A combination as the form sends it: its count, and the count the form showed. */
type CombinationInput = CombinationStock & { stockSeen?: number | null };

/** A product's model as the admin saves it (ProductModel without the price, which is a field of its own). */
export type ProductModelInput = Omit<ProductModel, 'priceMinor' | 'combinations'> & { combinations: CombinationInput[]; returnRule: ReturnRule };

const chartMessages = 'admin.sizeChart.messages';

const chartSize = z
  .number({ error: `${chartMessages}.invalidSize` })
  .int({ error: `${chartMessages}.invalidSize` })
  .min(0, { error: `${chartMessages}.invalidSize` })
  .max(MAX_NAIL_SIZE, { error: `${chartMessages}.invalidSize` });

/**
 * The shop's size chart as the admin saves it: distinct sizes, each with a width from 0.1 to 30 mm,
 * and presets whose ten sizes are all on the chart.
 */
export const nailSizeChartSchema = z
  .object(
    {
      sizes: z
        .array(
          z.object({
            size: chartSize,
            widthTenthsMm: z
              .number({ error: `${chartMessages}.invalidWidth` })
              .int({ error: `${chartMessages}.invalidWidth` })
              .min(1, { error: `${chartMessages}.invalidWidth` })
              .max(MAX_NAIL_WIDTH_TENTHS_MM, { error: `${chartMessages}.invalidWidth` }),
          }),
          { error: `${chartMessages}.sizesRequired` },
        )
        .min(1, { error: `${chartMessages}.sizesRequired` })
        .max(MAX_CHART_SIZES, { error: `${chartMessages}.tooManySizes` })
        .superRefine((sizes, context) => {
          const seen = new Set<number>();
          sizes.forEach((entry, index) => {
            if (seen.has(entry.size)) context.addIssue({ code: 'custom', path: [index, 'size'], message: `${chartMessages}.duplicateSize` });
            seen.add(entry.size);
          });
        }),
      presets: z
        .array(
          z.object({
            id: choiceId,
            name: bilingualName(OPTION_NAME_MAX_LENGTH, 'optionNameRequired', 'optionNameTooLong'),
            sizes: z.array(chartSize, { error: `${chartMessages}.presetIncomplete` }).length(NAIL_COUNT, { error: `${chartMessages}.presetIncomplete` }),
          }),
          { error: `${chartMessages}.invalidChart` },
        )
        .max(MAX_SIZE_PRESETS, { error: `${chartMessages}.tooManyPresets` })
        .superRefine((presets, context) => refuseDuplicateIds(presets, context, (index) => [index, 'id']))
        .default([]),
    },
    { error: `${chartMessages}.invalidChart` },
  )
  .superRefine((chart, context) => {
    const known = new Set(chart.sizes.map((entry) => entry.size));
    chart.presets.forEach((preset, index) => {
      const position = preset.sizes.findIndex((size) => !known.has(size));
      if (position >= 0) context.addIssue({ code: 'custom', path: ['presets', index, 'sizes', position], message: `${chartMessages}.presetOutsideChart` });
    });
  });

/** "My nail sizes" as the account page saves them: ten sizes, or null to forget them (checked against the chart by the server). */
export const savedNailSizesSchema = z.object({
  // Each size is checked with the chart (validateNailSizes), whose refusals name the sizes as a whole.
  sizes: z.array(z.unknown(), { error: 'choices.errors.sizesIncomplete' }).nullable(),
});

const synonymMessages = 'admin.synonyms.messages';

/**
 * The admin's search synonyms: up to 100 groups, each of 2 to 10 words or phrases of up to 60
 * characters that a search can find (letters or digits).
 */
export const searchSynonymsSchema = z.object({
  groups: z
    .array(
      z
        .array(
          z
            .string({ error: `${synonymMessages}.noWord` })
            .trim()
            .max(MAX_SYNONYM_LENGTH, { error: `${synonymMessages}.tooLong` })
            .refine((phrase) => searchKey(phrase) !== '', { error: `${synonymMessages}.noWord` }),
          { error: `${synonymMessages}.tooFew` },
        )
        .min(2, { error: `${synonymMessages}.tooFew` })
        .max(MAX_SYNONYMS_PER_GROUP, { error: `${synonymMessages}.tooMany` }),
      { error: `${synonymMessages}.tooManyGroups` },
    )
    .max(MAX_SYNONYM_GROUPS, { error: `${synonymMessages}.tooManyGroups` }),
});

export type SearchSynonyms = z.output<typeof searchSynonymsSchema>;
