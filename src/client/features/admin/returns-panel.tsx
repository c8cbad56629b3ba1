import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { parsePriceToMinor } from '../../../shared/money.js';
import { adminOrderPath } from '../../../shared/routes.js';
import type { AdminWithdrawal, Refund } from '../../../shared/withdrawals.js';
import { errorText } from '../../api/error-text.js';
import { requestJson } from '../../api/http.js';
import { useTranslation } from '../../i18n/i18n.js';
import { Localized } from '../../i18n/localized.js';
import { formatDateTime } from '../../ui/format-date.js';
import { LinePrice } from '../../ui/line-price.js';
import { Price } from '../../ui/price.js';
import { LoadErrorMessage, LoadingMessage } from '../../ui/state-message.js';

const returnsKey = ['admin', 'withdrawals'] as const;
const newRequestId = () => crypto.randomUUID().replace(/-/g, '');

/** The admin's Returns tab: every withdrawal, the goods received (stock back) and the refund. */
export default function ReturnsPanel({ onToast }: { onToast: (toast: { message: string; kind: 'success' | 'error' }) => void }) {
  const { t } = useTranslation();
  const list = useQuery({
    queryKey: returnsKey,
    queryFn: async () => (await requestJson<{ withdrawals: AdminWithdrawal[] }>('/api/admin/withdrawals')).withdrawals,
    staleTime: 0,
  });
  if (list.isPending) return <LoadingMessage>{t('returns.loading')}</LoadingMessage>;
  if (list.isError) return <LoadErrorMessage message={t('returns.loadError')} onRetry={list.refetch} />;
  if (list.data.length === 0) return <p className="state-message">{t('returns.empty')}</p>;
  return (
    <ul className="returns-list">
      {list.data.map((withdrawal) => (
        <WithdrawalCard key={withdrawal.id} withdrawal={withdrawal} onToast={onToast} />
      ))}
    </ul>
  );
}

function WithdrawalCard({ withdrawal, onToast }: { withdrawal: AdminWithdrawal; onToast: (toast: { message: string; kind: 'success' | 'error' }) => void }) {
  const { t, language } = useTranslation();
  const queryClient = useQueryClient();
  const ids = useId();
  const [amount, setAmount] = useState(() => (withdrawal.suggestedRefundMinor / 100).toFixed(2));
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // One id per refund the admin means to make: a doubled click or a retry after a lost answer refunds once.
  const refundRequest = useRef(newRequestId());
  const left = withdrawal.paidMinor - withdrawal.refundedMinor;

  const refresh = () => queryClient.invalidateQueries({ queryKey: ['admin'] });

  const receive = async () => {
    setBusy(true);
    try {
      await requestJson(`/api/admin/withdrawals/${withdrawal.id}/received`, { method: 'POST' });
      onToast({ message: t('returns.receivedDone'), kind: 'success' });
      await refresh();
    } catch (caught) {
      onToast({ message: errorText(t, caught), kind: 'error' });
    } finally {
      setBusy(false);
    }
  };

  const refund = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const minor = parsePriceToMinor(amount);
    if (!minor) return setError(t('returns.errors.amountInvalid'));
    setBusy(true);
    try {
      await requestJson<{ refund: Refund }>(`/api/admin/orders/${encodeURIComponent(withdrawal.orderId)}/refunds`, {
        method: 'POST',
        body: JSON.stringify({ requestId: refundRequest.current, withdrawalId: withdrawal.id, amountMinor: minor, ...(reason.trim() ? { reason: reason.trim() } : {}) }),
      });
      refundRequest.current = newRequestId();
      onToast({ message: t('returns.refundDone'), kind: 'success' });
      await refresh();
    } catch (caught) {
      setError(errorText(t, caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <li className="returns-card" aria-labelledby={`${ids}-title`}>
      <div className="returns-card__head">
        <h2 id={`${ids}-title`} className="returns-card__title">
          <Link href={adminOrderPath(withdrawal.orderId)}>{t('returns.order', { orderId: withdrawal.orderId })}</Link>
        </h2>
        <span className={`returns-state returns-state--${withdrawal.state}`}>{t(`returns.states.${withdrawal.state}`)}</span>
      </div>
      <p className="muted">
        {t('returns.submitted', { date: formatDateTime(withdrawal.submittedAt, language, ''), name: withdrawal.fullName, email: withdrawal.acknowledgementEmail })}
      </p>
      <ul className="returns-card__lines">
        {withdrawal.lines.map((line) => (
          <li key={line.position}>
            <Localized text={line.name} /> <LinePrice line={line} currency={withdrawal.currency} />
          </li>
        ))}
      </ul>
      {withdrawal.wholeOrder && <p>{t('returns.wholeOrder')}</p>}
      {withdrawal.reason && <p>{t('returns.reason', { reason: withdrawal.reason })}</p>}
      {withdrawal.iban && <p>{t('returns.iban', { iban: withdrawal.iban })}</p>}
      <p>
        {t('returns.paid')}: <Price minor={withdrawal.paidMinor} currency={withdrawal.currency} /> · {t('returns.refunded')}:{' '}
        <Price minor={withdrawal.refundedMinor} currency={withdrawal.currency} />
      </p>
      {withdrawal.state === 'requested' && (
        <button type="button" className="button" onClick={() => void receive()} disabled={busy}>
          {t('returns.receive')}
        </button>
      )}
      {withdrawal.state !== 'refunded' && left > 0 && (
        <form className="returns-card__refund" onSubmit={refund} noValidate>
          <div className="field">
            <label htmlFor={`${ids}-amount`}>{t('returns.amount')}</label>
            <input id={`${ids}-amount`} inputMode="decimal" value={amount} onChange={(event) => setAmount(event.target.value)} />
          </div>
          <div className="field">
            <label htmlFor={`${ids}-reason`}>{t('returns.refundReason')}</label>
            <textarea id={`${ids}-reason`} value={reason} onChange={(event) => setReason(event.target.value)} rows={2} maxLength={2000} />
          </div>
          {error && <p className="form-error" role="alert">{error}</p>}
          <button type="submit" className="button button--primary" disabled={busy}>
            {t('returns.refund')}
          </button>
        </form>
      )}
    </li>
  );
}
