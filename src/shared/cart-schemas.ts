import { z } from 'zod';
import { MAX_CART_OPERATIONS, MAX_CART_PIECES } from './cart.js';
import { NAIL_COUNT } from './nail-sizes.js';
import { CHOICE_ID_PATTERN, MAX_ANSWER_LENGTH, MAX_OPTION_GROUPS, MAX_PRODUCT_QUESTIONS, type LineChoices } from './product-options.js';
import { isStorableText } from './text.js';

const operationId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, { error: 'cart.errors.invalidOperation' });
const productId = z.uuid({ error: 'cart.errors.invalidProduct' });

const INVALID_CHOICES = 'choices.errors.invalid';
const choiceId = z.string().regex(CHOICE_ID_PATTERN, { error: INVALID_CHOICES });
const atMost = (count: number) => (record: Record<string, string>) => Object.keys(record).length <= count;

/**
 * The shape of a line's choices, with generous bounds; whether they fit the product (every group
 * chosen, sizes on the chart, an answer's own length) is the server's check against the product as
 * it is now (validateChoices). Answers are bounded in UTF-16 units here, twice the longest answer,
 * so that one of MAX_ANSWER_LENGTH characters outside the basic plane still passes to that check.
 */
const lineChoicesSchema = z.object(
  {
    options: z.record(choiceId, choiceId).refine(atMost(MAX_OPTION_GROUPS), { error: INVALID_CHOICES }).default({}),
    sizes: z
      .array(z.number({ error: INVALID_CHOICES }).int({ error: INVALID_CHOICES }).min(0, { error: INVALID_CHOICES }).max(99, { error: INVALID_CHOICES }))
      .length(NAIL_COUNT, { error: 'choices.errors.sizesIncomplete' })
      .nullable()
      .default(null),
    answers: z
      .record(choiceId, z.string({ error: INVALID_CHOICES }).max(MAX_ANSWER_LENGTH * 2, { error: 'choices.errors.answerTooLong' }).refine(isStorableText, { error: INVALID_CHOICES }))
      .refine(atMost(MAX_PRODUCT_QUESTIONS), { error: INVALID_CHOICES })
      .default({}),
  },
  { error: INVALID_CHOICES },
) satisfies z.ZodType<LineChoices, unknown>;

const cartOperationSchema = z.discriminatedUnion('type', [
  z.object({ id: operationId, type: z.literal('add'), productId, choices: lineChoicesSchema.optional() }),
  z.object({
    id: operationId,
    type: z.literal('set'),
    productId,
    choices: lineChoicesSchema.optional(),
    quantity: z.number({ error: 'cart.errors.invalidQuantity' }).int({ error: 'cart.errors.invalidQuantity' }).min(0, { error: 'cart.errors.invalidQuantity' }).max(MAX_CART_PIECES, { error: 'cart.errors.invalidQuantity' }),
  }),
  z.object({ id: operationId, type: z.literal('remove'), itemId: z.uuid({ error: 'cart.errors.invalidItem' }) }),
]);

export const cartOperationsRequestSchema = z.object({
  operations: z.array(cartOperationSchema).min(1).max(MAX_CART_OPERATIONS),
});
