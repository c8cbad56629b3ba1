import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireAdmin } from '#server/auth/session.js';
import { productsCsv } from '#server/catalog/product-export.js';
import type { Database } from '#server/db/client.js';
import { HttpError } from '#server/http/errors.js';
import type { ProductImages } from '#server/images/product-images.js';
import { ImportImages } from './import-images.js';
import type { ImportReport } from './import-run.js';
import { ProductCsvError, readProductCsv, type ProductCsvFormat } from './product-csv.js';
import { importProductCsv } from './product-import.js';

/** The CSV file of an upload (multipart, a file named `file`). */
async function readCsvUpload(request: FastifyRequest): Promise<string> {
  if (!request.isMultipart()) throw new HttpError(415, 'unsupported_media_type', 'Send the file as multipart/form-data.');
  let text: string | undefined;
  for await (const part of request.parts()) {
    if (part.type !== 'file' || part.fieldname !== 'file') throw new HttpError(400, 'bad_request', `Unexpected field ${part.fieldname}`);
    text = (await part.toBuffer()).toString('utf8');
  }
  if (!text) throw new HttpError(400, 'bad_request', 'Choose a CSV file.', { field: 'file', messageKey: 'admin.productCsv.errors.noFile' });
  return text;
}

/** The catalogue out as Shopify's product CSV, and other shops' product CSVs in, with a dry run first. */
export function registerProductCsvRoutes(app: FastifyInstance, db: Database, images: ProductImages, publicUrl: string): void {
  app.get('/api/admin/products/export', async (request, reply) => {
    await requireAdmin(db, request);
    return reply
      .header('cache-control', 'no-store')
      .header('content-disposition', 'attachment; filename="products.csv"')
      .type('text/csv; charset=utf-8')
      .send(Readable.from(productsCsv(db, publicUrl)));
  });

  app.post<{ Querystring: { dryRun?: string; format?: string } }>('/api/admin/products/import', async (request): Promise<{ report: ImportReport<'products'> }> => {
    const admin = await requireAdmin(db, request);
    const text = await readCsvUpload(request);
    const format = (['shopify', 'woocommerce'] as const).find((known) => known === request.query.format) satisfies ProductCsvFormat | undefined;
    let csv;
    try {
      csv = readProductCsv(text, format);
    } catch (error) {
      if (error instanceof ProductCsvError) throw new HttpError(400, 'bad_request', error.message, { field: 'file', messageKey: 'admin.productCsv.errors.unreadable' });
      throw error;
    }
    const report = await importProductCsv(db, csv, { dryRun: request.query.dryRun !== 'false', images: new ImportImages(undefined, false), productImages: images, importedBy: admin.email });
    return { report };
  });
}
