import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Currency } from '#shared/money.js';
import { z } from 'zod';
import { invoiceBuyerSchema } from '#shared/invoice-buyer.js';
import type { TaxDocumentContent, TaxDocumentKind, TaxDocumentSummary } from '#shared/tax-documents.js';
import { requireAdmin, requireUser } from '#server/auth/session.js';
import type { Database } from '#server/db/client.js';
import { orders, taxDocuments } from '#server/db/schema.js';
import { HttpError } from '#server/http/errors.js';
import { documentFileName } from './document-pdf.js';
import { documentForPdfColumns, storedDocumentPdf, type DocumentForPdf } from './stored-pdf.js';
import { accountingCsv } from './accounting-export.js';
import { AuditFileError, auditFileXml, windows1251, type AuditFileSettings } from './audit-file.js';
import { correctInvoiceBuyer } from './invoice-correction.js';
import { requestInvoice, type InvoiceRequestOutcome } from './invoice-request.js';
import { parseInput, pathId, UUID } from '#server/http/validation.js';
import { orderIdOf } from '#server/orders/routes.js';

type WithOrder = { Params: { orderId: string } };
type WithDocument = { Params: { orderId: string; documentId: string } };

/** Who an invoice asked for (or corrected) after checkout is to be made out to. */
const requestInvoiceSchema = z.object({ invoiceBuyer: invoiceBuyerSchema });

/** The documents of an order that the condition lets the asker see (their own order, or any for an admin), in the order issued. */
async function listDocuments(db: Database, orderId: string, visible: SQL | undefined): Promise<TaxDocumentSummary[]> {
  const rows = await db
    .select({ id: taxDocuments.id, kind: taxDocuments.kind, number: taxDocuments.number, issuedAt: taxDocuments.issuedAt, currency: taxDocuments.currency, totalMinor: taxDocuments.totalMinor, content: taxDocuments.content })
    .from(taxDocuments)
    .innerJoin(orders, eq(orders.id, taxDocuments.orderId))
    .where(and(eq(taxDocuments.orderId, orderId), visible))
    .orderBy(asc(taxDocuments.issuedAt), asc(taxDocuments.kind));
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind as TaxDocumentKind,
    number: row.content.number,
    issuedAt: row.issuedAt.toISOString(),
    currency: row.currency as Currency,
    totalMinor: row.totalMinor,
  }));
}

const notFound = (documentId: string) => new HttpError(404, 'not_found', `Document ${documentId.slice(0, 100)} not found`);

/** One document of an order that the condition lets the asker see; its kept PDF only when it is to be sent. */
async function findDocument(db: Database, orderId: string, documentId: string, visible: SQL | undefined, withPdf = false): Promise<DocumentForPdf> {
  if (!UUID.test(documentId)) throw notFound(documentId);
  const [row] = await db
    .select({ ...documentForPdfColumns, originalPdf: withPdf ? documentForPdfColumns.originalPdf : sql<Buffer | null>`null` })
    .from(taxDocuments)
    .innerJoin(orders, eq(orders.id, taxDocuments.orderId))
    .where(and(eq(taxDocuments.id, documentId), eq(taxDocuments.orderId, orderId), visible));
  if (!row) throw notFound(documentId);
  return row;
}

/** An order's invoices, credit notes and sale documents, for its buyer and for the admin. */
export function registerDocumentRoutes(app: FastifyInstance, db: Database, auditSettings: AuditFileSettings): void {
  // The buyer asks for the invoice of an order placed without one.
  app.post<WithOrder>('/api/orders/:orderId/invoice', async (request): Promise<{ outcome: InvoiceRequestOutcome; documents: TaxDocumentSummary[] }> => {
    const user = await requireUser(db, request);
    const orderId = orderIdOf(request.params);
    const { invoiceBuyer } = parseInput(requestInvoiceSchema, request.body);
    const outcome = await requestInvoice(db, user.id, orderId, invoiceBuyer, auditSettings);
    return { outcome, documents: await listDocuments(db, orderId, eq(orders.userId, user.id)) };
  });

  // The admin corrects the buyer of an order's invoice: a credit note, and a new invoice in its place.
  app.post<WithOrder>('/api/admin/orders/:orderId/invoice-correction', async (request): Promise<{ documents: TaxDocumentSummary[] }> => {
    await requireAdmin(db, request);
    const orderId = orderIdOf(request.params);
    const { invoiceBuyer } = parseInput(requestInvoiceSchema, request.body);
    await correctInvoiceBuyer(db, orderId, invoiceBuyer);
    return { documents: await listDocuments(db, orderId, undefined) };
  });

  // The month's audit file for the revenue agency, as `npm run nra:audit` writes it.
  app.get<{ Querystring: { month?: string } }>('/api/admin/audit-file', async (request, reply) => {
    await requireAdmin(db, request);
    const month = String(request.query.month ?? '');
    let audit;
    try {
      audit = await auditFileXml(db, month, auditSettings);
    } catch (error) {
      if (error instanceof AuditFileError) throw new HttpError(409, 'conflict', error.message, { messageKey: error.messageKey });
      throw error;
    }
    return reply
      .header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename="nra-audit-${month}.xml"`)
      .type('application/xml; charset=windows-1251')
      .send(windows1251(audit.xml));
  });

  // An order's documents, listed, opened and as PDFs: through /api/orders for the order's buyer, through /api/admin/orders for the admin.
  for (const prefix of ['/api/orders', '/api/admin/orders'] as const) {
    const visibleTo = async (request: FastifyRequest): Promise<SQL | undefined> =>
      prefix === '/api/admin/orders' ? (await requireAdmin(db, request), undefined) : eq(orders.userId, (await requireUser(db, request)).id);

    app.get<WithOrder>(`${prefix}/:orderId/documents`, async (request, reply): Promise<{ documents: TaxDocumentSummary[] }> => {
      const visible = await visibleTo(request);
      reply.header('cache-control', 'no-store');
      return { documents: await listDocuments(db, orderIdOf(request.params), visible) };
    });

    app.get<WithDocument>(`${prefix}/:orderId/documents/:documentId`, async (request, reply): Promise<{ document: TaxDocumentContent }> => {
      const visible = await visibleTo(request);
      reply.header('cache-control', 'no-store');
      const documentId = pathId(request.params.documentId, 'Document not found');
      return { document: (await findDocument(db, orderIdOf(request.params), documentId, visible)).content };
    });

    app.get<WithDocument & { Querystring: { language?: string } }>(`${prefix}/:orderId/documents/:documentId/pdf`, async (request, reply) => {
      const visible = await visibleTo(request);
      const documentId = pathId(request.params.documentId, 'Document not found');
      const document = await findDocument(db, orderIdOf(request.params), documentId, visible, true);
      // The original is Bulgarian; an English copy on request.
      const language = request.query.language === 'en' ? 'en' : 'bg';
      const name = documentFileName(document.content, language);
      return reply
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="${name}"`)
        .type('application/pdf')
        .send(await storedDocumentPdf(db, document, language));
    });
  }

  // The accountant's CSV of a month's invoices, credit notes and payments.
  app.get<{ Querystring: { month?: string } }>('/api/admin/accounting-export', async (request, reply) => {
    await requireAdmin(db, request);
    const month = String(request.query.month ?? '');
    let csv;
    try {
      csv = await accountingCsv(db, month);
    } catch (error) {
      if (error instanceof AuditFileError) throw new HttpError(400, 'bad_request', error.message, { messageKey: error.messageKey });
      throw error;
    }
    return reply
      .header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename="accounting-${month}.csv"`)
      .type('text/csv; charset=utf-8')
      .send(csv);
  });
}
