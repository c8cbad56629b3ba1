import { asc, count, eq, max, sql, type SQL } from 'drizzle-orm';
import sharp from 'sharp';
import type { CatalogueResponse, Product, ProductCategory } from '../../shared/catalog.js';
import { LOW_STOCK_MAX, type StockFilter } from '../../shared/stock.js';
import type { Database, Executor } from '../db/client.js';
import { products, shopState } from '../db/schema.js';
import { inTransaction } from '../db/transaction.js';
import { HttpError } from '../http/errors.js';
import { imageUrlForKey, type ProductImages } from '../images/product-images.js';
import { announceCatalogueChange } from '../live/live-hub.js';
import { lockForStockChange, recordStockSet } from '../stock/service.js';
import { demoProducts } from './demo-catalogue.js';

type ProductRow = typeof products.$inferSelect;

export function toProduct(row: ProductRow): Product {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    priceMinor: row.priceMinor,
    category: row.category as Product['category'],
    stock: row.stock,
    imageUrl: imageUrlForKey(row.imageKey),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The catalogue is a handmade shop's: small, so one page of it is the whole of it in practice. */
export const CATALOGUE_PAGE_SIZE = 200;

const stockConditions: Record<StockFilter, SQL> = {
  soldOut: sql`${products.stock} = 0`,
  low: sql`${products.stock} between 1 and ${LOW_STOCK_MAX}`,
};

/** The catalogue, or (for the admin) only its sold-out or low-stock products. */
export async function listProducts(db: Database, stock?: StockFilter): Promise<Product[]> {
  const rows = await db
    .select()
    .from(products)
    .where(stock ? stockConditions[stock] : undefined)
    .orderBy(asc(products.name), asc(products.id))
    .limit(CATALOGUE_PAGE_SIZE);
  return rows.map(toProduct);
}

const CATALOGUE_VERSION = 'catalogue_version';

/** The catalogue's version: how many changes it has had (0 before the first). */
export async function catalogueVersion(db: Executor): Promise<number> {
  const [row] = await db.select({ value: shopState.value }).from(shopState).where(eq(shopState.key, CATALOGUE_VERSION));
  return row ? Number(row.value) : 0;
}

/**
 * Counts a change to the catalogue and tells every open page, in the transaction that makes the
 * change. Changes take turns on the version's row, which only admins' edits ever wait for.
 */
async function catalogueChanged(tx: Executor): Promise<void> {
  const [row] = await tx
    .insert(shopState)
    .values({ key: CATALOGUE_VERSION, value: '1' })
    .onConflictDoUpdate({ target: shopState.key, set: { value: sql`(${shopState.value}::bigint + 1)::text`, updatedAt: sql`now()` } })
    .returning({ value: shopState.value });
  await announceCatalogueChange(tx, Number(row!.value));
}

/**
 * The catalogue with the version it was read at. The version is read first: the products may then
 * be newer than it says, which costs a page one needless refresh, but never older.
 */
export async function listCatalogue(db: Database): Promise<CatalogueResponse> {
  const version = await catalogueVersion(db);
  return { products: await listProducts(db), version };
}

export async function findProduct(db: Executor, id: string): Promise<ProductRow | undefined> {
  const [row] = await db.select().from(products).where(eq(products.id, id));
  return row;
}

/**
 * The product, kept from being deleted until the caller's transaction ends, so that a row that
 * refers to it can be written safely. Edits and other readers do not wait; a deletion does.
 */
export async function lockProductAgainstDeletion(tx: Executor, id: string): Promise<ProductRow | undefined> {
  const [row] = await tx.select().from(products).where(eq(products.id, id)).for('key share');
  return row;
}

export interface ProductFields {
  name: string;
  description: string;
  priceMinor: number;
  category: ProductCategory | '';
}

/**
 * A count the admin sent with the product form: the new count (null: made to order; undefined:
 * leave it) and the count the form showed when it was opened.
 */
export interface StockInput {
  stock: number | null | undefined;
  stockSeen: number | null | undefined;
}

/** Adds a product with its image; if the database refuses it, the stored image is removed again. */
export async function createProduct(db: Database, images: ProductImages, fields: ProductFields, stock: number | null, image: Buffer, admin: string): Promise<Product> {
  const id = crypto.randomUUID();
  const imageKey = await images.storeUpload(id, image);
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx.insert(products).values({ id, ...fields, stock, imageKey }).returning();
      if (stock !== null) await recordStockSet(tx, id, null, stock, admin);
      await catalogueChanged(tx);
      return toProduct(row!);
    });
  } catch (error) {
    await images.remove(imageKey);
    throw error;
  }
}

