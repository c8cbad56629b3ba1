import { and, asc, count, desc, eq, inArray, max, sql, type SQL } from 'drizzle-orm';
import type { CatalogueQuery, CatalogueResponse, LocalizedText, Product, ProductCategory, ProductPageResponse, ProductPhoto } from '../../shared/catalog.js';
import { bgnToEurMinor, type Currency } from '../../shared/money.js';
import { searchableText } from '../../shared/search.js';
import { slugify } from '../../shared/slug.js';
import { LOW_STOCK_MAX, type StockFilter } from '../../shared/stock.js';
import type { Database, Executor } from '../db/client.js';
import { productPhotos, productSlugs, products, shopState } from '../db/schema.js';
import { inTransaction } from '../db/transaction.js';
import { HttpError } from '../http/errors.js';
import { imageUrlForKey, type ProductImages } from '../images/product-images.js';
import { announceCatalogueChange } from '../notices/live-hub.js';
import { lockForStockChange, recordStockSet } from '../stock/service.js';

type ProductRow = typeof products.$inferSelect;
type PhotoRow = typeof productPhotos.$inferSelect;

const productName = (row: Pick<ProductRow, 'nameEn' | 'nameBg'>): LocalizedText => ({ en: row.nameEn, bg: row.nameBg });

function toPhoto(row: Pick<PhotoRow, 'id' | 'imageKey' | 'altEn' | 'altBg'>): ProductPhoto {
  return { id: row.id, url: imageUrlForKey(row.imageKey)!, alt: { en: row.altEn, bg: row.altBg } };
}

