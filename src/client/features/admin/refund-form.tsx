import { useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState, type FormEvent } from 'react';
import { parsePriceToMinor, type Currency } from '#shared/money.js';
import type { Refund } from '#shared/withdrawals.js';
import { errorText } from '#client/api/error-text.js';
import { requestJson } from '#client/api/http.js';
import { queryKeys } from '#client/api/query-keys.js';
import { newRequestId } from '#client/api/request-id.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { ConfirmDialog } from '#client/ui/confirm-dialog.js';
import { usePriceText } from '#client/ui/price.js';
import { currencyLabel } from '#client/ui/price-text.js';

/**
 * A refund of an order: of a withdrawal's lines (withdrawalId), or of what is left of the payment.
 * The amount starts at the server's default; a smaller one needs a reason, which the server asks for.
 * Money sent back cannot be taken back, so the admin confirms the amount first.
 */
export function RefundForm({
  orderId,
  withdrawalId,
  defaultMinor,
  currency,
  onToast,
}: {
  orderId: string;
  withdrawalId?: string;
  defaultMinor: number;
  currency: Currency;
  onToast: (toast: { message: string; kind: 'success' | 'error' }) => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const ids = useId();
  const [amount, setAmount] = useState(() => (defaultMinor / 100).toFixed(2));
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<number | null>(null);
  const priceText = usePriceText();
  // One id per refund the admin means to make: a doubled click or a retry after a lost answer refunds once.
  const refundRequest = useRef(newRequestId());

  const askToConfirm = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const minor = parsePriceToMinor(amount);
    if (!minor) return setError(t('returns.errors.amountInvalid'));
    setConfirming(minor);
  };

  const refund = async (minor: number) => {
    setConfirming(null);
    setBusy(true);
    try {
      await requestJson<{ refund: Refund }>(`/api/admin/orders/${encodeURIComponent(orderId)}/refunds`, {
        method: 'POST',
        body: JSON.stringify({ requestId: refundRequest.current, ...(withdrawalId ? { withdrawalId } : {}), amountMinor: minor, ...(reason.trim() ? { reason: reason.trim() } : {}) }),
      });
      refundRequest.current = newRequestId();
      onToast({ message: t('returns.refundDone'), kind: 'success' });
      // The Returns tab's list and the order's page both show what was refunded.
      await Promise.all([queryClient.invalidateQueries({ queryKey: ['admin'] }), queryClient.invalidateQueries({ queryKey: queryKeys.adminOrders() })]);
    } catch (caught) {
      setError(errorText(t, caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="returns-card__refund" onSubmit={askToConfirm} noValidate>
      <div className="field">
        <label className="field__label" htmlFor={`${ids}-amount`}>{t('returns.amount', { currency: currencyLabel(currency) })}</label>
        <input id={`${ids}-amount`} className="field__input" inputMode="decimal" value={amount} onChange={(event) => setAmount(event.target.value)} aria-invalid={error !== null} aria-describedby={error ? `${ids}-error` : undefined} />
      </div>
      <div className="field">
        <label className="field__label" htmlFor={`${ids}-reason`}>{t('returns.refundReason')}</label>
        <textarea id={`${ids}-reason`} className="field__input" value={reason} onChange={(event) => setReason(event.target.value)} rows={2} maxLength={2000} />
      </div>
      {error && (
        <p id={`${ids}-error`} className="form-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="button button--primary" disabled={busy}>
        {t('returns.refund')}
      </button>
      {confirming !== null && (
        <ConfirmDialog
          title={t('returns.confirmRefundTitle')}
          message={t('returns.confirmRefund', { amount: priceText(confirming, currency), orderId })}
          confirmLabel={t('returns.refund')}
          onConfirm={() => void refund(confirming)}
          onCancel={() => setConfirming(null)}
        />
      )}
    </form>
  );
}
