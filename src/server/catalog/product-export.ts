import { asc, gt } from 'drizzle-orm';
import type { Product } from '#shared/catalog.js';
import { csvRow } from '#shared/csv.js';
import type { OptionGroup } from '#shared/product-options.js';
import type { Executor } from '#server/db/client.js';
import { products } from '#server/db/schema.js';
import { EXTRA_COLUMNS } from '#server/import/product-csv.js';
import { withPhotos } from './product-queries.js';

/** Products read at a time: the export never holds more than a page of the catalogue. */
const PAGE_SIZE = 200;

const GROUPS = [1, 2, 3] as const;

/**
 * The columns of Shopify's product CSV that the catalogue fills, and the shop's own beside them:
 * the Bulgarian texts, a count for all variants together, and the model's parts Shopify has no
 * column for (sizing, questions, lead time, return rule). Shopify ignores the shop's columns; the
 * shop's import (import/product-csv.ts) reads them back.
 */
const HEADER = [
  'Handle',
  'Title',
  EXTRA_COLUMNS.titleBg,
  'Body (HTML)',
  EXTRA_COLUMNS.bodyBg,
  'Type',
  'Published',
  'Status',
  ...GROUPS.flatMap((group) => [`Option${group} Name`, EXTRA_COLUMNS.optionNameBg(group), `Option${group} Value`, EXTRA_COLUMNS.optionValueBg(group)]),
  'Variant Inventory Tracker',
  'Variant Inventory Qty',
  'Variant Inventory Policy',
  'Variant Fulfillment Service',
  'Variant Price',
  'Variant Requires Shipping',
  'Variant Grams',
  'Variant Weight Unit',
  'Image Src',
  'Image Position',
  'Image Alt Text',
  EXTRA_COLUMNS.productStock,
  EXTRA_COLUMNS.model,
] as const;

type Column = (typeof HEADER)[number];
type Cells = Partial<Record<Column, string | number>>;

const escapeHtml = (text: string) => text.replace(/[<>&"]/g, (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[char]!);

/** The shop's plain text as the HTML Shopify keeps: paragraphs at blank lines, line breaks within them. */
const textToHtml = (text: string) =>
  text
    .split(/\n{2,}/)
    .filter((paragraph) => paragraph.trim() !== '')
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, '<br>')}</p>`)
    .join('');

/** Every combination of the groups' values, in the groups' order, as value indexes. */
function allCombinations(groups: readonly OptionGroup[]): number[][] {
  return groups.reduce<number[][]>((combinations, group) => combinations.flatMap((combination) => group.values.map((_, index) => [...combination, index])), [[]]);
}

/** The rows of one product: one per variant (every combination it sells), then one per further photo. */
function productRows(product: Product, publicUrl: string): Cells[] {
  const groups = product.optionGroups;
  const counted = product.stockMode === 'combination' && groups.length > 0;
  const stockOf = new Map(product.combinations.map((combination) => [combination.key, combination.stock]));
  const combinations = groups.length === 0 ? [[]] : allCombinations(groups).filter((indexes) => !counted || stockOf.has(indexes.map((index, group) => groups[group]!.values[index]!.id).join('/')));
  const photo = (index: number) => product.photos[index];
  const rows: Cells[] = combinations.map((indexes, position) => {
    const values = indexes.map((index, group) => groups[group]!.values[index]!);
    const key = values.map((value) => value.id).join('/');
    const stock = counted ? (stockOf.get(key) ?? null) : groups.length === 0 ? product.stock : null;
    const cells: Cells = {
      Handle: product.slug,
      'Variant Price': ((product.priceMinor + values.reduce((sum, value) => sum + value.priceDeltaMinor, 0)) / 100).toFixed(2),
      'Variant Inventory Tracker': stock === null ? '' : 'shopify',
      'Variant Inventory Qty': stock === null ? '' : stock,
      'Variant Inventory Policy': stock === null ? 'continue' : 'deny',
      'Variant Fulfillment Service': 'manual',
      'Variant Requires Shipping': 'TRUE',
      ...(product.weightGrams === null ? {} : { 'Variant Grams': product.weightGrams, 'Variant Weight Unit': 'g' }),
    };
    GROUPS.forEach((group, at) => {
      if (!groups[at]) return;
      cells[`Option${group} Value`] = values[at]!.name.en || values[at]!.name.bg;
      cells[EXTRA_COLUMNS.optionValueBg(group)] = values[at]!.name.bg;
    });
    if (position > 0) return cells;
    const image = photo(0);
    return {
      ...cells,
      Title: product.name.en,
      [EXTRA_COLUMNS.titleBg]: product.name.bg,
      'Body (HTML)': textToHtml(product.description.en),
      [EXTRA_COLUMNS.bodyBg]: textToHtml(product.description.bg),
      Type: product.category,
      Published: 'TRUE',
      Status: 'active',
      ...Object.fromEntries(
        GROUPS.flatMap((group, at) =>
          groups[at]
            ? [
                [`Option${group} Name`, groups[at].name.en || groups[at].name.bg],
                [EXTRA_COLUMNS.optionNameBg(group), groups[at].name.bg],
              ]
            : group === 1
              ? [
                  ['Option1 Name', 'Title'],
                  ['Option1 Value', 'Default Title'],
                ]
              : [],
        ),
      ),
      ...(image ? { 'Image Src': `${publicUrl}${image.url}`, 'Image Position': 1, 'Image Alt Text': image.alt.en || image.alt.bg } : {}),
      [EXTRA_COLUMNS.productStock]: groups.length > 0 && !counted ? (product.stock ?? 'made to order') : '',
      [EXTRA_COLUMNS.model]: JSON.stringify({ sized: product.sized, questions: product.questions, leadTime: product.leadTime, returnRule: product.returnRule }),
    };
  });
  for (const [index, image] of product.photos.entries()) {
    if (index === 0) continue;
    rows.push({ Handle: product.slug, 'Image Src': `${publicUrl}${image.url}`, 'Image Position': index + 1, 'Image Alt Text': image.alt.en || image.alt.bg });
  }
  return rows;
}

/**
 * The whole catalogue as Shopify's product CSV, so that the shop can be left for Shopify (or moved
 * to another copy of this shop, which reads its own columns back): UTF-8 with a byte order mark,
 * a page of products at a time. Photo addresses are the shop's public ones, which an importer fetches.
 */
export async function* productsCsv(db: Executor, publicUrl: string, pageSize = PAGE_SIZE): AsyncGenerator<string> {
  yield `\uFEFF${csvRow(HEADER)}`;
  let after: string | undefined;
  for (;;) {
    const rows = await db
      .select()
      .from(products)
      .where(after ? gt(products.id, after) : undefined)
      .orderBy(asc(products.id))
      .limit(pageSize);
    if (rows.length === 0) return;
    const page = await withPhotos(db, rows);
    yield page
      .flatMap((product) => productRows(product, publicUrl))
      .map((cells) => csvRow(HEADER.map((column) => cells[column] ?? '')))
      .join('');
    after = rows.at(-1)!.id;
    if (rows.length < pageSize) return;
  }
}
