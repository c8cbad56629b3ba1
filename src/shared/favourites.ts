import { z } from 'zod';

/*
 * Favourites: the heart on a card or a product page. A visitor's live in her browser; once she signs
 * in they join her account's, which are the same on each of her devices.
 */

/** The most favourites an account keeps: a wish list, not a copy of the catalogue. */
export const MAX_FAVOURITES = 500;

/** A browser's favourites handed to the account at sign-in, at most this many at once. */
const MAX_MERGED = 100;

const productId = z.uuid();

/** The favourites a browser kept before its visitor signed in. */
export const favouritesMergeSchema = z.object({
  productIds: z.array(productId).max(MAX_MERGED),
});

export interface FavouritesResponse {
  /** Newest first. */
  productIds: string[];
}
