import { z } from 'zod';
import type { LocalizedText } from './catalog.js';
import { emailAddress } from './email-address.js';
import { typedText } from './text.js';

/*
 * "Make me a similar one": on a sold-out piece, a buyer asks the maker for a similar one, with her
 * e-mail and a note; the admin sees it as a lead with the product (Admin → Requests).
 */

const SIMILAR_NOTE_MAX_LENGTH = 1000;

const errors = 'similarPiece.errors';

export const similarPieceRequestSchema = z.object({
  email: emailAddress(`${errors}.emailInvalid`),
  note: typedText(SIMILAR_NOTE_MAX_LENGTH, { tooLong: `${errors}.noteTooLong`, invalid: `${errors}.noteInvalid` }).default(''),
  language: z.enum(['en', 'bg']).default('en'),
});

/** A request as the admin's list shows it. */
export interface SimilarPieceRequest {
  id: string;
  /** The product's current slug; null once it is deleted (the request keeps its name). */
  productSlug: string | null;
  productName: LocalizedText;
  email: string;
  note: string;
  language: 'en' | 'bg';
  createdAt: string;
  handledAt: string | null;
}

export interface SimilarPieceRequestList {
  requests: SimilarPieceRequest[];
}
