import type { OrderMail } from '#shared/order-mails.js';
import type { Translate } from '#client/i18n/i18n.js';
import { formatDateTime, formatTimeOrDateTime } from '#client/ui/format-date.js';

/**
 * Where a message of the order stands, in the admin's words. "Next try" belongs to a message whose
 * try failed (it keeps the reason); one never tried, or being sent for the first time, is to be sent
 * at its time.
 */
export function mailStateText(t: Translate, language: string, mail: OrderMail, now = Date.now()): string {
  const time = (iso: string | null) => formatDateTime(iso, language, t('orders.notAvailable'));
  // A message waits minutes, rarely longer: today's time alone reads best ("Чака изпращане в 17:18").
  const soon = (iso: string | null) => formatTimeOrDateTime(iso, language, t('orders.notAvailable'), now);
  switch (mail.state) {
    case 'queued':
      return mail.lastError ? t('admin.orders.mails.queuedRetry', { time: soon(mail.nextAttemptAt) }) : t('admin.orders.mails.queuedUntil', { time: soon(mail.nextAttemptAt ?? mail.createdAt) });
    case 'sent':
      return t('admin.orders.mails.sent', { time: time(mail.sentAt) });
    case 'failed':
      return t('admin.orders.mails.failed', { reason: mail.lastError ?? t('orders.notAvailable') });
    case 'superseded':
      return t('admin.orders.mails.superseded');
  }
}

/** How often an order is asked again while one of its e-mails waits, so that "Queued" turns into "Sent" before the admin's eyes. */
const QUEUED_MAIL_POLL_MS = 3000;
/** How soon after its time a waiting e-mail is looked at again: a copy just queued by Send again goes out at once. */
const DUE_MAIL_POLL_MS = 500;
/** A message this long past its time is being sent to a slow mail server: the usual pace will do. */
const SLOW_SEND_MS = 5000;

/** When to ask for the order again: soon after its next e-mail is due, and every few seconds while any waits; never when none does. */
export function mailPollInterval(mails: readonly OrderMail[], now = Date.now()): number | false {
  const waits = mails.filter((mail) => mail.state === 'queued').map((mail) => Date.parse(mail.nextAttemptAt ?? mail.createdAt) - now);
  if (waits.length === 0) return false;
  const soonest = Math.min(...waits.filter((wait) => wait > -SLOW_SEND_MS), Infinity);
  return Math.min(QUEUED_MAIL_POLL_MS, Math.max(DUE_MAIL_POLL_MS, soonest + DUE_MAIL_POLL_MS));
}
