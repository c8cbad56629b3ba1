import type { TextLanguage } from './catalog.js';
import type { OrderStatus } from './order-status.js';

/**
 * The e-mails an order causes: to the customer, a confirmation when it is placed, a receipt when it
 * is paid and a word on each status change they should know of; to the owner, a new-order notice.
 * Returns have their own messages; an invoice asked for after the payment, and a corrected one, come by themselves;
 * some days after delivery, one request to review what she bought.
 */
export const ORDER_MAIL_KINDS = ['order_placed', 'payment_received', 'status_changed', 'new_order', 'withdrawal_received', 'withdrawal_notice', 'refund_made', 'invoice_issued', 'invoice_corrected', 'gift_cards_issued', 'review_request'] as const;
export type OrderMailKind = (typeof ORDER_MAIL_KINDS)[number];

/** The statuses a customer is told of; pending and paid have their own messages (or need none). */
const NOTIFIED_STATUSES = ['preparing', 'sent', 'ready', 'delivered', 'cancelled'] as const satisfies readonly OrderStatus[];
export type NotifiedStatus = (typeof NOTIFIED_STATUSES)[number];

export const isNotifiedStatus = (status: OrderStatus): status is NotifiedStatus => (NOTIFIED_STATUSES as readonly OrderStatus[]).includes(status);

/**
 * Where a message is: waiting to be sent (or being sent, or waiting to be tried again after a
 * failure), sent, given up on, or replaced by a later status change before it was sent.
 */
export type MailState = 'queued' | 'sent' | 'failed' | 'superseded';

/** One message of an order, as the admin sees it. */
export interface OrderMail {
  id: string;
  kind: OrderMailKind;
  /** The status a status_changed message tells of. */
  status: OrderStatus | null;
  recipient: string;
  language: TextLanguage;
  state: MailState;
  /** How many times sending was tried. */
  attempts: number;
  /** Why the latest try failed: for a queued message, why it waits; for a failed one, why it stopped. */
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
  /** When a queued message is sent (or tried again). */
  nextAttemptAt: string | null;
}

/** The most times a message is tried before it is marked failed. */
export const MAX_MAIL_ATTEMPTS = 12;
