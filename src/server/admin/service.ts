import { and, count, desc, eq, inArray, like, or, type SQL } from 'drizzle-orm';
import { MAX_ADMIN_PAGE_SIZE, type AdminOrderPage } from '../../shared/admin.js';
import type { Product, ProductCategory } from '../../shared/catalog.js';
import { isOrderStatus, normalizeOrderStatus, storedValuesOf, type OrderStatus } from '../../shared/order-status.js';
import type { Order, PaymentMethod } from '../../shared/orders.js';
import { findProduct, toProduct } from '../catalog/service.js';
import type { Database } from '../db/client.js';
import { orders, products } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import type { ProductImages } from '../images/product-images.js';
import { findOrderRow, setOrderStatus, withDetails } from '../orders/service.js';

export interface ProductFields {
  name: string;
  description: string;
  priceMinor: number;
  category: ProductCategory | '';
}

/** Adds a product with its image; if the database refuses it, the stored image is removed again. */
export async function createProduct(db: Database, images: ProductImages, fields: ProductFields, image: Buffer): Promise<Product> {
  const id = crypto.randomUUID();
  const imageKey = await images.storeUpload(id, image);
  try {
    const [row] = await db.insert(products).values({ id, ...fields, imageKey }).returning();
    return toProduct(row!);
  } catch (error) {
    await images.remove(imageKey);
    throw error;
  }
}

/** Changes a product, and its image when a new one comes; the old image files are removed after. */
export async function updateProduct(db: Database, images: ProductImages, id: string, fields: ProductFields, image: Buffer | undefined): Promise<Product> {
  const existing = await findProduct(db, id);
  if (!existing) throw new HttpError(404, 'not_found', 'Product not found');
  const imageKey = image ? await images.storeUpload(id, image) : existing.imageKey;
  const [row] = await db
    .update(products)
    .set({ ...fields, imageKey, updatedAt: new Date() })
    .where(eq(products.id, id))
    .returning();
  if (!row) {
    if (image && imageKey) await images.remove(imageKey);
    throw new HttpError(404, 'not_found', 'Product not found');
  }
  if (image && existing.imageKey) await images.remove(existing.imageKey);
  return toProduct(row);
}

export async function deleteProduct(db: Database, images: ProductImages, id: string): Promise<void> {
  const [removed] = await db.delete(products).where(eq(products.id, id)).returning({ imageKey: products.imageKey });
  if (!removed) throw new HttpError(404, 'not_found', 'Product not found');
  if (removed.imageKey) await images.remove(removed.imageKey);
}

export interface OrderQuery {
  status?: OrderStatus;
  /** The beginning of a customer e-mail or of an order id. */
  search?: string;
  page: number;
  pageSize: number;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

/** One page of orders, newest first, filtered in the database (indexes on status, e-mail and id). */
export async function listOrders(db: Database, query: OrderQuery): Promise<AdminOrderPage> {
  const pageSize = Math.min(Math.max(query.pageSize, 1), MAX_ADMIN_PAGE_SIZE);
  const conditions: SQL[] = [];
  if (query.status) conditions.push(inArray(orders.status, storedValuesOf(query.status)));
  const search = query.search?.trim();
  if (search) {
    conditions.push(
      or(like(orders.customerEmail, `${escapeLike(search.toLowerCase())}%`), like(orders.id, `${escapeLike(search.toUpperCase())}%`))!,
    );
  }
  const where = conditions.length ? and(...conditions) : undefined;
  const [rows, [counted]] = await Promise.all([
    db
      .select({
        id: orders.id,
        customerEmail: orders.customerEmail,
        status: orders.status,
        createdAt: orders.createdAt,
        totalMinor: orders.totalMinor,
        itemCount: orders.itemCount,
        paymentMethod: orders.paymentMethod,
      })
      .from(orders)
      .where(where)
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .limit(pageSize)
      .offset((query.page - 1) * pageSize),
    db.select({ total: count() }).from(orders).where(where),
  ]);
  return {
    orders: rows.map((row) => ({
      orderId: row.id,
      customerEmail: row.customerEmail,
      status: normalizeOrderStatus(row.status),
      createdAt: row.createdAt.toISOString(),
      totalMinor: row.totalMinor,
      itemCount: row.itemCount,
      paymentMethod: row.paymentMethod as PaymentMethod,
    })),
    total: counted?.total ?? 0,
    page: query.page,
    pageSize,
  };
}

export async function getOrder(db: Database, orderId: string): Promise<Order> {
  const row = await findOrderRow(db, orderId);
  if (!row) throw new HttpError(404, 'not_found', `Order ${orderId} not found`);
  return (await withDetails(db, [row]))[0]!;
}

/** Any status from any status (spec section 4); the customer's open pages hear of it. */
export async function changeOrderStatus(db: Database, orderId: string, status: unknown): Promise<Order> {
  if (!isOrderStatus(status)) throw new HttpError(400, 'bad_request', 'Invalid status');
  const row = await db.transaction((tx) => setOrderStatus(tx, orderId, status));
  if (!row) throw new HttpError(404, 'not_found', `Order ${orderId} not found`);
  return getOrder(db, orderId);
}
