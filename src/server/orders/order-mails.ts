import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { BankAccount } from '#shared/payment-methods.js';
import { TEXT_LANGUAGES, type TextLanguage } from '#shared/catalog.js';
import { isDeletedEmailPlaceholder } from '#shared/account.js';
import { isNotifiedStatus, type OrderMailKind } from '#shared/order-mails.js';
import type { OrderStatus } from '#shared/order-status.js';
import type { Executor } from '#server/db/client.js';
import { admins, mailQueue } from '#server/db/schema.js';
import { lastToldStatus, mailWorkersWakeUp, queueMails, queueReviewRequest, supersedeQueuedMails } from '#server/mail/mail-queue.js';

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
 * Who hears of an order's event, each in their language: ORDER_NOTIFY_LANGUAGE when set, else the
 * language the admin last used the dashboard in, else English. A query of (recipient, language),
 * read by the statement that queues the notices, so that telling the owners costs no round trip of its own.
 */
function ownersToNotify(settings: OrderMailSettings): SQL {
  const { notifyEmails, notifyLanguage } = settings;
  const languageOf = (column: SQL) =>
    notifyLanguage ? sql`${notifyLanguage}::text` : sql`coalesce(case when ${column} in (${sql.join(TEXT_LANGUAGES.map((language) => sql`${language}`), sql`, `)}) then ${column} end, 'en')`;
  if (notifyEmails.length === 0) {
    return sql`select coalesce(${admins.email}, ${admins.id}) as recipient, ${languageOf(sql`${admins.language}`)} as language from ${admins}`;
  }
  // An admin is found by the id or the email field; the setting's addresses are trimmed and in lower
  // case (config.ts), as both fields are.
  return sql`select listed.email as recipient, ${languageOf(sql`admin.language`)} as language
    from unnest(array[${sql.join(notifyEmails.map((email) => sql`${email}`), sql`, `)}]::text[]) as listed(email)
    left join lateral (select ${admins.language} from ${admins} where ${admins.id} = listed.email or ${admins.email} = listed.email limit 1) admin on true`;
}

/**
 * A message to the one an order's event concerns (its customer, or whoever asked), queued beside the
 * owners' notices of it; placeholders for a statement prepared once (the checkout's).
 */
interface MailWithOwnerNotices {
  orderId: string | Placeholder;
  /** The withdrawal a returns message tells of. */
  subjectId?: string;
  mail: { kind: OrderMailKind; recipient: string | Placeholder; language: TextLanguage | Placeholder };
  ownersKind: OrderMailKind;
}

/**
 * The message and the owners' notices as one insert into the queue, not yet run: the checkout runs
 * it within its own statement, which also wakes the mail workers (mailWorkersWakeUp). A deleted
 * account's placeholder address gets nothing, as in queueMails (a recipient still to come is the
 * checkout's buyer, who is signed in).
 */
function mailWithOwnerNotices(settings: OrderMailSettings, event: MailWithOwnerNotices): SQL {
  const subjectId = sql`${event.subjectId ?? null}::uuid`;
  const owners = sql`select ${event.orderId}, ${event.ownersKind}, ${subjectId}, recipient, language from (${ownersToNotify(settings)}) owners`;
  const { kind, recipient, language } = event.mail;
  const rows = typeof recipient === 'string' && isDeletedEmailPlaceholder(recipient) ? owners : sql`select ${event.orderId}, ${kind}, ${subjectId}, ${recipient}, ${language} union all ${owners}`;
  return sql`insert into ${mailQueue} (order_id, kind, subject_id, recipient, language) ${rows}`;
}

/** In the transaction of an order's event: the message and the owners' notices, with the workers' wake-up, in one round trip. */
export async function queueMailWithOwnerNotices(tx: Executor, settings: OrderMailSettings, event: MailWithOwnerNotices): Promise<void> {
  await tx.execute(sql`with queued as (${mailWithOwnerNotices(settings, event)}) select ${mailWorkersWakeUp}`);
}

/** In the statement that places the order: the customer's confirmation and the owners' new-order notices, as mailWithOwnerNotices's insert. */
export function orderPlacedMails(settings: OrderMailSettings, order: { [Key in keyof OrderAddressee]: Placeholder }): SQL {
  return mailWithOwnerNotices(settings, { orderId: order.orderId, mail: { kind: 'order_placed', recipient: order.customerEmail, language: order.language }, ownersKind: 'new_order' });
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
