import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ADMIN_ORDERS_PAGE_SIZE, type AdminOrderDetail, type AdminOrderPage } from '#shared/admin.js';
import { productFieldsSchema, productModelSchema, type ProductModelInput, type SearchSynonyms } from '#shared/catalog-schemas.js';
import type { NailSizeChart } from '#shared/nail-sizes.js';
import { WORK_LIST_STATUSES, type WorkListResponse } from '#shared/work-list.js';
import { photoOrderSchema } from '#shared/photo-schemas.js';
import { TEXT_LANGUAGES, type Product } from '#shared/catalog.js';
import type { Order } from '#shared/orders.js';
import { dashboardQuerySchema, type Dashboard } from '#shared/dashboard.js';
import type { Currency } from '#shared/money.js';
import { STOCK_FILTERS, type StockChange } from '#shared/stock.js';
import type { OrderStatus } from '#shared/order-status.js';
import { orderSearchSchema, orderStatusSchema } from '#shared/admin-order-schemas.js';
import { setAdminLanguage } from '#server/auth/roles.js';
import { requireAdmin } from '#server/auth/session.js';
import { addPhoto, arrangePhotos, removePhoto } from '#server/catalog/photos.js';
import { ADMIN_PRODUCTS_LIMIT, listProducts } from '#server/catalog/product-queries.js';
import { createProduct, deleteProduct, updateProduct, type ProductFields, type StockInput } from '#server/catalog/product-writes.js';
import { readSearchSynonyms, saveSearchSynonyms } from '#server/catalog/search-synonyms.js';
import { saveSizeChart } from '#server/catalog/size-chart.js';
import type { Database } from '#server/db/client.js';
import { HttpError } from '#server/http/errors.js';
import { invalidInput, parseInput } from '#server/http/validation.js';
import type { ProductImages } from '#server/images/product-images.js';
import { listOrderMails, resendMail } from '#server/mail/mail-queue.js';
import type { ShopMetrics } from '#server/metrics/shop-metrics.js';
import type { OrderMailSettings } from '#server/orders/order-mails.js';
import { getOrder, searchOrders } from '#server/orders/order-queries.js';
import { orderIdOf } from '#server/orders/routes.js';
import { changeOrderStatus } from '#server/orders/status-changes.js';
import { paymentNoticesOf } from '#server/payments/online-payments.js';
import { countedPayment, recordBankTransfer, recordCashPayment } from '#server/payments/service.js';
import type { DocumentSettings } from '#server/invoices/issue-documents.js';
import { stockChangesOfOrder, stockChangesOfProduct } from '#server/stock/service.js';
import { workList } from './work-list.js';
import { dashboard } from './dashboard.js';
import { ordersCsv, periodBounds } from './orders-export.js';

interface ProductForm {
  fields: ProductFields;
  stock: StockInput;
  /** Absent: sold as it is when created, unchanged when edited. */
  model: ProductModelInput | undefined;
  image: Buffer | undefined;
}

/** The form's `model` field: JSON of the product's options, sizing, questions and lead time; empty is the same as absent. */
function readModel(text: string | undefined): ProductModelInput | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  let model: unknown;
  try {
    model = JSON.parse(text);
  } catch {
    throw invalidInput('model', 'admin.products.messages.invalidModel');
  }
  // Wrapped, so that a refusal's field names its place in the model: model.optionGroups.0.values.1.id
  return parseInput(modelFieldSchema, { model }).model;
}

const modelFieldSchema = z.object({ model: productModelSchema });

/** Reads the product form (multipart: text fields and at most one image file). */
async function readProductForm(request: FastifyRequest): Promise<ProductForm> {
  if (!request.isMultipart()) throw new HttpError(415, 'unsupported_media_type', 'Send the product as multipart/form-data.');
  const values: Record<string, string> = {};
  let image: Buffer | undefined;
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      if (part.fieldname !== 'image') throw new HttpError(400, 'bad_request', `Unexpected file ${part.fieldname}`);
      const content = await part.toBuffer();
      if (content.length > 0) image = content;
    } else {
      values[part.fieldname] = String(part.value ?? '');
    }
  }
  const { nameEn, nameBg, descriptionEn, descriptionBg, price, category, stock, stockSeen, weight } = parseInput(productFieldsSchema, values);
  return {
    fields: { name: { en: nameEn, bg: nameBg }, description: { en: descriptionEn, bg: descriptionBg }, priceMinor: price, category, weightGrams: weight },
    stock: { stock, stockSeen },
    model: readModel(values.model),
    image,
  };
}

/** The one image of a photo upload (multipart, a file named `image`). */
async function readPhotoUpload(request: FastifyRequest): Promise<Buffer> {
  if (!request.isMultipart()) throw new HttpError(415, 'unsupported_media_type', 'Send the photo as multipart/form-data.');
  let image: Buffer | undefined;
  for await (const part of request.parts()) {
    if (part.type !== 'file' || part.fieldname !== 'image') throw new HttpError(400, 'bad_request', `Unexpected field ${part.fieldname}`);
    const content = await part.toBuffer();
    if (content.length > 0) image = content;
  }
  if (!image) throw invalidInput('image', 'admin.products.messages.imageRequired');
  return image;
}

