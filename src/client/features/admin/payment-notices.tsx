import { useId } from 'react';
import type { Currency } from '#shared/money.js';
import type { PaymentNotice } from '#shared/payments.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { formatDateTime } from '#client/ui/format-date.js';
import { Price } from '#client/ui/price.js';

/** What the payment providers said about an order, signed or not, and what the shop made of each. */
export function PaymentNotices({ notices, currency }: { notices: PaymentNotice[]; currency: Currency }) {
  const { t, language } = useTranslation();
  const id = useId();
  if (notices.length === 0) return null;
  return (
    <section aria-labelledby={`${id}-notices`}>
      <h3 id={`${id}-notices`} className="order-details__heading">
        {t('admin.orders.paymentNotices')}
      </h3>
      <ul className="timeline">
        {notices.map((notice) => (
          <li key={notice.id} className={notice.verified ? undefined : 'timeline__warning'}>
            <strong>{notice.eventType ?? notice.provider}</strong>{' '}
            {notice.amountMinor !== null && notice.currency === currency && (
              <>
                <Price minor={notice.amountMinor} currency={currency} />{' '}
              </>
            )}
            {notice.amountMinor !== null && notice.currency !== currency && notice.currency && <span>{`${(notice.amountMinor / 100).toFixed(2)} ${notice.currency}`} </span>}
            <span className="muted">
              ({notice.verified ? t('admin.orders.noticeVerified') : t('admin.orders.noticeRefused')}: {t(`admin.orders.noticeOutcome.${notice.outcome}`)})
            </span>{' '}
            <time dateTime={notice.receivedAt}>{formatDateTime(notice.receivedAt, language, t('orders.notAvailable'))}</time>
          </li>
        ))}
      </ul>
    </section>
  );
}
