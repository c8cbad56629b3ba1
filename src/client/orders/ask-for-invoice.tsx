import { useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { firstInvoiceBuyerError, invoiceRequestDeadline } from '#shared/invoice-buyer.js';
import type { Order } from '#shared/orders.js';
import type { TaxDocumentSummary } from '#shared/tax-documents.js';
import { errorText } from '#client/api/error-text.js';
import { ApiError, requestJson } from '#client/api/http.js';
import { queryKeys } from '#client/api/query-keys.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { formatDateTime } from '#client/ui/format-date.js';
import { EMPTY_INVOICE_DRAFT, InvoiceRequest, invoiceBuyerOf, type InvoiceDraft } from './invoice-request.js';

type Outcome = 'issued' | 'on_payment';

/** Whether the buyer may still ask for this order's invoice: not cancelled, nothing returned, and paid at most the legal window ago. */
export function invoiceRequestOpen(order: Order, now = Date.now()): boolean {
  if (order.status === 'cancelled' || (order.afterSale?.refundedMinor ?? 0) > 0) return false;
  return !order.payment || now <= invoiceRequestDeadline(order.payment.processedAt).getTime();
}

/**
 * "Ask for an invoice" on an order placed without one: the checkout's form, sent on its own. A paid
 * order gets its invoice at once (and by e-mail), an unpaid one when it is paid. `onIssued` receives
 * the order's documents as they now are.
 */
export function AskForInvoice({ order, onIssued }: { order: Order; onIssued(documents: TaxDocumentSummary[]): void }) {
  const { t, language } = useTranslation();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<InvoiceDraft | null>(null);
  const [fieldError, setFieldError] = useState<{ field: string; messageKey: string } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [sending, setSending] = useState(false);
  const askButton = useRef<HTMLButtonElement>(null);

  if (outcome) {
    return (
      <p className="notice notice--success" role="status">
        {t(outcome === 'issued' ? 'invoice.request.issued' : 'invoice.request.saved')}
      </p>
    );
  }
  if (!order.payment && order.invoiceBuyer) {
    return <p className="muted">{t('invoice.request.onPayment', { name: order.invoiceBuyer.name })}</p>;
  }

  const deadline = order.payment ? invoiceRequestDeadline(order.payment.processedAt).toISOString() : null;
  const close = () => {
    setDraft(null);
    setFieldError(null);
    setProblem(null);
    askButton.current?.focus();
  };

  const submit = async () => {
    if (!draft) return;
    const invoiceBuyer = invoiceBuyerOf(draft)!;
    const invalid = firstInvoiceBuyerError(invoiceBuyer);
    setFieldError(invalid);
    setProblem(null);
    if (invalid) return;
    setSending(true);
    try {
      const answer = await requestJson<{ outcome: Outcome; documents: TaxDocumentSummary[] }>(`/api/orders/${encodeURIComponent(order.orderId)}/invoice`, {
        method: 'POST',
        body: JSON.stringify({ invoiceBuyer }),
      });
      setOutcome(answer.outcome);
      onIssued(answer.documents);
      void queryClient.invalidateQueries({ queryKey: queryKeys.orders() });
    } catch (error) {
      if (error instanceof ApiError && error.details.field?.startsWith('invoiceBuyer.') && error.details.messageKey) {
        setFieldError({ field: error.details.field.slice('invoiceBuyer.'.length), messageKey: error.details.messageKey });
      } else if (error instanceof ApiError && error.details.messageKey?.startsWith('invoice.request.')) {
        setProblem(t(error.details.messageKey));
      } else {
        setProblem(error instanceof ApiError && error.code !== 'internal' ? errorText(t, error) : t('invoice.request.error'));
      }
    } finally {
      setSending(false);
    }
  };

  if (!draft) {
    return (
      <div className="ask-for-invoice">
        {deadline && <p className="muted">{t('invoice.request.until', { date: formatDateTime(deadline, language, '') })}</p>}
        <button ref={askButton} type="button" className="button button--ghost" onClick={() => setDraft({ ...EMPTY_INVOICE_DRAFT, wanted: true })}>
          {t('invoice.request.ask')}
        </button>
      </div>
    );
  }

  return (
    <form
      className="ask-for-invoice"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <InvoiceRequest draft={draft} onChange={setDraft} error={fieldError} afterCheckout />
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
      <div className="ask-for-invoice__actions">
        <button type="submit" className="button button--primary" disabled={sending}>
          {t(sending ? 'invoice.request.sending' : 'invoice.request.submit')}
        </button>
        <button type="button" className="button button--ghost" onClick={close} disabled={sending}>
          {t('invoice.request.cancel')}
        </button>
      </div>
    </form>
  );
}
