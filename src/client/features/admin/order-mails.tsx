import { useId, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { OrderMail } from '#shared/order-mails.js';
import { queryKeys } from '#client/api/query-keys.js';
import { useTranslation, type Translate } from '#client/i18n/i18n.js';
import { ApiError } from '#client/api/http.js';
import { errorText } from '#client/api/error-text.js';
import { resendMail } from './admin-api.js';
import { mailStateText } from './order-mail-state.js';

/** What the message is: "Order confirmation", "Status update: Sent"... */
const mailName = (t: Translate, mail: OrderMail) =>
  t(`admin.orders.mails.kinds.${mail.kind}`, { status: mail.status ? t(`orders.status.${mail.status}`) : t('orders.notAvailable') });

function MailState({ mail }: { mail: OrderMail }) {
  const { t, language } = useTranslation();
  return (
    <>
      <span className={`mail-state mail-state--${mail.state}`}>{mailStateText(t, language, mail)}</span>
      {/* A failed message shows its reason above; one waiting after a failed try says what failed. */}
      {mail.state === 'queued' && mail.lastError && <span className="muted">{t('admin.orders.mails.lastError', { error: mail.lastError })}</span>}
    </>
  );
}

interface OrderMailsProps {
  orderId: string;
  /** Oldest first, as the server sends them. */
  mails: OrderMail[];
  onToast(toast: { message: string; kind: 'success' | 'error' }): void;
}

/** The e-mails the order caused, each with where it stands and a button to send it again. */
export function OrderMails({ orderId, mails, onToast }: OrderMailsProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const headingId = useId();
  // One message at a time: each answer is the whole order, and a second click must not queue a second copy.
  const [resending, setResending] = useState(false);

  const resend = async (mail: OrderMail) => {
    if (resending) return;
    setResending(true);
    const queryKey = queryKeys.adminOrder(orderId);
    try {
      const changed = await resendMail(orderId, mail.id);
      // A poll that left before the copy was queued must not bring back the list without it.
      await queryClient.cancelQueries({ queryKey });
      queryClient.setQueryData(queryKey, changed);
      onToast({ message: t('admin.orders.mails.resent'), kind: 'success' });
    } catch (error) {
      // Another admin's copy may be waiting already: the list is read again to show it.
      void queryClient.invalidateQueries({ queryKey });
      onToast({ message: error instanceof ApiError && error.code === 'mail_waiting' ? errorText(t, error) : t('admin.orders.mails.resendError'), kind: 'error' });
    } finally {
      setResending(false);
    }
  };

  return (
    <>
      <h3 className="order-details__heading" id={headingId}>
        {t('admin.orders.mails.title')}
      </h3>
      {mails.length === 0 ? (
        <p className="muted">{t('admin.orders.mails.empty')}</p>
      ) : (
        <ul className="mail-list" aria-labelledby={headingId}>
          {mails.map((mail) => {
            const name = mailName(t, mail);
            return (
              <li key={mail.id} className="mail-list__item">
                <div className="mail-list__text">
                  <strong>{name}</strong>
                  <span>
                    {t('admin.orders.mails.recipient', { recipient: mail.recipient, language: t(`admin.orders.mails.languages.${mail.language}`) })}
                  </span>
                  <MailState mail={mail} />
                </div>
                {/* A queued message is on its way already; a copy of it would arrive twice. aria-disabled rather
                    than disabled: a disabled button would drop the keyboard focus to the page. */}
                {mail.state !== 'queued' && (
                  <button
                    type="button"
                    className="button button--small"
                    aria-disabled={resending}
                    aria-label={t('admin.orders.mails.resendLabel', { mail: name, recipient: mail.recipient })}
                    onClick={() => void resend(mail)}
                  >
                    {t('admin.orders.mails.resend')}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </>
  );
}