function toProduct(row: ProductRow, photos: readonly ProductPhoto[]): Product {
  return {
    id: row.id,
    slug: row.slug,
    name: productName(row),
    description: { en: row.descriptionEn, bg: row.descriptionBg },
    priceMinor: row.priceMinor,
    category: row.category as Product['category'],
    stock: row.stock,
    photos: [...photos],
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The photos of these products, each product's in order, cover first. */
async function photosOf(db: Executor, productIds: readonly string[]): Promise<Map<string, PhotoRow[]>> {
  const byProduct = new Map<string, PhotoRow[]>(productIds.map((id) => [id, []]));
  if (productIds.length === 0) return byProduct;
  const rows = await db
    .select()
    .from(productPhotos)
    .where(inArray(productPhotos.productId, [...productIds]))
    .orderBy(asc(productPhotos.productId), asc(productPhotos.position), asc(productPhotos.createdAt));
  for (const row of rows) byProduct.get(row.productId)?.push(row);
  return byProduct;
}

export async function withPhotos(db: Executor, rows: readonly ProductRow[]): Promise<Product[]> {
  const photos = await photosOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toProduct(row, (photos.get(row.id) ?? []).map(toPhoto)));
}

/** Products per page of the catalogue: a grid of 2, 3 or 4 columns fills evenly. */
export const CATALOGUE_PAGE_SIZE = 48;
/** The admin's table shows the whole catalogue of a handmade shop on one page. */
export const ADMIN_PRODUCTS_LIMIT = 500;

const stockConditions: Record<StockFilter, SQL> = {
  soldOut: sql`${products.stock} = 0`,
  low: sql`${products.stock} between 1 and ${LOW_STOCK_MAX}`,
};

/** A search is plain text: LIKE's wildcards and its escape character in it match only themselves. */
const likePattern = (search: string) => `%${searchableText(search).replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/**
 * The order by name in a language: products named in it first, by that name, then the others by
 * their other name (as the indexes products_name_*_order_idx hold them).
 */
const byNameIn = (language: 'en' | 'bg'): SQL[] =>
  language === 'bg'
    ? [sql`(${products.nameBg} = '')`, sql`coalesce(nullif(${products.nameBg}, ''), ${products.nameEn})`]
    : [sql`(${products.nameEn} = '')`, sql`coalesce(nullif(${products.nameEn}, ''), ${products.nameBg})`];

export interface CatalogueFilter extends Partial<CatalogueQuery> {
  /** Sorting by name follows this language's names. */
  language?: 'en' | 'bg';
  /** The admin's filters by stock. */
  stock?: StockFilter;
  page?: number;
  pageSize?: number;
}

function catalogueConditions(filter: CatalogueFilter): SQL | undefined {
  const conditions: SQL[] = [];
  if (filter.category) conditions.push(eq(products.category, filter.category));
  if (filter.q) conditions.push(sql`${products.searchText} like ${likePattern(filter.q)} escape '\\'`);
  if (filter.stock) conditions.push(stockConditions[filter.stock]);
  return conditions.length > 0 ? and(...conditions) : undefined;
}

function catalogueOrder(filter: CatalogueFilter): SQL[] {
  switch (filter.sort) {
    case 'newest':
      return [desc(products.createdAt), asc(products.id)];
    case 'price':
      return [asc(products.priceMinor), asc(products.id)];
    case 'price-desc':
      return [desc(products.priceMinor), asc(products.id)];
    default:
      return [...byNameIn(filter.language ?? 'en'), asc(products.id)];
  }
}

/**
 * One page of the catalogue as filtered, searched and sorted, with how many products match in all.
 * The page and the count are two queries: counting while sorting (count(*) over ()) would sort every
 * match, where the page alone reads only its rows through the order's index.
 */
export async function listProducts(db: Executor, filter: CatalogueFilter = {}): Promise<{ products: Product[]; total: number }> {
  const pageSize = filter.pageSize ?? CATALOGUE_PAGE_SIZE;
  const page = filter.page ?? 1;
  const where = catalogueConditions(filter);
  // One after the other: in a transaction (the prepared catalogue reads in one) both share one connection.
  const rows = await db
    .select()
    .from(products)
    .where(where)
    .orderBy(...catalogueOrder(filter))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  const [counted] = await db.select({ total: count() }).from(products).where(where);
  return { products: await withPhotos(db, rows), total: counted?.total ?? 0 };
}

/**
 * The product whose page this slug is: by its current slug, or by one it had before a rename
 * (`redirect` then names the slug to send the visitor to).
 */
export async function findProductBySlug(db: Executor, slug: string): Promise<{ product: Product; redirect: boolean } | undefined> {
  const [row] = await db.select().from(products).where(eq(products.slug, slug));
  if (row) return { product: (await withPhotos(db, [row]))[0]!, redirect: false };
  const [old] = await db
    .select({ product: products })
    .from(productSlugs)
    .innerJoin(products, eq(products.id, productSlugs.productId))
    .where(eq(productSlugs.slug, slug));
  return old ? { product: (await withPhotos(db, [old.product]))[0]!, redirect: true } : undefined;
}

/** Other products of the product's category (or of none, for a product without one), newest first. */
async function relatedProducts(db: Executor, product: Product, limit = 4): Promise<Product[]> {
  const rows = await db
    .select()
    .from(products)
    .where(and(eq(products.category, product.category), sql`${products.id} <> ${product.id}`))
    .orderBy(desc(products.createdAt), asc(products.id))
    .limit(limit);
  return withPhotos(db, rows);
}

const CATALOGUE_VERSION = 'catalogue_version';

/** The catalogue's version: how many changes it has had (0 before the first). */
export async function catalogueVersion(db: Executor): Promise<number> {
  const [row] = await db.select({ value: shopState.value }).from(shopState).where(eq(shopState.key, CATALOGUE_VERSION));
  return row ? Number(row.value) : 0;
}

/**
 * What every catalogue answer is made of besides its query: the catalogue's version, which every
 * change to the products goes up with, and the stock counts, which orders change without it. One
 * statement, so both come from one snapshot; reading every count is cheap for a handmade shop's
 * catalogue (see ADMIN_PRODUCTS_LIMIT). Counts can come back to earlier values (an order, then its
 * cancellation), so two states are only ever compared for equality.
 */
export async function catalogueState(db: Executor): Promise<string> {
  const [row] = await catalogueStateQuery(db);
  return stateText(row!);
}

/**
 * The same read as a prepared statement, for the read that requests share: PostgreSQL then plans
 * it once per connection instead of at every read (0.06 ms instead of 0.17 in pgbench).
 */
export function preparedCatalogueState(db: Database): () => Promise<string> {
  const prepared = catalogueStateQuery(db).prepare('catalogue_state');
  return async () => {
    const [row] = await prepared.execute();
    return stateText(row!);
  };
}

const stateText = (row: { version: string; counts: string }) => `${row.version}:${row.counts}`;

const catalogueStateQuery = (db: Executor) =>
  db
    .select({
      version: sql<string>`coalesce((select ${shopState.value} from ${shopState} where ${shopState.key} = ${CATALOGUE_VERSION}), '0')`,
      counts: sql<string>`coalesce(md5(string_agg(${products.id}::text || '=' || coalesce(${products.stock}::text, '-'), ',' order by ${products.id})), '')`,
    })
    .from(products);

/**
 * Counts a change to the catalogue and tells every open page, in the transaction that makes the
 * change. Changes take turns on the version's row, which only admins' edits ever wait for.
 */
export async function catalogueChanged(tx: Executor): Promise<void> {
  const [row] = await tx
    .insert(shopState)
    .values({ key: CATALOGUE_VERSION, value: '1' })
    .onConflictDoUpdate({ target: shopState.key, set: { value: sql`(${shopState.value}::bigint + 1)::text`, updatedAt: sql`now()` } })
    .returning({ value: shopState.value });
  await announceCatalogueChange(tx, Number(row!.value));
}

/**
 * A page of the catalogue with the version it was read at. The version is read first: the products
 * may then be newer than it says, which costs a page one needless refresh, but never older.
 */
export async function listCatalogue(db: Executor, filter: CatalogueFilter): Promise<CatalogueResponse> {
  const version = await catalogueVersion(db);
  const page = filter.page ?? 1;
  return { ...(await listProducts(db, { ...filter, page })), version, page, pageSize: CATALOGUE_PAGE_SIZE };
}

/** A product page's data, or a redirect when the slug is one the product had before a rename. */
export async function productPage(db: Executor, slug: string): Promise<{ page: ProductPageResponse; redirect: boolean } | undefined> {
  const version = await catalogueVersion(db);
  const found = await findProductBySlug(db, slug);
  if (!found) return undefined;
  return { page: { product: found.product, related: await relatedProducts(db, found.product), version }, redirect: found.redirect };
}

export async function findProduct(db: Executor, id: string): Promise<ProductRow | undefined> {
  const [row] = await db.select().from(products).where(eq(products.id, id));
  return row;
}

export interface ProductFields {
  name: LocalizedText;
  description: LocalizedText;
  priceMinor: number;
  category: ProductCategory | '';
}

/** The product's columns for these fields, with the text its search looks in. */
function productColumns(fields: ProductFields) {
  return {
    nameEn: fields.name.en,
    nameBg: fields.name.bg,
    descriptionEn: fields.description.en,
    descriptionBg: fields.description.bg,
    priceMinor: fields.priceMinor,
    category: fields.category,
    searchText: searchTextOf(fields),
  };
}

const searchTextOf = (fields: Pick<ProductFields, 'name' | 'description'>) =>
  searchableText([fields.name.en, fields.name.bg, fields.description.en, fields.description.bg].join(' '));

/** The name a slug is made from: the English one, else the Bulgarian. */
const slugSource = (name: LocalizedText) => name.en || name.bg;

/**
 * A slug for the name that no other product has or had (those keep redirecting to their products):
 * the name's own, else it with -2, -3... The caller holds the catalogue's version row, so two
 * products saved at once cannot both take the same one.
 */
async function freeSlug(tx: Executor, name: LocalizedText, productId: string): Promise<string> {
  const base = slugify(slugSource(name));
  const taken = new Set<string>();
  const pattern = `${base.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
  // One after the other: a transaction's queries share one connection, which runs one at a time.
  const current = await tx.select({ slug: products.slug }).from(products).where(and(sql`${products.slug} like ${pattern} escape '\\'`, sql`${products.id} <> ${productId}`));
  const old = await tx
    .select({ slug: productSlugs.slug })
    .from(productSlugs)
    .where(and(sql`${productSlugs.slug} like ${pattern} escape '\\'`, sql`${productSlugs.productId} <> ${productId}`));
  for (const row of [...current, ...old]) taken.add(row.slug);
  for (let suffix = 1; ; suffix++) {
    const slug = suffix === 1 ? base : `${base}-${suffix}`;
    if (!taken.has(slug)) return slug;
  }
}

/**
 * A count the admin sent with the product form: the new count (null: made to order; undefined:
 * leave it) and the count the form showed when it was opened.
 */
export interface StockInput {
  stock: number | null | undefined;
  stockSeen: number | null | undefined;
}

/** Adds a product with its cover photo; if the database refuses it, the stored image is removed again. */
export async function createProduct(db: Database, images: ProductImages, fields: ProductFields, stock: number | null, image: Buffer, admin: string): Promise<Product> {
  const id = crypto.randomUUID();
  const imageKey = await images.storeUpload(id, image);
  try {
    return await db.transaction(async (tx) => {
      await catalogueChanged(tx);
      const slug = await freeSlug(tx, fields.name, id);
      const [row] = await tx.insert(products).values({ id, ...productColumns(fields), slug, stock }).returning();
      const [photo] = await tx.insert(productPhotos).values({ productId: id, position: 0, imageKey }).returning();
      if (stock !== null) await recordStockSet(tx, id, null, stock, admin);
      return toProduct(row!, [toPhoto(photo!)]);
    });
  } catch (error) {
    await images.remove(imageKey);
    throw error;
  }
}

/**
 * Changes a product's texts, price, category and count. A new name gives a new slug; the old one
 * keeps leading to the product. The count is written only when the admin changed it in the form,
 * and only if orders did not change it since the form was opened (stock_changed): a sale is never
 * undone by saving a form.
 */
export async function updateProduct(db: Database, id: string, fields: ProductFields, { stock, stockSeen }: StockInput, admin: string): Promise<Product> {
  const row = await inTransaction(db, async (tx) => {
    const current = await lockForStockChange(tx, id);
    if (!current) return undefined;
    const setsStock = stock !== undefined && !(stockSeen !== undefined && stock === stockSeen) && stock !== current.stock;
    if (setsStock && stockSeen !== undefined && stockSeen !== current.stock) {
      throw new HttpError(409, 'stock_changed', `The stock is now ${current.stock ?? 'made to order'}; orders changed it since the form was opened.`, {
        stock: current.stock,
      });
    }
    await catalogueChanged(tx);
    const [before] = await tx.select({ slug: products.slug, nameEn: products.nameEn, nameBg: products.nameBg }).from(products).where(eq(products.id, id));
    let slug = before!.slug;
    if (slugSource(productName(before!)) !== slugSource(fields.name) && slugify(slugSource(fields.name)) !== slugify(slugSource(productName(before!)))) {
      slug = await freeSlug(tx, fields.name, id);
      // The old address leads to the product from now on; one the product had before and takes again is its own again.
      await tx.insert(productSlugs).values({ slug: before!.slug, productId: id }).onConflictDoNothing();
      await tx.delete(productSlugs).where(and(eq(productSlugs.slug, slug), eq(productSlugs.productId, id)));
    }
    const [updated] = await tx
      .update(products)
      .set({ ...productColumns(fields), slug, ...(setsStock ? { stock } : {}), updatedAt: new Date() })
      .where(eq(products.id, id))
      .returning();
    if (setsStock) await recordStockSet(tx, id, current.stock, stock, admin);
    return updated;
  });
  if (!row) throw new HttpError(404, 'not_found', 'Product not found');
  return (await withPhotos(db, [row]))[0]!;
}

export async function deleteProduct(db: Database, images: ProductImages, id: string): Promise<void> {
  const removed = await db.transaction(async (tx) => {
    const photos = await tx.select({ imageKey: productPhotos.imageKey }).from(productPhotos).where(eq(productPhotos.productId, id));
    // Carts holding the product lose its lines with it, and it loses its photos and old slugs (on
    // delete cascade); open pages hear of it as a catalogue change.
    const [row] = await tx.delete(products).where(eq(products.id, id)).returning({ id: products.id });
    if (row) await catalogueChanged(tx);
    return row ? photos : undefined;
  });
  if (!removed) throw new HttpError(404, 'not_found', 'Product not found');
  await Promise.all(removed.map((photo) => images.remove(photo.imageKey)));
}

/** When the catalogue last changed, for the sitemap. */
export async function catalogueUpdatedAt(db: Database): Promise<Date | null> {
  const [row] = await db.select({ latest: max(products.updatedAt) }).from(products);
  return row?.latest ?? null;
}

/** Every product page for the sitemap: slug, names, last change and photos, at most `limit`. */
export async function sitemapProducts(db: Database, limit = 10_000): Promise<Product[]> {
  const rows = await db.select().from(products).orderBy(asc(products.createdAt), asc(products.id)).limit(limit);
  return withPhotos(db, rows);
}

/** Version of searchableText's rules that the stored search texts were made with. */
const SEARCH_TEXT_VERSION = '1';
const SEARCH_TEXT_KEY = 'search_text_version';

/**
 * Writes every product's search text again when it was made by other rules than today's (the
 * migration that added it left it empty), so that a search finds products saved before.
 */
export async function refreshSearchTexts(db: Database): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`);
    const [done] = await tx.select().from(shopState).where(eq(shopState.key, SEARCH_TEXT_KEY));
    if (done?.value === SEARCH_TEXT_VERSION) return 0;
    const rows = await tx.select().from(products);
    for (const row of rows) {
      const searchText = searchTextOf({ name: productName(row), description: { en: row.descriptionEn, bg: row.descriptionBg } });
      if (searchText !== row.searchText) await tx.update(products).set({ searchText }).where(eq(products.id, row.id));
    }
    await tx
      .insert(shopState)
      .values({ key: SEARCH_TEXT_KEY, value: SEARCH_TEXT_VERSION })
      .onConflictDoUpdate({ target: shopState.key, set: { value: SEARCH_TEXT_VERSION, updatedAt: sql`now()` } });
    return rows.length;
  });
}

const DEMO_SEEDED = 'demo_catalogue_seeded_at';
/** An advisory lock key, arbitrary but fixed, held while one process seeds or refreshes the catalogue. */
const SEED_LOCK = 7_260_002;

/**
 * Fills an empty catalogue with the demo products once, on the first start of a new database.
 * A shop that has ever had products (or emptied its catalogue on purpose) is never seeded again.
 * Processes starting together on one database take turns, so only one of them seeds. The demo
 * prices are in BGN; a euro shop gets them converted at the fixed rate. The demo catalogue is
 * loaded only here, when it is needed, and its photos are stored as the ready WebP files they are.
 */
export async function seedDemoCatalogue(db: Database, images: ProductImages, currency: Currency = 'BGN'): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`);
    const [seeded] = await tx.select().from(shopState).where(eq(shopState.key, DEMO_SEEDED));
    if (seeded) return 0;
    const [existing] = await tx.select({ total: count() }).from(products);
    if ((existing?.total ?? 0) > 0) {
      await markSeeded(tx);
      return 0;
    }
    const { demoProducts, readDemoPhoto } = await import('../demo/demo-catalogue.js');
    const photos = await Promise.all(demoProducts.map((demo) => readDemoPhoto(demo.photo)));
    await catalogueChanged(tx);
    for (const [index, demo] of demoProducts.entries()) {
      const id = crypto.randomUUID();
      const fields: ProductFields = {
        name: { en: demo.name, bg: demo.nameBg },
        description: { en: demo.description, bg: demo.descriptionBg },
        priceMinor: currency === 'EUR' ? bgnToEurMinor(demo.priceMinor) : demo.priceMinor,
        category: demo.category,
      };
      await tx.insert(products).values({ id, ...productColumns(fields), slug: await freeSlug(tx, fields.name, id), stock: demo.stock });
      const imageKey = await images.storeEncoded(id, photos[index]!);
      await tx.insert(productPhotos).values({ productId: id, position: 0, imageKey });
    }
    await markSeeded(tx);
    return demoProducts.length;
  });
}

async function markSeeded(db: Executor): Promise<void> {
  await db
    .insert(shopState)
    .values({ key: DEMO_SEEDED, value: new Date().toISOString() })
    .onConflictDoNothing();
}
