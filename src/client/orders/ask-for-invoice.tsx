import { useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { invoiceRequestDeadline, invoiceRequestRefusal } from '#shared/invoice-buyer.js';
import type { Order } from '#shared/orders.js';
import type { TaxDocumentSummary } from '#shared/tax-documents.js';
import { requestJson } from '#client/api/http.js';
import { queryKeys } from '#client/api/query-keys.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { formatDateTime } from '#client/ui/format-date.js';
import { InvoiceBuyerFields, useInvoiceBuyerForm } from './invoice-buyer-form.js';
import { EMPTY_INVOICE_DRAFT } from './invoice-request.js';

type Outcome = 'issued' | 'on_payment';

/** Whether the buyer may still ask for this order's invoice: not cancelled, nothing returned, and paid at most the legal window ago. */
export const invoiceRequestOpen = (order: Order): boolean =>
  invoiceRequestRefusal({ cancelled: order.status === 'cancelled', refunded: (order.afterSale?.refundedMinor ?? 0) > 0, paidAt: order.payment?.processedAt ?? null }) === null;

/**
 * "Ask for an invoice" on an order placed without one: the checkout's form, sent on its own. A paid
 * order gets its invoice at once (and by e-mail), an unpaid one when it is paid. `onIssued` receives
 * the order's documents as they now are.
 */
export function AskForInvoice({ order, onIssued }: { order: Order; onIssued(documents: TaxDocumentSummary[]): void }) {
  const { t, language } = useTranslation();
  const queryClient = useQueryClient();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const askButton = useRef<HTMLButtonElement>(null);
  const form = useInvoiceBuyerForm({
    refusals: 'invoice.request.',
    failed: 'invoice.request.error',
    send: async (invoiceBuyer) => {
      const answer = await requestJson<{ outcome: Outcome; documents: TaxDocumentSummary[] }>(`/api/orders/${encodeURIComponent(order.orderId)}/invoice`, {
        method: 'POST',
        body: JSON.stringify({ invoiceBuyer }),
      });
      setOutcome(answer.outcome);
      onIssued(answer.documents);
      void queryClient.invalidateQueries({ queryKey: queryKeys.orders() });
    },
  });

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
  const { draft } = form;
  if (draft) {
    const cancel = () => {
      form.close();
      askButton.current?.focus();
    };
    return <InvoiceBuyerFields form={{ ...form, draft }} submitLabel={t('invoice.request.submit')} sendingLabel={t('invoice.request.sending')} onCancel={cancel} />;
  }
  const deadline = order.payment ? invoiceRequestDeadline(order.payment.processedAt).toISOString() : null;
  return (
    <div className="ask-for-invoice">
      {deadline && <p className="muted">{t('invoice.request.until', { date: formatDateTime(deadline, language, '') })}</p>}
      <button ref={askButton} type="button" className="button button--ghost" onClick={() => form.open({ ...EMPTY_INVOICE_DRAFT, wanted: true })}>
        {t('invoice.request.ask')}
      </button>
    </div>
  );
}
