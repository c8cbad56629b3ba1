import type { BankAccount } from '#shared/payment-methods.js';
import type { TextLanguage } from '#shared/catalog.js';
import { isNotifiedStatus } from '#shared/order-mails.js';
import type { OrderStatus } from '#shared/order-status.js';
import { adminLanguages, listAdminsWithLanguage } from '#server/auth/roles.js';
import type { Executor } from '#server/db/client.js';
import { lastToldStatus, queueMails, queueReviewRequest, supersedeQueuedMails } from '#server/mail/mail-queue.js';

export interface OrderMailSettings {
  publicUrl: string;
  supportEmail: string;
  /** Who hears of new orders; the admins when empty. */
  notifyEmails: string[];
  /** The language of every new-order notice; unset, each admin's is the one they last used the dashboard in (else English). */
  notifyLanguage: TextLanguage | undefined;
  /** How long a status message waits, so that a status changed again meanwhile replaces it. */
  statusDelayMs: number;
  /** How long after delivery the buyer is asked to review what she bought; null: never. */
  reviewRequestDelayMs: number | null;
  /** Euro amounts are followed by their BGN equivalent. */
  showBgnEquivalent: boolean;
  /** The account bank transfers go to, which an order paid by transfer shows; null when the shop takes none. */
  bankAccount: BankAccount | null;
}

/** The order as the queue needs it to address its messages. */
interface OrderAddressee {
  orderId: string;
  customerEmail: string;
  language: TextLanguage;
}

/**
 * Who hears of a new order, each in their language: ORDER_NOTIFY_LANGUAGE when set, else the language
 * the admin last used the dashboard in, else English. One query on the checkout's path at most.
 */
export async function ownersToNotify(tx: Executor, settings: OrderMailSettings): Promise<{ email: string; language: TextLanguage }[]> {
  const { notifyEmails, notifyLanguage } = settings;
  if (notifyEmails.length === 0) {
    return (await listAdminsWithLanguage(tx)).map((admin) => ({ email: admin.email, language: notifyLanguage ?? admin.language ?? 'en' }));
  }
  const languages = notifyLanguage ? undefined : await adminLanguages(tx, notifyEmails);
  return notifyEmails.map((email) => ({ email, language: notifyLanguage ?? languages?.get(email) ?? 'en' }));
}

/** In the transaction that places the order: the customer's confirmation and the owner's new-order notice. */
export async function queueOrderPlacedMails(tx: Executor, settings: OrderMailSettings, order: OrderAddressee): Promise<void> {
  await queueMails(tx, [
    { orderId: order.orderId, kind: 'order_placed', recipient: order.customerEmail, language: order.language },
    ...(await ownersToNotify(tx, settings)).map((owner) => ({ orderId: order.orderId, kind: 'new_order' as const, recipient: owner.email, language: owner.language })),
  ]);
}

/** In the transaction that records the payment: the customer's receipt. */
export async function queuePaymentMail(tx: Executor, order: OrderAddressee): Promise<void> {
  await queueMails(tx, [{ orderId: order.orderId, kind: 'payment_received', recipient: order.customerEmail, language: order.language }]);
}

/**
 * In the transaction that changes the status. A status message waits a while before it is sent, and
 * any change replaces the one still waiting, so that a status set by mistake and corrected at once
 * tells the customer nothing wrong: only the latest status is told. Coming back to the status the
 * customer was last told of tells nothing again.
 */
export async function queueStatusMail(tx: Executor, settings: OrderMailSettings, order: OrderAddressee, status: OrderStatus): Promise<void> {
  await supersedeQueuedMails(tx, order.orderId, 'status_changed');
  if (!isNotifiedStatus(status) || (await lastToldStatus(tx, order.orderId)) === status) return;
  await queueMails(tx, [
    {
      orderId: order.orderId,
      kind: 'status_changed',
      orderStatus: status,
      recipient: order.customerEmail,
      language: order.language,
      notBefore: new Date(Date.now() + settings.statusDelayMs),
    },
  ]);
}

/**
 * In the transaction that changes the status: delivered, the buyer is asked to review what she bought
 * some days later, once per order ever; an order that leaves delivered before then asks nothing.
 */
export async function scheduleReviewRequest(tx: Executor, settings: OrderMailSettings, order: OrderAddressee, status: OrderStatus): Promise<void> {
  if (status !== 'delivered' || settings.reviewRequestDelayMs === null) {
    await supersedeQueuedMails(tx, order.orderId, 'review_request');
    return;
  }
  await queueReviewRequest(tx, { orderId: order.orderId, kind: 'review_request', recipient: order.customerEmail, language: order.language, notBefore: new Date(Date.now() + settings.reviewRequestDelayMs) });
}
