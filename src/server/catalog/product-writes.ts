import { and, eq, inArray, sql } from 'drizzle-orm';
import type { ProductModelInput } from '#shared/catalog-schemas.js';
import type { LocalizedText, Product, ProductCategory } from '#shared/catalog.js';
import { PLAIN_PRODUCT_MODEL, type OptionValue, type ProductModel } from '#shared/product-options.js';
import { productSearchColumns } from '#shared/search.js';
import { slugify } from '#shared/slug.js';
import { returnMarksOf } from '#shared/withdrawals.js';
import type { Database, Executor } from '#server/db/client.js';
import { productCombinations, productPhotos, productSlugs, products, searchWords, stockChanges } from '#server/db/schema.js';
import { readShopState, writeShopState } from '#server/db/shop-state.js';
import { inTransaction } from '#server/db/transaction.js';
import { HttpError } from '#server/http/errors.js';
import type { ProductImages } from '#server/images/product-images.js';
import { lockForStockChange, recordStockSet } from '#server/stock/service.js';
import { catalogueChanged } from './catalogue-state.js';
import { productName, withPhotos } from './product-queries.js';

export interface ProductFields {
  name: LocalizedText;
  description: LocalizedText;
  priceMinor: number;
  category: ProductCategory | '';
  /** One piece packed, in grams; null: not known; undefined: left as it is (a CSV import names no weight). */
  weightGrams?: number | null;
}

/** The product's columns for these fields, with the text its search looks in. */
export function productColumns(fields: ProductFields) {
  return {
    nameEn: fields.name.en,
    nameBg: fields.name.bg,
    descriptionEn: fields.description.en,
    descriptionBg: fields.description.bg,
    priceMinor: fields.priceMinor,
    category: fields.category,
    ...(fields.weightGrams === undefined ? {} : { weightGrams: fields.weightGrams }),
    ...productSearchColumns(fields.name, fields.description),
  };
}

/** The name a slug is made from: the English one, else the Bulgarian. */
const slugSource = (name: LocalizedText) => name.en || name.bg;

/**
 * A slug for the name that no other product has or had (those keep redirecting to their products):
 * the name's own, else it with -2, -3... The caller holds the catalogue's version row, so two
 * products saved at once cannot both take the same one.
 */
