import { and, asc, eq, inArray, isNull, or, type SQL } from 'drizzle-orm';
import type { TextLanguage } from '#shared/catalog.js';
import type { OrderMailKind } from '#shared/order-mails.js';
import type { Executor } from '#server/db/client.js';
import { taxDocuments } from '#server/db/schema.js';
import type { MailAttachment } from '#server/mail/mailer.js';
import { documentFileName } from './document-pdf.js';
import { documentForPdfColumns, storedDocumentPdf, type DocumentForPdf } from './stored-pdf.js';

/**
 * The documents a message about an order carries: the receipt its payment's, an invoice asked for
 * later that invoice, a corrected invoice the new one and the credit note that cancelled the one
 * before, a refund its credit note.
 */
export async function documentsForMail(db: Executor, mail: { orderId: string; kind: OrderMailKind; subjectId: string | null }): Promise<DocumentForPdf[]> {
  const ofOrder = eq(taxDocuments.orderId, mail.orderId);
  const select = (where: SQL | undefined) => db.select(documentForPdfColumns).from(taxDocuments).where(and(ofOrder, where)).orderBy(asc(taxDocuments.issuedAt), asc(taxDocuments.number));
  switch (mail.kind) {
    case 'payment_received':
      return select(inArray(taxDocuments.kind, ['invoice', 'sale_document']));
    case 'invoice_issued':
      return select(eq(taxDocuments.kind, 'invoice'));
    case 'invoice_corrected': {
      if (!mail.subjectId) return [];
      const [replacement] = await db.select({ replacedId: taxDocuments.correctsId }).from(taxDocuments).where(eq(taxDocuments.id, mail.subjectId));
      if (!replacement?.replacedId) return [];
      const cancelling = and(eq(taxDocuments.kind, 'credit_note'), isNull(taxDocuments.refundId), eq(taxDocuments.correctsId, replacement.replacedId));
      return select(or(eq(taxDocuments.id, mail.subjectId), cancelling));
    }
    case 'refund_made':
      // The credit note of that refund, not of an earlier one.
      return mail.subjectId ? select(eq(taxDocuments.refundId, mail.subjectId)) : [];
    default:
      return [];
  }
}

/** The documents as PDF files: the Bulgarian original of each, and for a message in English its English copy too. */
export async function documentAttachments(db: Executor, documents: readonly DocumentForPdf[], language: TextLanguage): Promise<MailAttachment[]> {
  const languages: Array<'bg' | 'en'> = language === 'en' ? ['bg', 'en'] : ['bg'];
  const files = documents.flatMap((document) => languages.map((copy) => ({ document, copy })));
  return Promise.all(
    files.map(async ({ document, copy }) => ({ filename: documentFileName(document.content, copy), content: await storedDocumentPdf(db, document, copy), contentType: 'application/pdf' })),
  );
}
