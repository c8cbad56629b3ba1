import { and, asc, count, desc, eq, getTableColumns, inArray, max, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import {
  optionFilterKey,
  parseOptionFilter,
  priceBandBounds,
  PRICE_BANDS,
  PRODUCT_CATEGORIES,
  type CatalogueFacets,
  type CatalogueQuery,
  type CatalogueResponse,
  type LocalizedText,
  type PriceBand,
  type Product,
  type ProductListResponse,
  type ProductPageResponse,
  type ProductPhoto,
  type SearchSuggestions,
} from '#shared/catalog.js';
import { leadTimeOf, type CombinationStock, type StockMode } from '#shared/product-options.js';
import { LOW_STOCK_MAX, type StockFilter } from '#shared/stock.js';
import { returnRuleOf } from '#shared/withdrawals.js';
import type { Database, Executor } from '#server/db/client.js';
import { productCombinations, productPhotos, productSlugs, products } from '#server/db/schema.js';
import { selectRows } from '#server/db/transaction.js';
import { imageUrlForKey } from '#server/images/product-images.js';
import { catalogueVersion } from './catalogue-state.js';
import { bestRank, closestSearch, findSearch, findsNothing, productSearchTerms, searchCondition, searchRank, useSearchSettings, type FoundSearch } from './product-search.js';

/** A product's columns but its search texts, which only the search reads (and which are most of a row). */
type ProductRow = Omit<typeof products.$inferSelect, 'searchText' | 'searchName' | 'searchWords' | 'searchNameWords'>;
const { searchText: _text, searchName: _name, searchWords: _words, searchNameWords: _nameWords, ...productFields } = getTableColumns(products);
type PhotoRow = typeof productPhotos.$inferSelect;

export const productName = (row: Pick<ProductRow, 'nameEn' | 'nameBg'>): LocalizedText => ({ en: row.nameEn, bg: row.nameBg });

function toPhoto(row: Pick<PhotoRow, 'id' | 'imageKey' | 'altEn' | 'altBg'>): ProductPhoto {
  return { id: row.id, url: imageUrlForKey(row.imageKey)!, alt: { en: row.altEn, bg: row.altBg } };
}

function toProduct(row: ProductRow, photos: readonly ProductPhoto[], combinations: readonly CombinationStock[] = []): Product {
  return {
    id: row.id,
    slug: row.slug,
    name: productName(row),
    description: { en: row.descriptionEn, bg: row.descriptionBg },
    priceMinor: row.priceMinor,
    category: row.category as Product['category'],
    stock: row.stock,
    weightGrams: row.weightGrams,
    optionGroups: row.optionGroups,
    stockMode: row.stockMode as StockMode,
    combinations: [...combinations],
    sized: row.sized,
    questions: row.questions,
    leadTime: leadTimeOf(row.leadKind, row.leadMinDays, row.leadMaxDays),
    photos: [...photos],
    returnRule: returnRuleOf(row),
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

/**
 * The combinations on sale of those of these products that count stock per combination, in key
 * order; other products have none to read.
 */
async function combinationsOf(db: Executor, rows: readonly Pick<ProductRow, 'id' | 'stockMode'>[]): Promise<Map<string, CombinationStock[]>> {
  const ids = rows.filter((row) => row.stockMode === 'combination').map((row) => row.id);
  const byProduct = new Map<string, CombinationStock[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return byProduct;
  const found = await db
    .select({ productId: productCombinations.productId, key: productCombinations.key, stock: productCombinations.stock })
    .from(productCombinations)
    .where(inArray(productCombinations.productId, ids))
    .orderBy(asc(productCombinations.productId), asc(productCombinations.key));
  for (const { productId, key, stock } of found) byProduct.get(productId)?.push({ key, stock });
  return byProduct;
}

/** The products of these rows, with their photos and, for those counting per combination, their combinations. */
export async function withPhotos(db: Executor, rows: readonly ProductRow[]): Promise<Product[]> {
  // One after the other: in a transaction both share one connection.
  const photos = await photosOf(
    db,
    rows.map((row) => row.id),
  );
  const combinations = await combinationsOf(db, rows);
  return rows.map((row) => toProduct(row, (photos.get(row.id) ?? []).map(toPhoto), combinations.get(row.id)));
}

/** Products per page of the catalogue: a grid of 2, 3 or 4 columns fills evenly. */
export const CATALOGUE_PAGE_SIZE = 48;
/** The admin's table shows the whole catalogue of a handmade shop on one page. */
export const ADMIN_PRODUCTS_LIMIT = 500;

const stockConditions: Record<StockFilter, SQL> = {
  // A product counted per combination is sold out when none of its combinations has a piece left or is made to order.
  soldOut: sql`(${products.stock} = 0 and ${products.stockMode} = 'product') or (${products.stockMode} = 'combination' and not exists (
    select 1 from ${productCombinations} where ${productCombinations.productId} = ${products.id} and (${productCombinations.stock} is null or ${productCombinations.stock} > 0)))`,
  low: sql`${products.stock} between 1 and ${LOW_STOCK_MAX}`,
};

/**
 * The order by name in a language: products named in it first, by that name, then the others by
 * their other name (as the indexes products_name_*_order_idx hold them).
 */
const byNameIn = (language: 'en' | 'bg'): SortKey[] =>
  language === 'bg'
    ? [{ key: sql`(${products.nameBg} = '')` }, { key: sql`coalesce(nullif(${products.nameBg}, ''), ${products.nameEn})` }]
    : [{ key: sql`(${products.nameEn} = '')` }, { key: sql`coalesce(nullif(${products.nameEn}, ''), ${products.nameBg})` }];

/** One key of an order, ascending unless said. */
interface SortKey {
  key: SQL | AnyColumn;
  descending?: boolean;
}

const orderBy = (keys: SortKey[]) => keys.map(({ key, descending }) => (descending ? desc(key) : asc(key)));

export interface CatalogueFilter extends Partial<CatalogueQuery> {
  /** Sorting by name follows this language's names. */
  language?: 'en' | 'bg';
  /** The admin's filters by stock. */
  stock?: StockFilter;
  page?: number;
  pageSize?: number;
}

/** What can be ordered now: not sold out (a product made to order, whose stock is null, always can). */
const availableNow = sql`not coalesce((${stockConditions.soldOut}), false)`;

function priceCondition(band: PriceBand): SQL {
  const { fromMinor, belowMinor } = priceBandBounds(band);
  return belowMinor === null ? sql`${products.priceMinor} >= ${fromMinor}` : sql`${products.priceMinor} >= ${fromMinor} and ${products.priceMinor} < ${belowMinor}`;
}

/**
 * A product offering the option: an option group of that English name (else Bulgarian) holding a value
 * of that name. Containment of a JSON document, so a crafted name is only ever text.
 */
function optionCondition(key: string): SQL {
  const option = parseOptionFilter(key);
  if (!option) return sql`false`;
  const named = (name: string) => [{ name: { en: name } }, { name: { en: '', bg: name } }];
  const documents = named(option.group).flatMap((group) => named(option.value).map((value) => JSON.stringify([{ ...group, values: [value] }])));
  return sql`(${sql.join(
    documents.map((document) => sql`${products.optionGroups} @> ${document}::jsonb`),
    sql` or `,
  )})`;
}

/** The filters whose choices show a count each (CatalogueFacets): each kind's counts leave its own choice out. */
const FACET_KINDS = ['category', 'price', 'available'] as const;
type FacetKind = (typeof FACET_KINDS)[number];

/** The filter's conditions; `without` leaves those kinds out, for the counts of their own choices. */
function catalogueConditions(filter: CatalogueFilter, found: FoundSearch, without: readonly FacetKind[] = []): SQL | undefined {
  const conditions: SQL[] = [];
  if (filter.category && !without.includes('category')) conditions.push(eq(products.category, filter.category));
  const searched = searchCondition(found);
  if (searched) conditions.push(searched);
  if (filter.stock) conditions.push(stockConditions[filter.stock]);
  if (filter.price && !without.includes('price')) conditions.push(priceCondition(filter.price));
  if (filter.available && !without.includes('available')) conditions.push(availableNow);
  for (const option of filter.options ?? []) conditions.push(optionCondition(option));
  return conditions.length > 0 ? and(...conditions) : undefined;
}

/** The most option values the filters offer: a handmade catalogue's shapes, lengths and finishes fit. */
const MAX_OPTION_FACETS = 40;

/** How many of the matches are in one category, one price band (its index in PRICE_BANDS), and can or cannot be bought now. */
interface FacetGroup {
  category: string;
  band: number;
  available: boolean;
  count: number;
}

/** One option value's count among the matches (its key: the English name, else the Bulgarian). */
interface OptionCount {
  group_key: string;
  group_en: string;
  group_bg: string;
  value_key: string;
  value_en: string;
  value_bg: string;
  count: number;
}

/**
 * How many products each filter would show (CatalogueFacets), for the query's matches, in one pass over
 * the matches of the other filters: they are counted by category, price band and availability together,
 * from which each kind's counts are added up without its own choice, and their options are counted
 * from the same rows. (For a search that 20,000 products match, on PGlite: 30 ms, where a query per
 * kind of filter took 110.)
 */
async function catalogueFacets(db: Executor, filter: CatalogueFilter, found: FoundSearch): Promise<CatalogueFacets> {
  const bandOf = sql`case ${sql.join(
    PRICE_BANDS.map((band, index) => sql`when ${priceCondition(band)} then ${sql.raw(String(index))} `),
    sql``,
  )}end`;
  const chosenBand = filter.price ? PRICE_BANDS.indexOf(filter.price) : undefined;
  // An option is known by its English name, or its Bulgarian when it has none; products that name it in one
  // language only still count under it, and it shows in each language any of them names it in.
  const [row] = await selectRows<{ groups: FacetGroup[] | null; options: OptionCount[] | null }>(
    db,
    sql`with matches as materialized (
        select ${products.id} as id, ${products.category} as category, ${bandOf} as band, ${availableNow} as available, ${products.optionGroups} as option_groups
        from ${products} where ${catalogueConditions(filter, found, FACET_KINDS) ?? sql`true`}
      ), option_counts as (
        select coalesce(nullif(option_group -> 'name' ->> 'en', ''), option_group -> 'name' ->> 'bg') as group_key,
          coalesce(nullif(option_value -> 'name' ->> 'en', ''), option_value -> 'name' ->> 'bg') as value_key,
          max(option_group -> 'name' ->> 'en') as group_en, max(option_group -> 'name' ->> 'bg') as group_bg,
          max(option_value -> 'name' ->> 'en') as value_en, max(option_value -> 'name' ->> 'bg') as value_bg,
          count(distinct id) as count
        from matches, jsonb_array_elements(option_groups) as option_group, jsonb_array_elements(option_group -> 'values') as option_value
        where option_groups <> '[]'
          and ${filter.category ? sql`category = ${filter.category}` : sql`true`}
          and ${chosenBand === undefined ? sql`true` : sql`band = ${sql.raw(String(chosenBand))}`}
          and ${filter.available ? sql`available` : sql`true`}
        group by 1, 2
        order by count(distinct id) desc, 2
        limit ${MAX_OPTION_FACETS}
      )
      select (select json_agg(facet_groups) from (select category, band, available, count(*) as count from matches group by 1, 2, 3) as facet_groups) as groups,
        (select json_agg(option_counts order by count desc, value_key) from option_counts) as options`,
  );
  const groups = row?.groups ?? [];
  const chosen: Record<FacetKind, (group: FacetGroup) => boolean> = {
    category: (group) => !filter.category || group.category === filter.category,
    price: (group) => chosenBand === undefined || group.band === chosenBand,
    available: (group) => !filter.available || group.available,
  };
  /** How many match `condition` and the filters chosen but `own`. */
  const countOf = (own: FacetKind, condition: (group: FacetGroup) => boolean) =>
    groups
      .filter((group) => condition(group) && FACET_KINDS.every((kind) => kind === own || chosen[kind](group)))
      .reduce((sum, group) => sum + Number(group.count), 0);
  const options = new Map<string, CatalogueFacets['options'][number]>();
  for (const value of row?.options ?? []) {
    const group = options.get(value.group_key) ?? { group: { en: value.group_en, bg: value.group_bg }, values: [] };
    options.set(value.group_key, group);
    group.values.push({ key: optionFilterKey(value.group_key, value.value_key), name: { en: value.value_en, bg: value.value_bg }, count: Number(value.count) });
  }
  return {
    all: countOf('category', () => true),
    categories: PRODUCT_CATEGORIES.map((category) => ({ category, count: countOf('category', (group) => group.category === category) })),
    prices: PRICE_BANDS.map((band, index) => ({ band, count: countOf('price', (group) => group.band === index) })),
    available: countOf('available', (group) => group.available),
    options: [...options.values()],
  };
}

const NO_FACETS: CatalogueFacets = { all: 0, categories: PRODUCT_CATEGORIES.map((category) => ({ category, count: 0 })), prices: PRICE_BANDS.map((band) => ({ band, count: 0 })), available: 0, options: [] };

/**
 * Equal matches by relevance: the language orders by name only (the app asks with it, and the answers
 * are kept per language, for sort=name alone), so they follow the English names, and the page's head
 * and the app agree. bestMatchesByName walks the same order.
 */
const EQUAL_MATCHES_ORDER: SortKey[] = [...byNameIn('en'), { key: products.id }];

function catalogueOrder(filter: CatalogueFilter, found: FoundSearch): SortKey[] {
  const byId = { key: products.id };
  switch (filter.sort) {
    case 'relevance':
      // What can be bought now before what is sold out, then the best matches.
      // coalesce: for a product made to order (stock null) the condition is null, which would sort last.
      return found.length > 0 ? [{ key: sql`coalesce((${stockConditions.soldOut}), false)` }, { key: searchRank(found), descending: true }, ...EQUAL_MATCHES_ORDER] : EQUAL_MATCHES_ORDER;
    case 'newest':
      return [{ key: products.createdAt, descending: true }, byId];
    case 'price':
      return [{ key: products.priceMinor }, byId];
    case 'price-desc':
      return [{ key: products.priceMinor, descending: true }, byId];
    default:
      return [...byNameIn(filter.language ?? 'en'), byId];
  }
}

/** How many products, first by name, a search's first pages look among for its best matches. */
const BEST_MATCHES_LOOKED_AMONG = 300;

/**
 * The first `count` matches of a search by relevance, when they are all of the best rank the search
 * can give (bestRank), in stock, and among the first BEST_MATCHES_LOOKED_AMONG products by name: then
 * they are also the first `count` that ranking every match would give. Otherwise undefined.
 * Ranking every match costs about 2 µs a product on PGlite: 45 ms for a word that all of 20,000
 * products hold (as "нокти" in a nail shop), whose first page is the first products by name holding
 * it as well as a product can. This reads them through the order's index, a few rows for such a word,
 * and gives up after BEST_MATCHES_LOOKED_AMONG for a rarer one (3 ms at 20,000 products).
 */
async function bestMatchesByName(db: Executor, where: SQL | undefined, found: FoundSearch, count: number): Promise<string[] | undefined> {
  const rows = await selectRows<{ id: string }>(
    db,
    sql`select id from (
        select ${products.id} as id, ${where ?? sql`true`} and ${availableNow} and (${searchRank(found)}) >= ${bestRank(found) - 1e-9}::float8 as best
        from ${products}
        order by ${sql.join(orderBy(EQUAL_MATCHES_ORDER), sql`, `)}
        limit ${BEST_MATCHES_LOOKED_AMONG}
      ) as first_by_name
      where best
      limit ${count}`,
  );
  return rows.length === count ? rows.map((row) => row.id) : undefined;
}

/** bestMatchesByName for a catalogue filter with a search, on its own: for the tests that it answers as ranking does. */
export const searchBestMatchesByName = (db: Executor, filter: CatalogueFilter, count: number) =>
  readMatches(db, filter.q, (tx, found) => bestMatchesByName(tx, catalogueConditions(filter, found), found, count), undefined);

/** How many products the planner's statistics count (refreshed by analyze), 0 before it has any. */
async function estimatedProductCount(db: Executor): Promise<number> {
  const [row] = await selectRows<{ count: number }>(db, sql`select reltuples::float8 as count from pg_class where oid = 'products'::regclass`);
  return Math.max(0, row?.count ?? 0);
}

/** These products, in this order. */
async function productsInOrder(db: Executor, ids: readonly string[]): Promise<Product[]> {
  const rows = ids.length > 0 ? await db.select(productFields).from(products).where(inArray(products.id, [...ids])) : [];
  const byId = new Map(rows.map((row) => [row.id, row]));
  return withPhotos(db, ids.flatMap((id) => byId.get(id) ?? []));
}

/**
 * One page of the catalogue as filtered, searched and sorted, with how many products match in all.
 * Browsing, the page and the count are two queries: counting while sorting (count(*) over ()) would
 * sort every match, where the page alone reads only its rows through the order's index. A search
 * reads and ranks every match anyway, so it counts them in the same pass. Its likeness setting holds
 * for its own transaction (useSearchSettings).
 */
export function listProducts(db: Executor, filter: CatalogueFilter = {}): Promise<{ products: Product[]; total: number }> {
  return readMatches(db, filter.q, (tx, found) => listProductsWhere(tx, filter, found), { products: [], total: 0 });
}

/**
 * Runs `read` on the search's matches (all products without a search), in the search's transaction
 * with its settings; a search that finds nothing answers `nothing` without reading.
 */
async function readMatches<Result>(db: Executor, search: string | undefined, read: (tx: Executor, found: FoundSearch) => Promise<Result>, nothing: Result): Promise<Result> {
  const terms = search ? productSearchTerms(search) : [];
  if (terms.length === 0) return read(db, []);
  return db.transaction(async (tx) => {
    await useSearchSettings(tx);
    const found = await findSearch(tx, terms);
    return findsNothing(found) ? nothing : read(tx, found);
  });
}

/** One page of the matches, and how many there are in all (`total` when it is known already). */
async function listProductsWhere(db: Executor, filter: CatalogueFilter, found: FoundSearch, total?: number): Promise<{ products: Product[]; total: number }> {
  const pageSize = filter.pageSize ?? CATALOGUE_PAGE_SIZE;
  const page = filter.page ?? 1;
  const where = catalogueConditions(filter, found);
  const order = catalogueOrder(filter, found);
  const countAll = async () => total ?? (await db.select({ total: count() }).from(products).where(where))[0]?.total ?? 0;
  if (total === 0) return { products: [], total };
  // In a catalogue no larger than what bestMatchesByName looks among, ranking every match costs no more.
  if (found.length > 0 && filter.sort === 'relevance' && (await estimatedProductCount(db)) > BEST_MATCHES_LOOKED_AMONG) {
    const best = await bestMatchesByName(db, where, found, page * pageSize);
    if (best) return { products: await productsInOrder(db, best.slice((page - 1) * pageSize)), total: await countAll() };
  }
  if (found.length > 0) {
    // A search's matches are all read to be ranked anyway, so, unless the facets counted them, they are
    // counted in the same pass rather than matched twice. That pass carries each match's id and sort
    // keys only (OFFSET 0 keeps PostgreSQL from computing the keys after the count, which would carry
    // whole rows through it: twice as long at 2,500 matches, and at 20,000 more than work_mem holds);
    // the page's products are read after it.
    const keyNames = order.map((_, index) => sql.identifier(`key${index}`));
    const ranked = await selectRows<{ id: string; total?: number | string }>(
      db,
      sql`select id${total === undefined ? sql`, count(*) over () as total` : sql``}
        from (select ${products.id} as id, ${sql.join(
          order.map(({ key }, index) => sql`${key} as ${keyNames[index]}`),
          sql`, `,
        )} from ${products} where ${where ?? sql`true`} offset 0) as matches
        order by ${sql.join(
          order.map(({ descending }, index) => sql`${keyNames[index]}${descending ? sql` desc` : sql``}`),
          sql`, `,
        )}
        limit ${pageSize} offset ${(page - 1) * pageSize}`,
    );
    return { products: await productsInOrder(db, ranked.map((row) => row.id)), total: total ?? (ranked[0] ? Number(ranked[0].total) : page > 1 ? await countAll() : 0) };
  }
  // One after the other: in a transaction (the prepared catalogue reads in one) both share one connection.
  const rows = await db
    .select(productFields)
    .from(products)
    .where(where)
    .orderBy(...orderBy(order))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  return { products: await withPhotos(db, rows), total: await countAll() };
}

/** The most products suggested under the search box. */
const SUGGESTIONS_LIMIT = 6;

/**
 * The suggestions for a search being typed: its best matches, by the catalogue search's own rules, or,
 * when it finds nothing, a search that does ("Did you mean").
 */
export async function searchSuggestions(db: Executor, search: string, language: 'en' | 'bg'): Promise<SearchSuggestions> {
  const terms = productSearchTerms(search);
  if (terms.length === 0) return { products: [], didYouMean: null };
  return db.transaction(async (tx) => {
    await useSearchSettings(tx);
    const found = await findSearch(tx, terms);
    const rows = findsNothing(found)
      ? []
      : await tx
          .select({ slug: products.slug, en: products.nameEn, bg: products.nameBg })
          .from(products)
          .where(searchCondition(found))
          .orderBy(...orderBy(catalogueOrder({ sort: 'relevance', language }, found)))
          .limit(SUGGESTIONS_LIMIT);
    if (rows.length > 0) return { products: rows.map((row) => ({ slug: row.slug, name: { en: row.en, bg: row.bg } })), didYouMean: null };
    const corrected = await closestSearch(tx, terms, language);
    const correctedTerms = corrected ? productSearchTerms(corrected) : [];
    const correctedFound = correctedTerms.length > 0 ? await findSearch(tx, correctedTerms) : [];
    // The correction is offered only when it finds a product: one is enough to know.
    const [finds] = correctedFound.length > 0 && !findsNothing(correctedFound) ? await tx.select({ id: products.id }).from(products).where(searchCondition(correctedFound)).limit(1) : [];
    return { products: [], didYouMean: finds ? corrected : null };
  });
}

/**
 * The product whose page this slug is: by its current slug, or by one it had before a rename
 * (`redirect` then names the slug to send the visitor to).
 */
export async function findProductBySlug(db: Executor, slug: string): Promise<{ product: Product; redirect: boolean } | undefined> {
  const [row] = await db.select(productFields).from(products).where(eq(products.slug, slug));
  if (row) return { product: (await withPhotos(db, [row]))[0]!, redirect: false };
  const [old] = await db
    .select({ product: productFields })
    .from(productSlugs)
    .innerJoin(products, eq(products.id, productSlugs.productId))
    .where(eq(productSlugs.slug, slug));
  return old ? { product: (await withPhotos(db, [old.product]))[0]!, redirect: true } : undefined;
}

/** Other products of the product's category (or of none, for a product without one), newest first. */
async function relatedProducts(db: Executor, product: Product, limit = 4): Promise<Product[]> {
  const rows = await db
    .select(productFields)
    .from(products)
    .where(and(eq(products.category, product.category), sql`${products.id} <> ${product.id}`))
    .orderBy(desc(products.createdAt), asc(products.id))
    .limit(limit);
  return withPhotos(db, rows);
}

/**
 * A page of the catalogue with the version it was read at. The version is read first: the products
 * may then be newer than it says, which costs a page one needless refresh, but never older.
 */
export async function listCatalogue(db: Executor, filter: CatalogueFilter): Promise<CatalogueResponse> {
  const version = await catalogueVersion(db);
  const page = filter.page ?? 1;
  const listed = await readMatches(
    db,
    filter.q,
    async (tx, found) => {
      // The facets count the matches too: those of the chosen category, or all when none is chosen.
      const facets = await catalogueFacets(tx, filter, found);
      const total = filter.category ? facets.categories.find((facet) => facet.category === filter.category)?.count : facets.all;
      return { ...(await listProductsWhere(tx, { ...filter, page }, found, total)), facets };
    },
    { products: [], total: 0, facets: NO_FACETS },
  );
  return { ...listed, version, page, pageSize: CATALOGUE_PAGE_SIZE };
}

/** The most products one request for a list of them names (a page of favourites). */
export const MAX_PRODUCTS_BY_ID = 48;

/** These products, in the order asked, those that no longer exist left out; with the catalogue's version, like a page of it. */
export async function productsByIds(db: Executor, ids: readonly string[]): Promise<ProductListResponse> {
  const version = await catalogueVersion(db);
  if (ids.length === 0) return { products: [], version };
  const rows = await db.select(productFields).from(products).where(inArray(products.id, [...ids]));
  const byId = new Map(rows.map((row) => [row.id, row]));
  return { products: await withPhotos(db, ids.flatMap((id) => byId.get(id) ?? [])), version };
}

/** A product page's data, or a redirect when the slug is one the product had before a rename. */
export async function productPage(db: Executor, slug: string): Promise<{ page: ProductPageResponse; redirect: boolean } | undefined> {
  const version = await catalogueVersion(db);
  const found = await findProductBySlug(db, slug);
  if (!found) return undefined;
  return { page: { product: found.product, related: await relatedProducts(db, found.product), version }, redirect: found.redirect };
}

export async function findProduct(db: Executor, id: string): Promise<ProductRow | undefined> {
  const [row] = await db.select(productFields).from(products).where(eq(products.id, id));
  return row;
}

/** When the catalogue last changed, for the sitemap. */
export async function catalogueUpdatedAt(db: Database): Promise<Date | null> {
  const [row] = await db.select({ latest: max(products.updatedAt) }).from(products);
  return row?.latest ?? null;
}

/** Every product page for the sitemap: slug, names, last change and photos, at most `limit`. */
export async function sitemapProducts(db: Database, limit = 10_000): Promise<Product[]> {
  const rows = await db.select(productFields).from(products).orderBy(asc(products.createdAt), asc(products.id)).limit(limit);
  return withPhotos(db, rows);
}