export async function freeSlug(tx: Executor, name: LocalizedText, productId: string): Promise<string> {
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

/** The product's columns for its options, sizing, questions and lead time (its combinations have a table of their own). */
export function modelColumns(model: Omit<ProductModelInput, 'combinations'>) {
  const lead =
    model.leadTime.kind === 'ready'
      ? { leadKind: 'ready', leadMinDays: model.leadTime.days, leadMaxDays: model.leadTime.days }
      : { leadKind: 'made_to_order', leadMinDays: model.leadTime.minDays, leadMaxDays: model.leadTime.maxDays };
  return {
    optionGroups: model.optionGroups,
    stockMode: model.optionGroups.length > 0 ? model.stockMode : 'product',
    sized: model.sized,
    questions: model.questions,
    ...lead,
    ...returnMarksOf(model.returnRule),
  };
}

const PLAIN_MODEL_INPUT: ProductModelInput = { ...PLAIN_PRODUCT_MODEL, returnRule: 'standard' };

/**
 * The model with every price difference in another currency (`price` converts an amount), each
 * converted on its own as the product's price is, its sign kept.
 */
export function repriced<Model extends Pick<ProductModel, 'optionGroups' | 'questions'>>(model: Model, price: (minor: number) => number): Model {
  const delta = (minor: number) => Math.sign(minor) * price(Math.abs(minor));
  const priced = (value: OptionValue): OptionValue => ({ ...value, priceDeltaMinor: delta(value.priceDeltaMinor) });
  return {
    ...model,
    optionGroups: model.optionGroups.map((group) => ({ ...group, values: group.values.map(priced) })),
    questions: model.questions.map((question) =>
      question.kind === 'choice'
        ? { ...question, priceDeltaMinor: delta(question.priceDeltaMinor), choices: question.choices.map(priced) }
        : { ...question, priceDeltaMinor: delta(question.priceDeltaMinor) },
    ),
  };
}

/**
 * Makes the product's combinations the given set (none unless it counts per combination), in the
 * caller's transaction, which holds the product's row (lockForStockChange) so that no order takes
 * from a combination meanwhile. As with the product's own count, a count the admin left alone in
 * the form (stockSeen) is not written back over orders taken since it was opened, and one the admin
 * changed is refused when orders changed it meanwhile. Every count set is logged.
 */
export async function replaceCombinations(tx: Executor, productId: string, model: ProductModelInput, admin: string): Promise<void> {
  const wanted = model.stockMode === 'combination' && model.optionGroups.length > 0 ? model.combinations : [];
  const current = await tx.select({ key: productCombinations.key, stock: productCombinations.stock }).from(productCombinations).where(eq(productCombinations.productId, productId));
  const before = new Map(current.map((row) => [row.key, row.stock]));
  const changes: { key: string; before: number | null; after: number | null }[] = [];
  const added: { productId: string; key: string; stock: number | null }[] = [];
  for (const [index, combination] of wanted.entries()) {
    if (!before.has(combination.key)) {
      added.push({ productId, key: combination.key, stock: combination.stock });
      if (combination.stock !== null) changes.push({ key: combination.key, before: null, after: combination.stock });
      continue;
    }
    const now = before.get(combination.key) ?? null;
    const seen = combination.stockSeen;
    if (seen !== undefined && combination.stock === seen) continue;
    if (combination.stock === now) continue;
    if (seen !== undefined && seen !== now) {
      throw new HttpError(409, 'stock_changed', `The stock of ${combination.key} is now ${now ?? 'made to order'}; orders changed it since the form was opened.`, {
        field: `model.combinations.${index}.stock`,
        messageKey: 'admin.products.messages.stockChanged',
        stock: now,
      });
    }
    await tx
      .update(productCombinations)
      .set({ stock: combination.stock })
      .where(and(eq(productCombinations.productId, productId), eq(productCombinations.key, combination.key)));
    changes.push({ key: combination.key, before: now, after: combination.stock });
  }
  const kept = new Set(wanted.map((combination) => combination.key));
  const removed = current.filter((row) => !kept.has(row.key)).map((row) => row.key);
  if (removed.length > 0) await tx.delete(productCombinations).where(and(eq(productCombinations.productId, productId), inArray(productCombinations.key, removed)));
  if (added.length > 0) await tx.insert(productCombinations).values(added);
  if (changes.length > 0) {
    await tx.insert(stockChanges).values(
      changes.map((change) => ({
        productId,
        combinationKey: change.key,
        change: (change.after ?? 0) - (change.before ?? 0),
        stockAfter: change.after,
        reason: 'set',
        changedBy: admin,
      })),
    );
  }
}

/**
 * Adds a product with its cover photo, sold as it is unless a model is given; if the database
 * refuses it, the stored image is removed again.
 */
export async function createProduct(
  db: Database,
  images: ProductImages,
  fields: ProductFields,
  stock: number | null,
  image: Buffer,
  admin: string,
  model: ProductModelInput = PLAIN_MODEL_INPUT,
): Promise<Product> {
  const id = crypto.randomUUID();
  const imageKey = await images.storeUpload(id, image);
  try {
    return await db.transaction(async (tx) => {
      await catalogueChanged(tx);
      const slug = await freeSlug(tx, fields.name, id);
      const [row] = await tx
        .insert(products)
        .values({ id, ...productColumns(fields), ...modelColumns(model), slug, stock })
        .returning();
      await tx.insert(productPhotos).values({ productId: id, position: 0, imageKey });
      if (stock !== null) await recordStockSet(tx, id, null, stock, admin);
      await replaceCombinations(tx, id, model, admin);
      return (await withPhotos(tx, [row!]))[0]!;
    });
  } catch (error) {
    await images.remove(imageKey);
    throw error;
  }
}

/**
 * Changes a product's texts, price, category, count and, when given, its model (options and their
 * combinations, sizing, questions, lead time). The product's row is held from the start
 * (lockForStockChange), which orders being placed with it hold against (`for key share`): an order
 * sees the product's options and combinations as they were before this change or after it, never
 * half of it, so a combination removed here is never sold. A new name gives a new slug; the old one
 * keeps leading to the product. The count is written only when the admin changed it in the form,
 * and only if orders did not change it since the form was opened (stock_changed): a sale is never
 * undone by saving a form.
 */
export async function updateProduct(
  db: Database,
  id: string,
  fields: ProductFields,
  { stock, stockSeen }: StockInput,
  admin: string,
  model?: ProductModelInput,
): Promise<Product> {
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
      .set({ ...productColumns(fields), ...(model ? modelColumns(model) : {}), slug, ...(setsStock ? { stock } : {}), updatedAt: new Date() })
      .where(eq(products.id, id))
      .returning();
    if (setsStock) await recordStockSet(tx, id, current.stock, stock, admin);
    if (model) await replaceCombinations(tx, id, model, admin);
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

/**
 * An advisory lock key, arbitrary but fixed, held while one process seeds the catalogue
 * (seed-demo-catalogue.ts) or refreshes its search texts.
 */
export const SEED_LOCK = 7_260_002;

/** Version of searchKey's rules that the stored search texts were made with. */
const SEARCH_TEXT_VERSION = '2';
const SEARCH_TEXT_KEY = 'search_text_version';

/**
 * Writes every product's search text again when it was made by other rules than today's (the
 * migration that added it left it empty), so that a search finds products saved before.
 */
export async function refreshSearchTexts(db: Database): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`);
    if ((await readShopState(tx, SEARCH_TEXT_KEY)) === SEARCH_TEXT_VERSION) return 0;
    // Taken first, as product writes take it: none adds a word while old ones are cleared out, and answers kept by every process are dropped.
    await catalogueChanged(tx);
    const rows = await tx.select().from(products);
    for (const row of rows) {
      const columns = productSearchColumns(productName(row), { en: row.descriptionEn, bg: row.descriptionBg });
      if (columns.searchText !== row.searchText || columns.searchName !== row.searchName) await tx.update(products).set(columns).where(eq(products.id, row.id));
    }
    // The products' new words were added as they were written (triggers of migration 0031); the old rules' words go.
    await tx.delete(searchWords).where(sql`not exists (select 1 from ${products} where ${products.searchWords} @> array[${searchWords.word}])`);
    await writeShopState(tx, SEARCH_TEXT_KEY, SEARCH_TEXT_VERSION);
    return rows.length;
  });
}
