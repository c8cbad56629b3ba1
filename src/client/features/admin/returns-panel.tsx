import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'wouter';
import { adminOrderPath } from '#shared/routes.js';
import type { AdminWithdrawal } from '#shared/withdrawals.js';
import { errorText } from '#client/api/error-text.js';
import { requestJson } from '#client/api/http.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { Localized } from '#client/i18n/localized.js';
import { formatDateTime } from '#client/ui/format-date.js';
import { LinePrice } from '#client/ui/line-price.js';
import { Price } from '#client/ui/price.js';
import { LoadErrorMessage, LoadingMessage } from '#client/ui/state-message.js';
import { RefundForm } from './refund-form.js';

const returnsKey = ['admin', 'withdrawals'] as const;

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
  const [busy, setBusy] = useState(false);
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
        <RefundForm orderId={withdrawal.orderId} withdrawalId={withdrawal.id} defaultMinor={withdrawal.suggestedRefundMinor} currency={withdrawal.currency} onToast={onToast} />
      )}
    </li>
  );
}
