import { useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { firstInvoiceBuyerError } from '#shared/invoice-buyer.js';
import type { Order } from '#shared/orders.js';
import type { TaxDocumentSummary } from '#shared/tax-documents.js';
import { errorText } from '#client/api/error-text.js';
import { ApiError, requestJson } from '#client/api/http.js';
import { queryKeys } from '#client/api/query-keys.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { EMPTY_INVOICE_DRAFT, InvoiceRequest, invoiceBuyerOf, type InvoiceDraft } from '#client/orders/invoice-request.js';

interface CorrectInvoiceProps {
  order: Order;
  documents: TaxDocumentSummary[];
  onCorrected(documents: TaxDocumentSummary[]): void;
}

/**
 * The admin corrects the buyer of an order's invoice: a credit note cancels the invoice and a new one
 * is issued in its place, both e-mailed to the buyer. Not offered once money was returned: the
 * refunds' credit notes already correct that invoice.
 */
export function CorrectInvoice({ order, documents, onCorrected }: CorrectInvoiceProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<InvoiceDraft | null>(null);
  const [fieldError, setFieldError] = useState<{ field: string; messageKey: string } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [sending, setSending] = useState(false);
  const openButton = useRef<HTMLButtonElement>(null);

  const invoices = documents.filter((document) => document.kind === 'invoice');
  const current = invoices.at(-1);
  if (!current || (order.afterSale?.refundedMinor ?? 0) > 0) return null;

  const open = () => {
    const buyer = order.invoiceBuyer;
    setDraft(buyer ? { ...EMPTY_INVOICE_DRAFT, ...buyer, wanted: true } : { ...EMPTY_INVOICE_DRAFT, wanted: true });
    setDone(false);
  };
  const close = () => {
    setDraft(null);
    setFieldError(null);
    setProblem(null);
    openButton.current?.focus();
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
      const answer = await requestJson<{ documents: TaxDocumentSummary[] }>(`/api/admin/orders/${encodeURIComponent(order.orderId)}/invoice-correction`, {
        method: 'POST',
        body: JSON.stringify({ invoiceBuyer }),
      });
      setDraft(null);
      setDone(true);
      onCorrected(answer.documents);
      void queryClient.invalidateQueries({ queryKey: queryKeys.orders() });
    } catch (error) {
      if (error instanceof ApiError && error.details.field?.startsWith('invoiceBuyer.') && error.details.messageKey) {
        setFieldError({ field: error.details.field.slice('invoiceBuyer.'.length), messageKey: error.details.messageKey });
      } else if (error instanceof ApiError && error.details.messageKey?.startsWith('invoice.correction.')) {
        setProblem(t(error.details.messageKey));
      } else {
        setProblem(error instanceof ApiError && error.code !== 'internal' ? errorText(t, error) : t('invoice.correction.error'));
      }
    } finally {
      setSending(false);
    }
  };

  if (!draft) {
    return (
      <div className="ask-for-invoice">
        {done && (
          <p className="notice notice--success" role="status">
            {t('invoice.correction.done')}
          </p>
        )}
        <button ref={openButton} type="button" className="button button--ghost" onClick={open}>
          {t('invoice.correction.open')}
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
      <InvoiceRequest draft={draft} onChange={setDraft} error={fieldError} afterCheckout legend={t('invoice.correction.title')} fillFromProfile={false} />
      <p className="field__hint">{t('invoice.correction.explanation', { number: current.number })}</p>
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
      <div className="ask-for-invoice__actions">
        <button type="submit" className="button button--primary" disabled={sending}>
          {t(sending ? 'invoice.correction.sending' : 'invoice.correction.submit')}
        </button>
        <button type="button" className="button button--ghost" onClick={close} disabled={sending}>
          {t('invoice.request.cancel')}
        </button>
      </div>
    </form>
  );
}
