import { z } from 'zod';
import { MAX_PRODUCT_PHOTOS } from './catalog.js';
import { typedText } from './text.js';

// Kept apart from catalog.ts so that the pages that only show photos do not load zod.

const messages = 'admin.products.messages';

/**
 * The most pixels an uploaded photo may have: 50 megapixels, more than a phone's or a camera's
 * photo (8,192 × 6,144 is 50.3). A small file can state far more (a 30 KB PNG of 16,000 × 16,000 took
 * 4.6 s and 76 MB to decode, and three at once stalled the server), so the server reads the size
 * from the header and refuses the photo, with this message, before decoding a pixel.
 */
export const MAX_PHOTO_PIXELS = 50_000_000;
export const PHOTO_TOO_MANY_PIXELS = `${messages}.imageTooManyPixels`;

/** The longest alt text a photo takes. */
export const MAX_PHOTO_ALT_LENGTH = 200;

/** An alt text as the admin types it; empty means the product's name. */
const altText = typedText(MAX_PHOTO_ALT_LENGTH, { tooLong: `${messages}.altTooLong`, invalid: `${messages}.altInvalidCharacters` })
  .optional()
  .transform((text) => text ?? '');

/**
 * A product's photos in their new order, cover first, with their alt texts. It lists every photo the
 * product has: the server refuses a list that is not the product's current set (photos_changed), so
 * that an admin whose form is older than another's upload or removal loses nothing.
 */
export const photoOrderSchema = z.object({
  photos: z
    .array(z.object({ id: z.uuid({ error: `${messages}.photosChanged` }), altEn: altText, altBg: altText }), { error: `${messages}.photosChanged` })
    .min(1, { error: `${messages}.photosChanged` })
    .max(MAX_PRODUCT_PHOTOS, { error: `${messages}.photosChanged` }),
});

export type PhotoOrderInput = z.input<typeof photoOrderSchema>;
export type PhotoOrder = z.output<typeof photoOrderSchema>;