const idParam = z.object({ id: z.uuid({ error: 'Product ID is required' }) });
const mailParam = z.object({ mailId: z.uuid({ error: 'E-mail ID is required' }) });
const photoParams = z.object({ id: z.uuid({ error: 'Product ID is required' }), photoId: z.uuid({ error: 'Photo ID is required' }) });
// lang: the admin's language, whose names the table is sorted by (names are bilingual).
const productQuerySchema = z.object({ stock: z.enum(STOCK_FILTERS).optional().catch(undefined), lang: z.enum(TEXT_LANGUAGES).catch('en').default('en') });
const workListQuerySchema = z.object({ status: z.enum(WORK_LIST_STATUSES, { error: 'Unknown work list status' }).optional() });
const adminLanguageSchema = z.object({ language: z.enum(TEXT_LANGUAGES) });
const orderQuerySchema = z.object({
  status: orderStatusSchema.optional().catch(undefined),
  q: orderSearchSchema.optional(),
  // Positions in the list, opaque here: searchOrders refuses one that names no position (invalid_cursor).
  after: z.string().optional(),
  before: z.string().optional(),
  pageSize: z.coerce.number().int().min(1).max(100).default(ADMIN_ORDERS_PAGE_SIZE),
}).refine((query) => query.after === undefined || query.before === undefined, { error: 'Give either after or before, not both' });

/** The order as the admin sees it, with its stock changes and e-mails. */
async function orderDetail(db: Database, orderId: string, order?: Order): Promise<AdminOrderDetail> {
  const [found, stockChanges, mails, notices] = await Promise.all([
    order ?? getOrder(db, orderId),
    stockChangesOfOrder(db, orderId),
    listOrderMails(db, orderId),
    paymentNoticesOf(db, orderId),
  ]);
  return { order: found, stockChanges, mails, paymentNotices: notices };
}

/** The admin's dashboard of sales, best sellers, stock and work, in the shop's currency. */
export function registerDashboardRoutes(app: FastifyInstance, db: Database, currency: Currency): void {
  app.get('/api/admin/dashboard', async (request, reply): Promise<Dashboard> => {
    await requireAdmin(db, request);
    const range = parseInput(dashboardQuerySchema, request.query);
    reply.header('cache-control', 'no-store');
    return dashboard(db, currency, range);
  });
}

