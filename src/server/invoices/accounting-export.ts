import { and, asc, eq, gte, inArray, lt } from 'drizzle-orm';
import { csvRow } from '#shared/csv.js';
import { sofiaDate } from '#shared/sofia-time.js';
import type { Executor } from '#server/db/client.js';
import { orders, payments, taxDocuments } from '#server/db/schema.js';
import { decimal, parseTaxMonth } from './audit-file.js';

/**
 * The accountant's CSV of a month (in Sofia): every invoice and credit note issued and every payment
 * received, one row each, with amounts in the document's or payment's own currency. UTF-8 with a byte
 * order mark, so that spreadsheets read the Cyrillic names.
 */
export async function accountingCsv(db: Executor, monthText: string): Promise<string> {
  const { start, end } = parseTaxMonth(monthText);
  const documents = await db
    .select({ content: taxDocuments.content, issuedAt: taxDocuments.issuedAt })
    .from(taxDocuments)
    .where(and(gte(taxDocuments.issuedAt, start), lt(taxDocuments.issuedAt, end), inArray(taxDocuments.kind, ['invoice', 'credit_note'])))
    .orderBy(asc(taxDocuments.series), asc(taxDocuments.number));
  const received = await db
    .select({ payment: payments, currency: orders.currency })
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .where(and(gte(payments.processedAt, start), lt(payments.processedAt, end)))
    .orderBy(asc(payments.processedAt), asc(payments.paymentId));
  const header = ['type', 'number', 'date', 'order', 'corrects', 'buyer', 'buyer_uic', 'buyer_vat_number', 'net', 'vat', 'total', 'currency', 'payment_method', 'reference'];
  const rows = [
    ...documents.map(({ content }) => {
      const buyer = content.buyer;
      return [
        content.kind,
        content.number,
        sofiaDate(new Date(content.issuedAt)),
        content.orderId,
        content.corrects?.number ?? '',
        buyer?.name ?? '',
        buyer?.kind === 'company' ? buyer.uic : '',
        buyer?.kind === 'company' ? buyer.vatNumber : '',
        decimal(content.netMinor),
        decimal(content.vatMinor),
        decimal(content.totalMinor),
        content.currency,
        content.payment.method,
        content.payment.reference,
      ];
    }),
    ...received.map(({ payment, currency }) => ['payment', '', sofiaDate(payment.processedAt), payment.orderId, '', '', '', '', '', '', decimal(payment.amountMinor), currency, payment.method, payment.paymentId]),
  ];
  return `\uFEFF${[header, ...rows].map((row) => csvRow(row)).join('')}`;
}
