import { productModelSchema, PRODUCT_DESCRIPTION_MAX_LENGTH, PRODUCT_NAME_MAX_LENGTH, type ProductModelInput } from '#shared/catalog-schemas.js';
import { MAX_PRODUCT_PHOTOS, type LocalizedText, type ProductCategory } from '#shared/catalog.js';
import { CsvError, parseCsv } from '#shared/csv.js';
import { MAX_PRICE_MINOR } from '#shared/money.js';
import { MAX_OPTION_GROUPS, MAX_OPTION_VALUES, MAX_PRICE_DELTA_MINOR, type OptionGroup } from '#shared/product-options.js';
import { slugify } from '#shared/slug.js';
import { MAX_STOCK } from '#shared/stock.js';
import { storableText } from '#shared/text.js';
import type { ImportProblem } from './legacy-export.js';
import { categoryNamed, moneyOf } from './legacy-export.js';
import { plainText } from './plain-text.js';

/**
 * Product CSVs of other shops, read into products the shop can store: Shopify's product CSV (a row
 * per variant and per further image, grouped by Handle) and WooCommerce's (a row per product and per
 * variation, variations naming their parent), with the shop's own extra columns for the Bulgarian
 * texts and the parts of a product the others have no column for (as catalog/product-export.ts writes them).
 * Every problem is noted against the product's id in the file; nothing is written here.
 */

export type ProductCsvFormat = 'shopify' | 'woocommerce';

export interface CsvProduct {
  /** The product's id in the file: Shopify's Handle, WooCommerce's ID (or SKU). */
  originalId: string;
  name: LocalizedText;
  description: LocalizedText;
  priceMinor: number;
  category: ProductCategory | '';
  model: ProductModelInput;
  /** The count of a product counted as a whole; null when made to order. */
  stock: number | null;
  /** Photo addresses, the cover first. */
  photos: string[];
  /** One piece's weight in grams (Shopify's Variant Grams, WooCommerce's Weight (kg)); undefined: the file gives none. */
  weightGrams: number | undefined;
}

export interface ProductCsv {
  format: ProductCsvFormat;
  /** Written by this shop's export (it has the shop's own columns): its Handles are the shop's product addresses. */
  fromThisShop: boolean;
  products: CsvProduct[];
  /** Products in the file that could not be read, each with its problem. */
  unreadable: number;
  problems: ImportProblem[];
}

export class ProductCsvError extends Error {}

/** The shop's own columns, which other shops ignore: the Bulgarian texts, and what only this shop has. */
export const EXTRA_COLUMNS = {
  titleBg: 'Title (bg)',
  bodyBg: 'Body (HTML) (bg)',
  optionNameBg: (group: number) => `Option${group} Name (bg)`,
  optionValueBg: (group: number) => `Option${group} Value (bg)`,
  /** A count for all the variants together (Shopify counts each). */
  productStock: 'Nail Art Product Stock',
  /** Sizing, questions, lead time and return rule, as JSON of the product model's fields. */
  model: 'Nail Art Model',
} as const;

type Row = (column: string) => string;

/** The rows of a CSV as lookups by column name (case and spacing as written by the exporting shop). */
function rowsOf(text: string): { header: string[]; rows: Row[] } {
  let table: string[][];
  try {
    table = parseCsv(text);
  } catch (error) {
    throw new ProductCsvError(error instanceof CsvError ? error.message : 'The file is not CSV.');
  }
  const [header, ...body] = table;
  if (!header || header.length < 2) throw new ProductCsvError('The file has no header row of column names.');
  const index = new Map(header.map((name, position) => [name.trim().toLowerCase(), position]));
  const rows = body.filter((cells) => cells.some((cell) => cell.trim() !== '')).map((cells): Row => (column) => storableText(cells[index.get(column.toLowerCase()) ?? -1] ?? '').trim());
  return { header: header.map((name) => name.trim()), rows };
}

/** Which shop wrote the file, by its columns. */
function detectFormat(header: readonly string[]): ProductCsvFormat | null {
  const names = new Set(header.map((name) => name.toLowerCase()));
  if (names.has('handle') && names.has('title')) return 'shopify';
  if (names.has('type') && names.has('name') && (names.has('regular price') || names.has('sku'))) return 'woocommerce';
  return null;
}

