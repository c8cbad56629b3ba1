import { useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Order } from '#shared/orders.js';
import type { TaxDocumentSummary } from '#shared/tax-documents.js';
import { requestJson } from '#client/api/http.js';
import { queryKeys } from '#client/api/query-keys.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { InvoiceBuyerFields, useInvoiceBuyerForm } from '#client/orders/invoice-buyer-form.js';
import { EMPTY_INVOICE_DRAFT } from '#client/orders/invoice-request.js';

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
  const [done, setDone] = useState(false);
  const openButton = useRef<HTMLButtonElement>(null);
  const form = useInvoiceBuyerForm({
    refusals: 'invoice.correction.',
    failed: 'invoice.correction.error',
    send: async (invoiceBuyer) => {
      const answer = await requestJson<{ documents: TaxDocumentSummary[] }>(`/api/admin/orders/${encodeURIComponent(order.orderId)}/invoice-correction`, {
        method: 'POST',
        body: JSON.stringify({ invoiceBuyer }),
      });
      setDone(true);
      onCorrected(answer.documents);
      void queryClient.invalidateQueries({ queryKey: queryKeys.orders() });
    },
  });

  const current = documents.filter((document) => document.kind === 'invoice').at(-1);
  if (!current || (order.afterSale?.refundedMinor ?? 0) > 0) return null;

  const { draft } = form;
  if (draft) {
    const cancel = () => {
      form.close();
      openButton.current?.focus();
    };
    return (
      <InvoiceBuyerFields
        form={{ ...form, draft }}
        legend={t('invoice.correction.title')}
        note={<p className="field__hint">{t('invoice.correction.explanation', { number: current.number })}</p>}
        submitLabel={t('invoice.correction.submit')}
        sendingLabel={t('invoice.correction.sending')}
        onCancel={cancel}
        fillFromProfile={false}
      />
    );
  }
  return (
    <div className="ask-for-invoice">
      {done && (
        <p className="notice notice--success" role="status">
          {t('invoice.correction.done')}
        </p>
      )}
      <button
        ref={openButton}
        type="button"
        className="button button--ghost"
        onClick={() => {
          setDone(false);
          form.open({ ...EMPTY_INVOICE_DRAFT, ...order.invoiceBuyer, wanted: true });
        }}
      >
        {t('invoice.correction.open')}
      </button>
    </div>
  );
}
