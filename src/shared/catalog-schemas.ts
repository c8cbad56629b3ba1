import { z } from 'zod';
import { PRODUCT_CATEGORIES } from './catalog.js';
import { MAX_PRICE_MINOR, parsePriceToMinor } from './money.js';
import { MAX_STOCK } from './stock.js';
import { typedText } from './text.js';

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
  })
  .superRefine((fields, context) => {
    if (!fields.nameEn && !fields.nameBg) context.addIssue({ code: 'custom', path: ['nameEn'], message: `${messages}.requiredFields` });
    if (!fields.descriptionEn && !fields.descriptionBg) context.addIssue({ code: 'custom', path: ['descriptionEn'], message: `${messages}.requiredFields` });
  });