/** A category of the shop from another shop's type or category path ("Nails > Press-on"). */
function categoryOf(text: string): ProductCategory | '' | null {
  if (!text) return '';
  for (const part of text.split(/[>,|/]/)) {
    const category = categoryNamed(part);
    if (category) return category;
  }
  return null;
}

/** An option value's id: its name in Latin letters, made unique in its group. */
function valueId(name: string, taken: Set<string>): string {
  const base = slugify(name).slice(0, 36) || 'value';
  let id = base;
  for (let suffix = 2; taken.has(id); suffix++) id = `${base}-${suffix}`;
  taken.add(id);
  return id;
}

interface Variant {
  values: string[];
  priceMinor: number;
  stock: number | null;
}

interface ProductDraft {
  originalId: string;
  name: LocalizedText;
  description: LocalizedText;
  category: ProductCategory | '';
  groups: Array<{ name: LocalizedText; values: Array<{ name: LocalizedText }> }>;
  variants: Variant[];
  productStock: number | null | undefined;
  photos: string[];
  modelJson: string;
  weightGrams: number | undefined;
}

class Reader {
  readonly problems: ImportProblem[] = [];
  constructor(private readonly collection: string) {}

  problem(id: string, field: string, message: string): void {
    this.problems.push({ collection: this.collection, id, field, message });
  }

  text(id: string, field: string, value: string, max: number): string {
    const text = plainText(value);
    if (text.length <= max) return text;
    this.problem(id, field, `is longer than ${max} characters; cut to ${max}`);
    return text.slice(0, max);
  }

  price(id: string, field: string, value: string): number | undefined {
    if (!value) return undefined;
    const minor = moneyOf(value);
    if (minor === undefined || minor > MAX_PRICE_MINOR) {
      this.problem(id, field, `"${value.slice(0, 40)}" is not a price; the variant was left out`);
      return undefined;
    }
    return minor;
  }

  count(id: string, field: string, value: string): number | null {
    if (!value) return null;
    const count = Number(value);
    if (Number.isInteger(count) && count >= 0) return Math.min(count, MAX_STOCK);
    if (Number.isInteger(count) && count < 0) return 0;
    this.problem(id, field, `"${value.slice(0, 40)}" is not a count; made to order`);
    return null;
  }

  /** A weight as the file writes it (grams, or kilograms for WooCommerce), in whole grams; undefined when there is none or it is no weight. */
  weight(id: string, field: string, value: string, gramsPerUnit: number): number | undefined {
    if (!value) return undefined;
    const grams = Math.round(Number(value.replace(',', '.')) * gramsPerUnit);
    if (Number.isFinite(grams) && grams > 0 && grams <= 30_000) return grams;
    // Shopify writes 0 for a product it was never told the weight of: that is no weight, not a problem.
    if (grams !== 0) this.problem(id, field, `"${value.slice(0, 40)}" is not a weight the shop takes (1 g to 30 kg); left without one`);
    return undefined;
  }

