import { and, asc, eq, inArray } from 'drizzle-orm';
import type { TextLanguage } from '#shared/catalog.js';
import type { OrderMailKind } from '#shared/order-mails.js';
import type { TaxDocumentKind } from '#shared/tax-documents.js';
import type { Executor } from '#server/db/client.js';
import { taxDocuments } from '#server/db/schema.js';
import type { MailAttachment } from '#server/mail/mailer.js';
import { documentFileName } from './document-pdf.js';
import { documentForPdfColumns, storedDocumentPdf, type DocumentForPdf } from './stored-pdf.js';

/** The documents a message about an order carries: the receipt its payment's, the invoice's own message the invoice, a refund's its credit note. */
export async function documentsForMail(db: Executor, mail: { orderId: string; kind: OrderMailKind; subjectId: string | null }): Promise<DocumentForPdf[]> {
  const kinds: Partial<Record<OrderMailKind, TaxDocumentKind[]>> = { payment_received: ['invoice', 'sale_document'], invoice_issued: ['invoice'], refund_made: ['credit_note'] };
  const wanted = kinds[mail.kind];
  if (!wanted) return [];
  return db
    .select(documentForPdfColumns)
    .from(taxDocuments)
    .where(
      and(
        eq(taxDocuments.orderId, mail.orderId),
        inArray(taxDocuments.kind, wanted),
        // A refund's message carries the credit note of that refund, not of an earlier one.
        mail.kind === 'refund_made' && mail.subjectId ? eq(taxDocuments.refundId, mail.subjectId) : undefined,
      ),
    )
    .orderBy(asc(taxDocuments.issuedAt), asc(taxDocuments.kind));
}

/** The documents as PDF files: the Bulgarian original of each, and for a message in English its English copy too. */
export async function documentAttachments(db: Executor, documents: readonly DocumentForPdf[], language: TextLanguage): Promise<MailAttachment[]> {
  const languages: Array<'bg' | 'en'> = language === 'en' ? ['bg', 'en'] : ['bg'];
  const files = documents.flatMap((document) => languages.map((copy) => ({ document, copy })));
  return Promise.all(
    files.map(async ({ document, copy }) => ({ filename: documentFileName(document.content, copy), content: await storedDocumentPdf(db, document, copy), contentType: 'application/pdf' })),
  );
}
