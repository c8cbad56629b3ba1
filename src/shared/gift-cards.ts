import { z } from 'zod';
import { isStorableText } from './text.js';
import { MAX_PRICE_MINOR } from './money.js';

/*
 * Gift cards: a means of payment, not a discount. A card pays for an order (whole or in part) after it
 * has been priced, so the order's lines, tax and total stay what they are, and what is left to pay is
 * the total less what the card paid. Amounts are integer minor units of the shop's currency.
 */

/** Letters and digits that cannot be mistaken for one another when read off a card or typed. */
const GIFT_CARD_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** 16 characters of 32 (80 bits): nobody finds a card by guessing, even without the guess limit. */
const GIFT_CARD_CODE_LENGTH = 16;
export const GIFT_CARD_CODE_PATTERN = new RegExp(`^[${GIFT_CARD_ALPHABET}]{${GIFT_CARD_CODE_LENGTH}}$`);

/** A code as it is stored and compared: capitals without spaces or dashes ("abcd-efgh …" is ABCDEFGH…). */
export const normalizeGiftCardCode = (input: string): string => input.toUpperCase().replace(/[\s-]/g, '');

/** A code as people read it: four groups of four ("ABCD-EFGH-JKLM-NPQR"). */
export const formatGiftCardCode = (code: string): string => code.match(/.{1,4}/g)?.join('-') ?? code;

/** The code's last four characters, which is all that an order, a document or a list shows of it. */
export const giftCardEnding = (code: string): string => code.slice(-4);

/** A new code from random bytes (one byte per character; 256 is a multiple of 32, so each is as likely). */
export function giftCardCodeFrom(randomBytes: Uint8Array): string {
  if (randomBytes.length < GIFT_CARD_CODE_LENGTH) throw new Error(`A gift card code needs ${GIFT_CARD_CODE_LENGTH} random bytes.`);
  return Array.from(randomBytes.subarray(0, GIFT_CARD_CODE_LENGTH), (byte) => GIFT_CARD_ALPHABET[byte % GIFT_CARD_ALPHABET.length]).join('');
}

/** What a card pays of an order's total, and what is left: on the card, and for the buyer to pay. */
export interface GiftCardPayment {
  paidMinor: number;
  dueMinor: number;
  balanceAfterMinor: number;
}

/** A card pays as much of the total as its balance allows; neither the balance nor what is due goes below zero. */
export function payWithGiftCard(totalMinor: number, balanceMinor: number): GiftCardPayment {
  const paidMinor = Math.max(0, Math.min(totalMinor, balanceMinor));
  return { paidMinor, dueMinor: totalMinor - paidMinor, balanceAfterMinor: balanceMinor - paidMinor };
}

/** Why a card pays nothing: each is said to the buyer in its own words. */
export type GiftCardRefusal = 'unknown' | 'empty' | 'changed';
export const giftCardRefusalKey = (reason: GiftCardRefusal) => `giftCards.refused.${reason}`;

/** A card as the buyer's checkout sees it once she has typed its code. */
export interface GiftCardBalance {
  code: string;
  balanceMinor: number;
}

/** What an order shows of the card that paid for it. */
export interface OrderGiftCard {
  ending: string;
  paidMinor: number;
}

export const giftCardCheckSchema = z.object({ code: z.string().trim().min(1, 'giftCards.errors.codeRequired').max(64, 'giftCards.refused.unknown') });

/** The most a card issued by hand may hold: a price's upper bound, as for products. */
const MAX_GIFT_CARD_MINOR = MAX_PRICE_MINOR;

/** The admin issues a card by hand: its amount, and a note for her own list (whom it is for). */
export const giftCardIssueSchema = z.object({
  amountMinor: z
    .number({ error: 'giftCards.errors.amountRequired' })
    .int('giftCards.errors.amountInvalid')
    .min(1, 'giftCards.errors.amountInvalid')
    .max(MAX_GIFT_CARD_MINOR, 'giftCards.errors.amountInvalid'),
  note: z.string().trim().max(200, 'giftCards.errors.noteTooLong').refine(isStorableText, 'giftCards.errors.noteTooLong').default(''),
});
export type GiftCardIssue = z.input<typeof giftCardIssueSchema>;

/** A card in the admin's list. The full code is shown once, when it is issued; the list shows its ending. */
export interface GiftCardSummary {
  id: string;
  ending: string;
  initialMinor: number;
  balanceMinor: number;
  note: string;
  createdAt: string;
  /** How many orders it has paid for (not counting cancelled ones). */
  uses: number;
}
