import { randomUUID } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import type { Database, Executor } from '#server/db/client.js';
import { productPhotos, products } from '#server/db/schema.js';
import type { ProductImages } from '#server/images/product-images.js';
import { catalogueChanged } from '#server/catalog/catalogue-state.js';
import { freeSlug, modelColumns, productColumns, replaceCombinations } from '#server/catalog/product-writes.js';
import { lockForStockChange, recordStockSet } from '#server/stock/service.js';
import type { ImportImages } from './import-images.js';
import { fingerprintOf, ImportedRecords, ImportPhotos, noCounts, runImport, type Batch, type ImportReport } from './import-run.js';
import type { CsvProduct, ProductCsv } from './product-csv.js';

export interface ProductImportOptions {
  dryRun: boolean;
  images: ImportImages;
  productImages: ProductImages;
  /** Who the stock history names for the counts the import sets. */
  importedBy: string;
}

/** Products per transaction; their photos are fetched while the batch's transaction is open, so batches stay small. */
const BATCH_SIZE = 25;

/**
 * Writes the products of another shop's CSV into the catalogue. As with the original app's data,
 * each product is matched with what an earlier import of the same shop's file made of it (by its id
 * in the file), left alone when the file says the same, updated when it changed, created when new;
 * in batches, each in a transaction, with a dry run that writes nothing. A file this shop exported
 * (edited in a spreadsheet, say) names its products by their addresses: one the shop has is updated,
 * not copied.
 */
export async function importProductCsv(db: Database, csv: ProductCsv, options: ProductImportOptions): Promise<ImportReport<'products'>> {
  const report: ImportReport<'products'> = { dryRun: options.dryRun, counts: { products: noCounts(csv.unreadable) }, problems: [...csv.problems] };
  await runImport(db, options.dryRun, (batch) => new ProductImport(report, options, new ImportedRecords(csv.format), batch, csv.fromThisShop).run(csv.products));
  return report;
}

class ProductImport {
  private readonly photos: ImportPhotos;

  constructor(
    private readonly report: ImportReport<'products'>,
    private readonly options: ProductImportOptions,
    private readonly imported: ImportedRecords,
    private readonly batch: Batch,
    private readonly fromThisShop: boolean,
  ) {
    this.photos = new ImportPhotos(options.images, options.productImages, options.dryRun);
  }

  async run(list: readonly CsvProduct[]): Promise<void> {
    for (let start = 0; start < list.length; start += BATCH_SIZE) {
      const batch = list.slice(start, start + BATCH_SIZE);
      await this.photos.batch(() =>
        this.batch(async (tx) => {
          for (const product of batch) await this.product(tx, product);
          await catalogueChanged(tx);
        }),
      );
    }
  }

  private async addPhotos(tx: Executor, productId: string, product: CsvProduct): Promise<void> {
    let position = 0;
    for (const source of product.photos) {
      const problem = await this.photos.add(tx, productId, source, position);
      if (problem) this.report.problems.push({ collection: 'products', id: product.originalId, field: 'Image Src', message: problem });
      else position++;
    }
  }

  /** The shop's product at this address (a Handle of its own export), as if an earlier import had made it. */
  private async productAt(tx: Executor, slug: string): Promise<{ localId: string; fingerprint: string } | undefined> {
    const [row] = await tx.select({ localId: products.id }).from(products).where(eq(products.slug, slug));
    return row ? { localId: row.localId, fingerprint: '' } : undefined;
  }

  private async product(tx: Executor, product: CsvProduct): Promise<void> {
    const counts = this.report.counts.products;
    const fingerprint = fingerprintOf(product);
    const before = (await this.imported.previous(tx, 'products', product.originalId)) ?? (this.fromThisShop ? await this.productAt(tx, product.originalId) : undefined);
    if (before?.fingerprint === fingerprint) return void counts.unchanged++;
    const fields = { name: product.name, description: product.description, priceMinor: product.priceMinor, category: product.category, weightGrams: product.weightGrams };
    const counted = product.model.stockMode === 'combination' && product.model.optionGroups.length > 0;
    if (before) {
      const current = await lockForStockChange(tx, before.localId);
      if (!current) {
        this.report.problems.push({ collection: 'products', id: product.originalId, field: '', message: 'was deleted in the shop after an earlier import; not brought back' });
        return void counts.skipped++;
      }
      const stock = counted ? null : product.stock;
      await tx
        .update(products)
        .set({ ...productColumns(fields), ...modelColumns(product.model), stock, updatedAt: new Date() })
        .where(eq(products.id, before.localId));
      if (stock !== current.stock) await recordStockSet(tx, before.localId, current.stock, stock, this.options.importedBy);
      await replaceCombinations(tx, before.localId, product.model, this.options.importedBy);
      const [photos] = await tx.select({ count: count() }).from(productPhotos).where(eq(productPhotos.productId, before.localId));
      if (photos?.count === 0) await this.addPhotos(tx, before.localId, product);
      await this.imported.remember(tx, 'products', product.originalId, before.localId, fingerprint);
      return void counts.updated++;
    }
    const id = randomUUID();
    const slug = await freeSlug(tx, product.name, id);
    const stock = counted ? null : product.stock;
    await tx.insert(products).values({ id, ...productColumns(fields), ...modelColumns(product.model), slug, stock });
    if (stock !== null) await recordStockSet(tx, id, null, stock, this.options.importedBy);
    await replaceCombinations(tx, id, product.model, this.options.importedBy);
    await this.addPhotos(tx, id, product);
    await this.imported.remember(tx, 'products', product.originalId, id, fingerprint);
    counts.created++;
  }
}