  /** The product as the shop stores it, with additive option prices: each variant's price must be the base plus its values' differences. */
  product(draft: ProductDraft): CsvProduct | null {
    const { originalId } = draft;
    if (!draft.name.en && !draft.name.bg) {
      this.problem(originalId, 'Title', 'is missing; the product was not imported');
      return null;
    }
    const variants = draft.variants;
    if (variants.length === 0) {
      this.problem(originalId, 'Variant Price', 'no variant has a price; the product was not imported');
      return null;
    }
    const groups = draft.groups.slice(0, MAX_OPTION_GROUPS);
    if (draft.groups.length > MAX_OPTION_GROUPS) this.problem(originalId, 'Option4 Name', `the shop has at most ${MAX_OPTION_GROUPS} options; the rest were left out`);

    // The cheapest variant is the base; a value's difference is what a variant differing from the base by that value alone costs more.
    const base = variants.reduce((cheapest, variant) => (variant.priceMinor < cheapest.priceMinor ? variant : cheapest));
    const optionGroups: OptionGroup[] = [];
    const ids: Array<Map<string, string>> = [];
    for (const [position, group] of groups.entries()) {
      const taken = new Set<string>();
      const byName = new Map<string, string>();
      const values = group.values.slice(0, MAX_OPTION_VALUES).map((value) => {
        const id = valueId(value.name.en || value.name.bg, taken);
        byName.set(value.name.en || value.name.bg, id);
        const alone = variants.find((variant) => variant.values[position] === (value.name.en || value.name.bg) && variant.values.every((other, at) => at === position || other === base.values[at]));
        let delta = alone ? alone.priceMinor - base.priceMinor : 0;
        if (Math.abs(delta) > MAX_PRICE_DELTA_MINOR) {
          this.problem(originalId, `Option${position + 1} Value`, `${value.name.en || value.name.bg} costs more than ${MAX_PRICE_DELTA_MINOR / 100} more than the base; its difference was limited`);
          delta = Math.sign(delta) * MAX_PRICE_DELTA_MINOR;
        }
        return { id, name: value.name, priceDeltaMinor: delta };
      });
      if (group.values.length > MAX_OPTION_VALUES) this.problem(originalId, `Option${position + 1} Value`, `an option has at most ${MAX_OPTION_VALUES} values; the rest were left out`);
      ids.push(byName);
      optionGroups.push({ id: valueId(group.name.en || group.name.bg || `option-${position + 1}`, new Set(optionGroups.map((known) => known.id))), name: group.name, values });
    }
    const keyOf = (variant: Variant) => (optionGroups.length === 0 ? '' : variant.values.slice(0, optionGroups.length).map((name, position) => ids[position]!.get(name) ?? '').join('/'));
    for (const variant of variants) {
      if (optionGroups.length === 0) break;
      const expected = base.priceMinor + variant.values.slice(0, optionGroups.length).reduce((sum, name, position) => sum + (optionGroups[position]!.values.find((value) => value.id === ids[position]!.get(name))?.priceDeltaMinor ?? 0), 0);
      if (expected !== variant.priceMinor) {
        this.problem(originalId, 'Variant Price', `${variant.values.join(' / ')} costs ${(variant.priceMinor / 100).toFixed(2)}; the shop adds up option prices and sells it for ${(expected / 100).toFixed(2)}`);
      }
    }

    let extra: Partial<ProductModelInput> = {};
    if (draft.modelJson) {
      try {
        const parsed = JSON.parse(draft.modelJson) as Record<string, unknown>;
        extra = { sized: parsed.sized as boolean, questions: parsed.questions as ProductModelInput['questions'], leadTime: parsed.leadTime as ProductModelInput['leadTime'], returnRule: parsed.returnRule as ProductModelInput['returnRule'] };
      } catch {
        this.problem(originalId, EXTRA_COLUMNS.model, 'is not JSON; left out');
      }
    }
    const counted = optionGroups.length > 0 && draft.productStock === undefined && variants.some((variant) => variant.stock !== null);
    const candidate = {
      optionGroups,
      stockMode: counted ? 'combination' : 'product',
      combinations: counted ? variants.map((variant) => ({ key: keyOf(variant), stock: variant.stock })).filter((entry, index, all) => entry.key && all.findIndex((other) => other.key === entry.key) === index) : [],
      ...extra,
    };
    let checked = productModelSchema.safeParse(candidate);
    if (!checked.success && draft.modelJson) {
      this.problem(originalId, EXTRA_COLUMNS.model, `${checked.error.issues[0]?.message ?? 'is not a model'}; sizes, questions and lead time were left out`);
      checked = productModelSchema.safeParse({ ...candidate, sized: undefined, questions: undefined, leadTime: undefined, returnRule: undefined });
    }
    if (!checked.success) {
      this.problem(originalId, 'Option1 Name', `${checked.error.issues[0]?.message ?? 'the options cannot be read'}; the product was not imported`);
      return null;
    }
    const stock = optionGroups.length === 0 ? (draft.productStock ?? base.stock) : counted ? null : (draft.productStock ?? null);
    const photos = [...new Set(draft.photos)].filter((url) => url !== '');
    if (photos.length > MAX_PRODUCT_PHOTOS) this.problem(originalId, 'Image Src', `a product has at most ${MAX_PRODUCT_PHOTOS} photos; the rest were left out`);
    return {
      originalId,
      name: draft.name,
      description: draft.description,
      priceMinor: base.priceMinor,
      category: draft.category,
      model: checked.data,
      stock,
      photos: photos.slice(0, MAX_PRODUCT_PHOTOS),
      weightGrams: draft.weightGrams,
    };
  }
}

