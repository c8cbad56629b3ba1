import { eq, sql } from 'drizzle-orm';
import type { TaxDocumentContent } from '#shared/tax-documents.js';
import type { Executor } from '#server/db/client.js';
import { taxDocuments } from '#server/db/schema.js';
import { documentPdf } from './document-pdf.js';

/** An issued document as read for its PDF. */
export interface DocumentForPdf {
  id: string;
  content: TaxDocumentContent;
  originalPdf: Buffer | null;
}

export const documentForPdfColumns = { id: taxDocuments.id, content: taxDocuments.content, originalPdf: taxDocuments.originalPdf };

/**
 * A document's PDF: the Bulgarian original as the shop keeps it, made and kept the first time it is
 * asked for (a later version of the shop or its fonts never changes a document already sent), or an
 * English copy, made each time. Two first asks at once keep one file: the first to write it.
 */
export async function storedDocumentPdf(db: Executor, document: DocumentForPdf, language: 'bg' | 'en'): Promise<Buffer> {
  if (language === 'en') return documentPdf(document.content, 'en');
  if (document.originalPdf) return document.originalPdf;
  const made = await documentPdf(document.content, 'bg');
  const [kept] = await db
    .update(taxDocuments)
    .set({ originalPdf: sql`coalesce(${taxDocuments.originalPdf}, ${made})` })
    .where(eq(taxDocuments.id, document.id))
    .returning({ originalPdf: taxDocuments.originalPdf });
  return kept?.originalPdf ?? made;
}
