import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { ACCOUNT_EMAIL_MISMATCH, deletedEmailPlaceholder, type AccountExport } from '#shared/account.js';
import { deleteAllAddresses, listAddresses } from '#server/addresses/service.js';
import { removeAdmin } from '#server/auth/roles.js';
import { endAllSessions, findAccount, forgetSignInLinks, listUserSessions, releaseAccountEmail } from '#server/auth/service.js';
import type { CurrentUser, UserSession } from '#server/auth/session.js';
import { deleteCart, getCart } from '#server/cart/service.js';
import type { Database, Transaction } from '#server/db/client.js';
import { users } from '#server/db/schema.js';
import { databaseErrorCode, inTransaction, lockSubject, UNIQUE_VIOLATION } from '#server/db/transaction.js';
import { HttpError } from '#server/http/errors.js';
import { invalidInput } from '#server/http/validation.js';
import { forgetRecipient, listCustomerMails } from '#server/mail/mail-queue.js';
import { anonymiseCustomerOrders, listAllCustomerOrders } from '#server/orders/anonymise.js';
import { anonymiseAfterSale } from '#server/returns/after-sale.js';
import { forgetSimilarPieceRequests } from '#server/similar-pieces/service.js';
import { forgetStockAlerts } from '#server/stock-alerts/service.js';
import { forgetFavourites, listFavourites } from '#server/favourites/service.js';
import { forgetReviews, listCustomerReviews } from '#server/reviews/service.js';
import { readInvoiceBuyer } from './invoice-buyer.js';
import { readNailSizes } from './nail-sizes.js';

const signedOut = () => new HttpError(401, 'unauthorized', 'Sign in first.');

/**
 * Everything the shop holds about the signed-in customer, read in one snapshot so that its parts
 * agree (an order placed meanwhile is in all of them or in none).
 */
export async function exportAccount(db: Database, { user, sessionHash }: UserSession): Promise<AccountExport> {
  return db.transaction(
    async (tx) => {
      const account = await findAccount(tx, user.id);
      if (!account) throw signedOut();
      const orders = await listAllCustomerOrders(tx, user.id, account.email);
      return {
        exportedAt: new Date().toISOString(),
        account: {
          email: account.email,
          createdAt: account.createdAt.toISOString(),
          lastSignInAt: account.lastLoginAt?.toISOString() ?? null,
          lastSignOutAt: account.lastLogoutAt?.toISOString() ?? null,
          nailSizes: await readNailSizes(tx, user.id),
          invoiceBuyer: await readInvoiceBuyer(tx, user.id),
        },
        addresses: await listAddresses(tx, user.id),
        cart: await getCart(db, user.id, tx),
        favourites: await listFavourites(tx, user.id),
        reviews: await listCustomerReviews(tx, user.id),
        orders,
        sessions: await listUserSessions(tx, user.id, sessionHash),
        emails: await listCustomerMails(
          tx,
          orders.map((order) => order.orderId),
          account.email,
        ),
      };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

/** How many placeholders are drawn before giving up; 32 random bits collide once in billions of deletions. */
const PLACEHOLDER_DRAWS = 3;

/**
 * Deletes the customer's account, confirmed by its e-mail, in one transaction: addresses, cart,
 * saved nail sizes, sign-in links, sessions, reviews and admin rights go; the orders, with their withdrawals and
 * refunds, stay for the shop's accounts without anything that names the person (anonymiseCustomerOrders,
 * anonymiseAfterSale), and so does the account's row, under the
 * same placeholder, since the orders refer to it. Every session's event streams end on every server
 * process when it commits.
 */
export async function deleteAccount(db: Database, user: CurrentUser, confirmation: string): Promise<{ reviewPhotoKeys: string[] }> {
  if (confirmation !== user.email) throw invalidInput('email', ACCOUNT_EMAIL_MISMATCH);
  for (let draw = 1; ; draw++) {
    const placeholder = deletedEmailPlaceholder(randomBytes(4).toString('hex'));
    try {
      return { reviewPhotoKeys: await inTransaction(db, (tx) => eraseAccount(tx, user, placeholder)) };
    } catch (error) {
      // The only unique value written is the placeholder on the account's row.
      if (databaseErrorCode(error) !== UNIQUE_VIOLATION || draw === PLACEHOLDER_DRAWS) throw error;
    }
  }
}

/** Returns the photo keys of the reviews it deleted, whose images go once it commits. */
async function eraseAccount(tx: Transaction, user: CurrentUser, placeholder: string): Promise<string[]> {
  // A change to the cart or the addresses, or a checkout, still running finishes first, and its
  // result is deleted or anonymised with the rest (in the order of LOCK_CLASSES).
  await lockSubject(tx, 'cart', user.id);
  await lockSubject(tx, 'addresses', user.id);
  // A second deletion waiting behind the first finds the e-mail gone, like the session.
  if (!(await releaseAccountEmail(tx, user.id, user.email, placeholder))) throw signedOut();
  await deleteAllAddresses(tx, user.id);
  // The account's row stays for its orders, without the sizes of the hands it described or the
  // invoice details it kept for next time.
  await tx.update(users).set({ nailSizes: null, invoiceBuyer: null }).where(eq(users.id, user.id));
  await deleteCart(tx, user.id);
  await forgetSignInLinks(tx, user.email);
  await forgetSimilarPieceRequests(tx, user.email);
  await forgetStockAlerts(tx, user.email, placeholder);
  await forgetFavourites(tx, user.id);
  const reviewPhotoKeys = await forgetReviews(tx, user.id);
  await removeAdmin(tx, user.email);
  const orderIds = await anonymiseCustomerOrders(tx, user.id, user.email, placeholder);
  await anonymiseAfterSale(tx, orderIds, placeholder);
  await forgetRecipient(tx, orderIds, user.email, placeholder);
  await endAllSessions(tx, user.id);
  return reviewPhotoKeys;
}