/**
 * Changes a product, and its image when a new one comes; the old image files are removed after.
 * The count is written only when the admin changed it in the form, and only if orders did not
 * change it since the form was opened (stock_changed): a sale is never undone by saving a form.
 */
export async function updateProduct(
  db: Database,
  images: ProductImages,
  id: string,
  fields: ProductFields,
  { stock, stockSeen }: StockInput,
  image: Buffer | undefined,
  admin: string,
): Promise<Product> {
  const existing = await findProduct(db, id);
  if (!existing) throw new HttpError(404, 'not_found', 'Product not found');
  const imageKey = image ? await images.storeUpload(id, image) : existing.imageKey;
  let row: ProductRow | undefined;
  try {
    row = await inTransaction(db, async (tx) => {
      const current = await lockForStockChange(tx, id);
      if (!current) return undefined;
      const setsStock = stock !== undefined && !(stockSeen !== undefined && stock === stockSeen) && stock !== current.stock;
      if (setsStock && stockSeen !== undefined && stockSeen !== current.stock) {
        throw new HttpError(409, 'stock_changed', `The stock is now ${current.stock ?? 'made to order'}; orders changed it since the form was opened.`, {
          stock: current.stock,
        });
      }
      const [updated] = await tx
        .update(products)
        .set({ ...fields, ...(setsStock ? { stock } : {}), imageKey, updatedAt: new Date() })
        .where(eq(products.id, id))
        .returning();
      if (setsStock) await recordStockSet(tx, id, current.stock, stock, admin);
      await catalogueChanged(tx);
      return updated;
    });
  } catch (error) {
    if (image && imageKey) await images.remove(imageKey);
    throw error;
  }
  if (!row) {
    if (image && imageKey) await images.remove(imageKey);
    throw new HttpError(404, 'not_found', 'Product not found');
  }
  if (image && existing.imageKey) await images.remove(existing.imageKey);
  return toProduct(row);
}

export async function deleteProduct(db: Database, images: ProductImages, id: string): Promise<void> {
  const removed = await db.transaction(async (tx) => {
    // Carts holding the product lose its lines with it (on delete cascade); their pages hear of it as a catalogue change.
    const [row] = await tx.delete(products).where(eq(products.id, id)).returning({ imageKey: products.imageKey });
    if (row) await catalogueChanged(tx);
    return row;
  });
  if (!removed) throw new HttpError(404, 'not_found', 'Product not found');
  if (removed.imageKey) await images.remove(removed.imageKey);
}

/** When the catalogue last changed, for the sitemap. */
export async function catalogueUpdatedAt(db: Database): Promise<Date | null> {
  const [row] = await db.select({ latest: max(products.updatedAt) }).from(products);
  return row?.latest ?? null;
}

const DEMO_SEEDED = 'demo_catalogue_seeded_at';
/** An advisory lock key, arbitrary but fixed, held while one process seeds. */
const SEED_LOCK = 7_260_002;

/**
 * Fills an empty catalogue with the demo products once, on the first start of a new database.
 * A shop that has ever had products (or emptied its catalogue on purpose) is never seeded again.
 * Processes starting together on one database take turns, so only one of them seeds.
 */
export async function seedDemoCatalogue(db: Database, images: ProductImages): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`);
    const [seeded] = await tx.select().from(shopState).where(eq(shopState.key, DEMO_SEEDED));
    if (seeded) return 0;
    const [existing] = await tx.select({ total: count() }).from(products);
    if ((existing?.total ?? 0) > 0) {
      await markSeeded(tx);
      return 0;
    }
    const rows: (typeof products.$inferInsert)[] = [];
    for (const demo of demoProducts) {
      const id = crypto.randomUUID();
      // 90 dpi renders the 800-unit drawing at 1000 px, just above the largest stored width.
      const imageKey = await images.store(id, sharp(Buffer.from(demo.svg), { density: 90 }));
      rows.push({ id, name: demo.name, description: demo.description, priceMinor: demo.priceMinor, category: demo.category, stock: demo.stock, imageKey });
    }
    await tx.insert(products).values(rows);
    await catalogueChanged(tx);
    await markSeeded(tx);
    return rows.length;
  });
}

async function markSeeded(db: Executor): Promise<void> {
  await db
    .insert(shopState)
    .values({ key: DEMO_SEEDED, value: new Date().toISOString() })
    .onConflictDoNothing();
}
