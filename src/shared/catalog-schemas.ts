import { z } from 'zod';
import { PRODUCT_CATEGORIES } from './catalog.js';
import { MAX_PRICE_MINOR, parsePriceToMinor } from './money.js';
import { typedText } from './text.js';

// Kept apart from catalog.ts so that the first page, which needs only its types, does not load zod.

const messages = 'admin.products.messages';

/** The product form's text fields as the admin types them; the server reads the same from multipart. */
export const productFieldsSchema = z.object({
  name: typedText(200, { missing: `${messages}.requiredFields`, tooLong: `${messages}.nameTooLong`, invalid: `${messages}.invalidCharacters` }),
  description: typedText(2000, {
    missing: `${messages}.requiredFields`,
    tooLong: `${messages}.descriptionTooLong`,
    invalid: `${messages}.invalidCharacters`,
  }),
  price: z
    .unknown()
    .transform((value, context) => {
      const minor = parsePriceToMinor(value);
      if (minor !== undefined) return minor;
      context.addIssue({ code: 'custom', message: `${messages}.priceTooPrecise` });
      return z.NEVER;
    })
    .pipe(z.number().min(1, { error: `${messages}.requiredFields` }).max(MAX_PRICE_MINOR, { error: `${messages}.priceTooHigh` })),
  category: z.enum(['', ...PRODUCT_CATEGORIES], { error: `${messages}.unknownCategory` }).default(''),
});

export type ProductFieldsInput = z.input<typeof productFieldsSchema>;