export function registerAdminRoutes(
  app: FastifyInstance,
  db: Database,
  images: ProductImages,
  mailSettings: OrderMailSettings,
  metrics: ShopMetrics,
  documents: DocumentSettings,
): void {
  app.get('/api/admin/access', async (request) => {
    await requireAdmin(db, request);
    return { admin: true };
  });

  // The dashboard tells the language it is used in, so that this admin's new-order notices come in it.
  app.put<{ Body: { language?: unknown } }>('/api/admin/language', async (request, reply) => {
    const admin = await requireAdmin(db, request);
    const { language } = parseInput(adminLanguageSchema, request.body ?? {});
    await setAdminLanguage(db, admin.email, language);
    return reply.status(204).send();
  });

  app.get('/api/admin/products', async (request, reply): Promise<{ products: Product[]; total: number }> => {
    await requireAdmin(db, request);
    const { stock, lang } = parseInput(productQuerySchema, request.query);
    reply.header('cache-control', 'no-store');
    return listProducts(db, { stock, language: lang, pageSize: ADMIN_PRODUCTS_LIMIT });
  });

  app.post('/api/admin/products', async (request, reply) => {
    const admin = await requireAdmin(db, request);
    const { fields, stock, model, image } = await readProductForm(request);
    if (!image) throw new HttpError(400, 'bad_request', 'Please select an image for the product', { field: 'image', messageKey: 'admin.products.messages.imageRequired' });
    return reply.status(201).send({ product: await createProduct(db, images, fields, stock.stock ?? null, image, admin.email, model) });
  });

  app.put('/api/admin/products/:id', async (request): Promise<{ product: Product }> => {
    const admin = await requireAdmin(db, request);
    const { id } = parseInput(idParam, request.params);
    const { fields, stock, model, image } = await readProductForm(request);
    if (image) throw new HttpError(400, 'bad_request', `Photos are added at /api/admin/products/${id}/photos`);
    return { product: await updateProduct(db, id, fields, stock, admin.email, model) };
  });

  // Photos are added one per request, so that the browser can show each file's progress.
  app.post('/api/admin/products/:id/photos', async (request, reply) => {
    await requireAdmin(db, request);
    const { id } = parseInput(idParam, request.params);
    const image = await readPhotoUpload(request);
    return reply.status(201).send({ product: await addPhoto(db, images, id, image) });
  });

  app.put('/api/admin/products/:id/photos', async (request): Promise<{ product: Product }> => {
    await requireAdmin(db, request);
    const { id } = parseInput(idParam, request.params);
    return { product: await arrangePhotos(db, id, parseInput(photoOrderSchema, request.body)) };
  });

  app.delete('/api/admin/products/:id/photos/:photoId', async (request): Promise<{ product: Product }> => {
    await requireAdmin(db, request);
    const { id, photoId } = parseInput(photoParams, request.params);
    return { product: await removePhoto(db, images, id, photoId) };
  });

  app.get('/api/admin/products/:id/stock-changes', async (request, reply): Promise<{ stockChanges: StockChange[] }> => {
    await requireAdmin(db, request);
    const { id } = parseInput(idParam, request.params);
    reply.header('cache-control', 'no-store');
    return { stockChanges: await stockChangesOfProduct(db, id) };
  });

  app.delete('/api/admin/products/:id', async (request, reply) => {
    await requireAdmin(db, request);
    const { id } = parseInput(idParam, request.params);
    await deleteProduct(db, images, id);
    return reply.status(204).send();
  });

  app.put('/api/admin/size-chart', async (request): Promise<NailSizeChart> => {
    await requireAdmin(db, request);
    return saveSizeChart(db, request.body);
  });

  app.get('/api/admin/search-synonyms', async (request, reply): Promise<SearchSynonyms> => {
    await requireAdmin(db, request);
    reply.header('cache-control', 'no-store');
    return readSearchSynonyms(db);
  });

  app.put('/api/admin/search-synonyms', async (request): Promise<SearchSynonyms> => {
    await requireAdmin(db, request);
    return saveSearchSynonyms(db, request.body);
  });

  // The maker's work list: lines of open orders still to be made, soonest due first.
  app.get('/api/admin/work-list', async (request, reply): Promise<WorkListResponse> => {
    await requireAdmin(db, request);
    const { status } = parseInput(workListQuerySchema, request.query);
    reply.header('cache-control', 'no-store');
    return workList(db, status);
  });

  app.get('/api/admin/orders', async (request, reply): Promise<AdminOrderPage> => {
    await requireAdmin(db, request);
    const query = parseInput(orderQuerySchema, request.query);
    reply.header('cache-control', 'no-store');
    return searchOrders(db, { status: query.status as OrderStatus | undefined, search: query.q, after: query.after, before: query.before, pageSize: query.pageSize });
  });

  // The orders of a period for the accountant, as CSV in the admin's language.
  app.get<{ Querystring: { from?: string; to?: string; language?: string } }>('/api/admin/orders-export', async (request, reply) => {
    await requireAdmin(db, request);
    const period = { from: String(request.query.from ?? ''), to: String(request.query.to ?? '') };
    periodBounds(period);
    const language = request.query.language === 'bg' ? 'bg' : 'en';
    return reply
      .header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename="orders-${period.from}-${period.to}.csv"`)
      .type('text/csv; charset=utf-8')
      .send(Readable.from(ordersCsv(db, period, language)));
  });

  app.get<{ Params: { orderId: string } }>('/api/admin/orders/:orderId', async (request, reply): Promise<AdminOrderDetail> => {
    await requireAdmin(db, request);
    const orderId = orderIdOf(request.params);
    reply.header('cache-control', 'no-store');
    return orderDetail(db, orderId);
  });

  app.patch<{ Params: { orderId: string }; Body: { status?: unknown } }>('/api/admin/orders/:orderId/status', async (request): Promise<AdminOrderDetail> => {
    await requireAdmin(db, request);
    const orderId = orderIdOf(request.params);
    const status = parseInput(orderStatusSchema, request.body?.status);
    const order = await changeOrderStatus(db, orderId, status, mailSettings);
    return orderDetail(db, orderId, order);
  });

  app.post<{ Params: { orderId: string } }>('/api/admin/orders/:orderId/cash-payment', async (request): Promise<AdminOrderDetail> => {
    await requireAdmin(db, request);
    return countedPayment(metrics, 'cash_on_delivery', async () => {
      const orderId = orderIdOf(request.params);
      await recordCashPayment(db, orderId, mailSettings, documents);
      return orderDetail(db, orderId);
    });
  });

  app.post<{ Params: { orderId: string } }>('/api/admin/orders/:orderId/bank-transfer', async (request): Promise<AdminOrderDetail> => {
    await requireAdmin(db, request);
    return countedPayment(metrics, 'bank_transfer', async () => {
      const orderId = orderIdOf(request.params);
      await recordBankTransfer(db, orderId, documents);
      return orderDetail(db, orderId);
    });
  });

  app.post<{ Params: { orderId: string; mailId: string } }>('/api/admin/orders/:orderId/mails/:mailId/resend', async (request): Promise<AdminOrderDetail> => {
    await requireAdmin(db, request);
    const orderId = orderIdOf(request.params);
    const { mailId } = parseInput(mailParam, { mailId: request.params.mailId });
    const resent = await resendMail(db, orderId, mailId);
    if (resent === 'not_found') throw new HttpError(404, 'not_found', `Order ${orderId} has no such e-mail`);
    if (resent === 'waiting') throw new HttpError(409, 'mail_waiting', 'This e-mail, or a copy of it, is still waiting to be sent');
    return orderDetail(db, orderId);
  });
}
