import type { CustomerReview } from './reviews.js';
import { z } from 'zod';
import type { Address } from './addresses.js';
import type { CartItem } from './cart.js';
import type { InvoiceBuyer } from './invoice-buyer.js';
import type { NailSizes } from './nail-sizes.js';
import type { MailState, OrderMailKind } from './order-mails.js';
import type { OrderStatus } from './order-status.js';
import type { Order } from './orders.js';

/**
 * A customer's rights over their data (GDPR articles 15, 17 and 20): a copy of everything the shop
 * holds about them, and the deletion of their account. Orders are kept for the accounts the shop
 * must keep, with everything that names a person taken out (docs/decisions/0008).
 */

/** A session as the customer sees it in their copy: never its id nor the id's hash. */
export interface AccountSessionRecord {
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  /** The session that asked for the copy. */
  current: boolean;
}

/** An e-mail the shop wrote to the customer about one of their orders. */
export interface AccountEmailRecord {
  orderId: string;
  kind: OrderMailKind;
  /** The status a status message told of. */
  orderStatus: OrderStatus | null;
  state: MailState;
  createdAt: string;
  sentAt: string | null;
}

/** Everything the shop holds about a customer, as the file they download. */
export interface AccountExport {
  exportedAt: string;
  account: {
    email: string;
    createdAt: string;
    lastSignInAt: string | null;
    lastSignOutAt: string | null;
    /** "My nail sizes", when saved. */
    nailSizes: NailSizes | null;
    /** Who her last invoice was made out to. */
    invoiceBuyer: InvoiceBuyer | null;
  };
  addresses: Address[];
  cart: CartItem[];
  /** The ids of her favourite products, newest first. */
  favourites: string[];
  /** The reviews she wrote, newest first, with the order each came from. */
  reviews: CustomerReview[];
  orders: Order[];
  sessions: AccountSessionRecord[];
  emails: AccountEmailRecord[];
}

/** The name of the downloaded file, after the day of the copy: nail-art-atelier-data-2026-05-17.json. */
export const accountDataFileName = (exportedAt: string) => `nail-art-atelier-data-${exportedAt.slice(0, 10)}.json`;

export const ACCOUNT_EMAIL_MISMATCH = 'accountData.errors.emailMismatch';

/** Deleting an account is confirmed by typing its e-mail address; compared as stored, lower-cased. */
export const deleteAccountSchema = z.object(
  { email: z.string({ error: ACCOUNT_EMAIL_MISMATCH }).trim().toLowerCase().max(254, { error: ACCOUNT_EMAIL_MISMATCH }) },
  { error: ACCOUNT_EMAIL_MISMATCH },
);
export type DeleteAccountRequest = z.input<typeof deleteAccountSchema>;

/** Whether what was typed confirms the deletion of the account with this (stored, lower-cased) e-mail. */
export function confirmsAccountEmail(typed: string, accountEmail: string): boolean {
  const parsed = deleteAccountSchema.safeParse({ email: typed });
  return parsed.success && parsed.data.email !== '' && parsed.data.email === accountEmail;
}

/**
 * What a deleted customer's e-mail becomes on the orders the shop keeps and on the account's row.
 * The .invalid top-level domain can never receive mail (RFC 2606), so nothing is ever sent to it.
 */
const DELETED_EMAIL_DOMAIN = 'deleted.invalid';
export const deletedEmailPlaceholder = (eightHexDigits: string) => `deleted-${eightHexDigits}@${DELETED_EMAIL_DOMAIN}`;
export const isDeletedEmailPlaceholder = (email: string) => email.endsWith(`@${DELETED_EMAIL_DOMAIN}`);
