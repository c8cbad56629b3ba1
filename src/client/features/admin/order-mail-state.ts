import type { OrderMail } from '../../../shared/order-mails.js';
import type { Translate } from '../../i18n/i18n.js';
import { formatDateTime } from '../../ui/format-date.js';

/**
 * Where a message of the order stands, in the admin's words. "Next try" belongs to a message whose
 * try failed (it keeps the reason); one never tried, or being sent for the first time, is to be sent
 * at its time.
 */
export function mailStateText(t: Translate, language: string, mail: OrderMail): string {
  const time = (iso: string | null) => formatDateTime(iso, language, t('orders.notAvailable'));
  switch (mail.state) {
    case 'queued':
      return mail.lastError ? t('admin.orders.mails.queuedRetry', { time: time(mail.nextAttemptAt) }) : t('admin.orders.mails.queuedUntil', { time: time(mail.nextAttemptAt ?? mail.createdAt) });
    case 'sent':
      return t('admin.orders.mails.sent', { time: time(mail.sentAt) });
    case 'failed':
      return t('admin.orders.mails.failed', { reason: mail.lastError ?? t('orders.notAvailable') });
    case 'superseded':
      return t('admin.orders.mails.superseded');
  }
}