function readShopify(rows: Row[], reader: Reader): { products: CsvProduct[]; unreadable: number } {
  const byHandle = new Map<string, Row[]>();
  for (const row of rows) {
    const handle = row('Handle');
    if (!handle) continue;
    byHandle.set(handle, [...(byHandle.get(handle) ?? []), row]);
  }
  const products: CsvProduct[] = [];
  let unreadable = rows.filter((row) => !row('Handle')).length;
  if (unreadable > 0) reader.problem('', 'Handle', `${unreadable} row(s) without a Handle were left out`);
  for (const [handle, productRows] of byHandle) {
    const first = productRows[0]!;
    const status = first('Status').toLowerCase();
    if (status === 'draft' || status === 'archived') {
      reader.problem(handle, 'Status', `is ${status}; the product was not imported (the shop sells every product it has)`);
      unreadable++;
      continue;
    }
    const category = categoryOf(first('Type')) ?? categoryOf(first('Product Category'));
    if (category === null) reader.problem(handle, 'Type', `"${first('Type') || first('Product Category')}" is not a category of the shop; left without one`);
    const groups: ProductDraft['groups'] = [];
    for (let number = 1; number <= 4; number++) {
      const name = first(`Option${number} Name`);
      if (!name || (number === 1 && name === 'Title' && first('Option1 Value') === 'Default Title')) continue;
      const values: Array<{ name: LocalizedText }> = [];
      for (const row of productRows) {
        const value = row(`Option${number} Value`);
        if (value && !values.some((known) => known.name.en === value)) values.push({ name: { en: value, bg: row(EXTRA_COLUMNS.optionValueBg(number)) } });
      }
      groups.push({ name: { en: name, bg: first(EXTRA_COLUMNS.optionNameBg(number)) }, values });
    }
    const variants: Variant[] = [];
    for (const row of productRows) {
      const priceText = row('Variant Price');
      if (!priceText) continue;
      const priceMinor = reader.price(handle, 'Variant Price', priceText);
      if (priceMinor === undefined) continue;
      const tracked = row('Variant Inventory Tracker') !== '' || (row('Variant Inventory Qty') !== '' && !rowsHaveTracker(productRows));
      variants.push({ values: groups.map((_, position) => row(`Option${position + 1} Value`)), priceMinor, stock: tracked ? reader.count(handle, 'Variant Inventory Qty', row('Variant Inventory Qty')) : null });
    }
    const images = productRows
      .filter((row) => row('Image Src'))
      .map((row, index) => ({ src: row('Image Src'), position: Number(row('Image Position')) || index + 1 }))
      .sort((a, b) => a.position - b.position)
      .map((image) => image.src);
    const productStockText = first(EXTRA_COLUMNS.productStock);
    const product = reader.product({
      originalId: handle,
      name: { en: reader.text(handle, 'Title', first('Title'), PRODUCT_NAME_MAX_LENGTH), bg: reader.text(handle, EXTRA_COLUMNS.titleBg, first(EXTRA_COLUMNS.titleBg), PRODUCT_NAME_MAX_LENGTH) },
      description: { en: reader.text(handle, 'Body (HTML)', first('Body (HTML)'), PRODUCT_DESCRIPTION_MAX_LENGTH), bg: reader.text(handle, EXTRA_COLUMNS.bodyBg, first(EXTRA_COLUMNS.bodyBg), PRODUCT_DESCRIPTION_MAX_LENGTH) },
      category: category ?? '',
      groups,
      variants,
      productStock: productStockText === '' ? undefined : productStockText === 'made to order' ? null : reader.count(handle, EXTRA_COLUMNS.productStock, productStockText),
      photos: [...images, ...productRows.map((row) => row('Variant Image'))],
      modelJson: first(EXTRA_COLUMNS.model),
      weightGrams: reader.weight(handle, 'Variant Grams', first('Variant Grams'), 1),
    });
    if (product) products.push(product);
    else unreadable++;
  }
  return { products, unreadable };
}

/** Shopify leaves the tracker empty for variants whose stock it does not count; an export without the column counts every variant that has a count. */
const rowsHaveTracker = (rows: Row[]) => rows.some((row) => row('Variant Inventory Tracker') !== '');

