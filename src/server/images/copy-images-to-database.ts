import { PRODUCT_IMAGE_WIDTHS } from '#shared/catalog.js';
import type { DatabaseImageStore } from './database-image-store.js';
import type { ImageStore } from './image-store.js';

export interface CopyReport {
  /** Images found in the files. */
  found: number;
  /** Images with at least one width copied now. */
  copied: number;
  /** Images the database had in every width already. */
  alreadyThere: number;
  /** Keys of images that lack a width in the files; the widths they have are copied. */
  incomplete: string[];
}

/**
 * Copies every image of the file store into the database store, one image at a time (so that memory
 * holds one image's widths at most), each in one transaction. What the database has is left as it
 * is, so a second run, or one after a failure, copies only what is still missing. The files stay.
 */
export async function copyImagesToDatabase(files: ImageStore, database: DatabaseImageStore): Promise<CopyReport> {
  const report: CopyReport = { found: 0, copied: 0, alreadyThere: 0, incomplete: [] };
  for (const key of (await files.listKeys()).sort()) {
    report.found++;
    const variants = new Map<number, Buffer>();
    for (const width of PRODUCT_IMAGE_WIDTHS) {
      const variant = await files.read(key, width);
      if (variant) variants.set(width, variant.bytes);
    }
    if (variants.size < PRODUCT_IMAGE_WIDTHS.length) report.incomplete.push(key);
    if ((await database.putMissing(key, variants)) > 0) report.copied++;
    else report.alreadyThere++;
  }
  return report;
}
