import { useState, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Order } from '#shared/orders.js';
import type { TaxDocumentSummary } from '#shared/tax-documents.js';
import { requestJson } from '#client/api/http.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { formatSofiaDate } from '#client/ui/format-date.js';
import { Price } from '#client/ui/price.js';
import { AskForInvoice, invoiceRequestOpen } from './ask-for-invoice.js';

interface OrderDocumentsProps {
  order: Order;
  base: '/api/orders' | '/api/admin/orders';
  /** More to do with the documents once they are loaded (the admin's correction); `update` shows them as they then are. */
  actions?(documents: TaxDocumentSummary[], update: (documents: TaxDocumentSummary[]) => void): ReactNode;
}

/**
 * An order's invoices, credit notes and sale documents, each downloadable as a PDF (the Bulgarian
 * original, and an English copy), and for the buyer a way to ask for the invoice she did not ask for
 * at checkout. Asked for only when opened, so a list of orders costs nothing more. `base` is the
 * buyer's API (/api/orders) or the admin's (/api/admin/orders).
 */
export function OrderDocuments({ order, base, actions }: OrderDocumentsProps) {
  const { t, language } = useTranslation();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  // Once asked for, the request keeps its place to say what became of it, though the invoice now shows above.
  const [asked, setAsked] = useState(false);
  const { orderId } = order;
  const queryKey = ['order-documents', base, orderId];
  const documents = useQuery({
    queryKey,
    enabled: open,
    queryFn: async () => (await requestJson<{ documents: TaxDocumentSummary[] }>(`${base}/${orderId}/documents`)).documents,
  });
  const canAsk = base === '/api/orders' && documents.data !== undefined && !documents.data.some((document) => document.kind === 'invoice') && invoiceRequestOpen(order);
  return (
    <details className="order-documents" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>{t('invoice.documents.title')}</summary>
      {documents.isError && (
        <p className="form-error" role="alert">
          {t('invoice.documents.loadError')}
        </p>
      )}
      {documents.data && documents.data.length === 0 && <p className="muted">{t('invoice.documents.none')}</p>}
      {documents.data && documents.data.length > 0 && (
        <ul className="order-documents__list">
          {documents.data.map((document) => {
            const name = t(`invoice.documents.${document.kind}`, { number: document.number });
            const url = `${base}/${orderId}/documents/${document.id}/pdf`;
            return (
              <li key={document.id}>
                <span>
                  {name} {t('invoice.documents.issued', { date: formatSofiaDate(document.issuedAt, language) })} · <Price minor={document.totalMinor} currency={document.currency} />
                </span>{' '}
                <a href={url} download aria-label={t('invoice.documents.download', { document: name })}>
                  PDF
                </a>{' '}
                <a href={`${url}?language=en`} download aria-label={t('invoice.documents.downloadEnglish', { document: name })}>
                  {language === 'bg' ? 'PDF (EN)' : 'PDF (English)'}
                </a>
              </li>
            );
          })}
        </ul>
      )}
      {documents.data && actions?.(documents.data, (issued) => queryClient.setQueryData(queryKey, issued))}
      {(canAsk || asked) && (
        <AskForInvoice
          order={order}
          onIssued={(issued) => {
            setAsked(true);
            queryClient.setQueryData(queryKey, issued);
          }}
        />
      )}
    </details>
  );
}