function readWooCommerce(rows: Row[], reader: Reader): { products: CsvProduct[]; unreadable: number } {
  const parents = rows.filter((row) => row('Type').split(',').map((type) => type.trim().toLowerCase()).some((type) => type === 'simple' || type === 'variable'));
  const variations = rows.filter((row) => row('Type').trim().toLowerCase() === 'variation');
  let unreadable = rows.length - parents.length - variations.length;
  if (unreadable > 0) reader.problem('', 'Type', `${unreadable} row(s) of other types (grouped, external) were left out`);
  const products: CsvProduct[] = [];
  const attributeCount = (row: Row) => {
    let count = 0;
    while (row(`Attribute ${count + 1} name`)) count++;
    return count;
  };
  for (const row of parents) {
    const originalId = row('ID') || row('SKU');
    if (!originalId) {
      reader.problem('', 'ID', 'a product has neither an ID nor a SKU; it was not imported');
      unreadable++;
      continue;
    }
    if (row('Published') === '0' || row('Published') === '-1') {
      reader.problem(originalId, 'Published', 'is not published; the product was not imported (the shop sells every product it has)');
      unreadable++;
      continue;
    }
    const category = categoryOf(row('Categories'));
    if (category === null) reader.problem(originalId, 'Categories', `"${row('Categories')}" names no category of the shop; left without one`);
    const priceOf = (of: Row) => of('Sale price') || of('Regular price');
    const stockOf = (of: Row) => (of('Stock') !== '' ? reader.count(originalId, 'Stock', of('Stock')) : of('In stock?') === '0' ? 0 : null);
    const variable = row('Type').toLowerCase().includes('variable');
    const groups: ProductDraft['groups'] = [];
    const variants: Variant[] = [];
    if (variable) {
      for (let number = 1; number <= attributeCount(row); number++) {
        const values = row(`Attribute ${number} value(s)`)
          .split(',')
          .map((value) => value.trim())
          .filter(Boolean)
          .map((value) => ({ name: { en: value, bg: '' } }));
        groups.push({ name: { en: row(`Attribute ${number} name`), bg: '' }, values });
      }
      const mine = variations.filter((variation) => [`id:${row('ID')}`, row('SKU')].includes(variation('Parent')) && variation('Parent') !== '');
      for (const variation of mine) {
        const priceMinor = reader.price(originalId, 'Regular price', priceOf(variation));
        if (priceMinor === undefined) continue;
        // A variation names its values by attribute name; "any" (empty) is the group's first value.
        const values = groups.map((group) => {
          for (let number = 1; number <= attributeCount(variation); number++) {
            if (variation(`Attribute ${number} name`) === group.name.en) return variation(`Attribute ${number} value(s)`) || group.values[0]?.name.en || '';
          }
          return group.values[0]?.name.en ?? '';
        });
        variants.push({ values, priceMinor, stock: stockOf(variation) });
      }
    } else {
      const priceMinor = reader.price(originalId, 'Regular price', priceOf(row));
      if (priceMinor !== undefined) variants.push({ values: [], priceMinor, stock: stockOf(row) });
    }
    const product = reader.product({
      originalId,
      name: { en: reader.text(originalId, 'Name', row('Name'), PRODUCT_NAME_MAX_LENGTH), bg: '' },
      description: { en: reader.text(originalId, 'Description', row('Description') || row('Short description'), PRODUCT_DESCRIPTION_MAX_LENGTH), bg: '' },
      category: category ?? '',
      groups,
      variants,
      productStock: undefined,
      photos: row('Images')
        .split(',')
        .map((url) => url.trim()),
      modelJson: '',
      weightGrams: reader.weight(originalId, 'Weight (kg)', row('Weight (kg)'), 1000),
    });
    if (product) products.push(product);
    else unreadable++;
  }
  return { products, unreadable };
}

/** Reads a product CSV of Shopify or WooCommerce (told apart by its columns, unless the format is given). */
export function readProductCsv(text: string, format?: ProductCsvFormat): ProductCsv {
  const { header, rows } = rowsOf(text);
  const detected = format ?? detectFormat(header);
  if (!detected) throw new ProductCsvError('The columns are neither Shopify’s product CSV (Handle, Title, Variant Price...) nor WooCommerce’s (ID, Type, Name, Regular price...).');
  const reader = new Reader('products');
  const read = detected === 'shopify' ? readShopify(rows, reader) : readWooCommerce(rows, reader);
  const fromThisShop = detected === 'shopify' && header.includes(EXTRA_COLUMNS.model);
  return { format: detected, fromThisShop, ...read, problems: reader.problems };
}
