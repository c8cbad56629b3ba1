import { z } from 'zod';
import type { ChoiceSummary } from './product-options.js';
import type { LocalizedText, TextLanguage } from './catalog.js';
import { typedText } from './text.js';

/*
 * Reviews from buyers: a customer whose order was delivered reviews each of its lines once (stars,
 * text, up to 3 photos); the admin approves, hides or answers; the product page shows the approved
 * ones, newest first, in the language each was written in.
 */

export const MAX_REVIEW_PHOTOS = 3;
export const REVIEW_TEXT_MAX_LENGTH = 2000;
const REVIEW_NAME_MAX_LENGTH = 40;
export const REVIEW_REPLY_MAX_LENGTH = 1000;
/** The reviews a product page loads at once; "Show more" loads the next as many. */
export const REVIEWS_PAGE_SIZE = 10;

/** Waiting for the admin, shown on the product page, or kept from it. */
export const REVIEW_STATUSES = ['pending', 'approved', 'hidden'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

const errors = 'reviews.errors';

export const reviewInputSchema = z.object({
  orderItemId: z.uuid({ error: `${errors}.lineMissing` }),
  rating: z.coerce.number({ error: `${errors}.ratingMissing` }).int({ error: `${errors}.ratingMissing` }).min(1, { error: `${errors}.ratingMissing` }).max(5, { error: `${errors}.ratingMissing` }),
  text: typedText(REVIEW_TEXT_MAX_LENGTH, { tooLong: `${errors}.textTooLong`, invalid: `${errors}.textInvalid`, missing: `${errors}.textMissing` }),
  // The name shown with the review: never an e-mail address, which a review must not show.
  name: typedText(REVIEW_NAME_MAX_LENGTH, { tooLong: `${errors}.nameTooLong`, invalid: `${errors}.nameInvalid`, missing: `${errors}.nameMissing` }).refine((name) => !name.includes('@'), {
    error: `${errors}.nameIsEmail`,
  }),
  language: z.enum(['en', 'bg']).default('en'),
});

export const reviewModerationSchema = z.object({
  status: z.enum(REVIEW_STATUSES, { error: 'admin.reviews.errors.status' }).optional(),
  // An empty reply takes the shop's answer away.
  reply: typedText(REVIEW_REPLY_MAX_LENGTH, { tooLong: 'admin.reviews.errors.replyTooLong', invalid: 'admin.reviews.errors.replyInvalid' }).optional(),
});
export type ReviewModeration = z.infer<typeof reviewModerationSchema>;

interface ReviewPhoto {
  /** The photo's address; `?w=` picks a width. */
  url: string;
}

/** A review as the product page shows it: no e-mail, no account. */
export interface Review {
  id: string;
  rating: number;
  text: string;
  name: string;
  language: TextLanguage;
  photos: ReviewPhoto[];
  /** The shop's answer, if it gave one. */
  reply: string | null;
  createdAt: string;
}

/** How a product is rated: its approved reviews' count and average stars (0 without any). */
export interface RatingSummary {
  count: number;
  /** Rounded to one decimal. */
  average: number;
}

/** A page of a product's reviews; `nextCursor` asks for the next page, null after the last. */
export interface ReviewPage {
  summary: RatingSummary;
  reviews: Review[];
  nextCursor: string | null;
}

/** An order line the signed-in buyer may review, or has: her delivered orders' lines of products that still exist. */
export interface ReviewableLine {
  orderId: string;
  orderItemId: string;
  productSlug: string;
  name: LocalizedText;
  choices: ChoiceSummary;
  /** The name her last review was signed with, else the order's recipient's first name. */
  suggestedName: string;
  review: (Review & { status: ReviewStatus }) | null;
}

/** A review in its writer's copy of her data. */
export interface CustomerReview extends Review {
  status: ReviewStatus;
  orderId: string;
  productId: string;
}

/** A review as the admin's list shows it, with the product and the order it came from. */
export interface AdminReview extends Review {
  status: ReviewStatus;
  orderId: string;
  productSlug: string;
  productName: LocalizedText;
}

export interface AdminReviewList {
  reviews: AdminReview[];
}

/** The average rounded to one decimal, as pages and structured data show it. */
export const ratingAverage = (count: number, total: number): number => (count === 0 ? 0 : Math.round((total / count) * 10) / 10);
