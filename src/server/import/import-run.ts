import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Database, Executor } from '#server/db/client.js';
import { importedRecords, productPhotos } from '#server/db/schema.js';
import { inTransaction } from '#server/db/transaction.js';
import { HttpError } from '#server/http/errors.js';
import type { ProductImages } from '#server/images/product-images.js';
import type { ImportProblem } from './legacy-export.js';
import type { ImportImages } from './import-images.js';

/** What an import did (or, in a dry run, would do) with the records of one collection. */
export interface CollectionCounts {
  created: number;
  updated: number;
  unchanged: number;
  skipped: number;
}

export interface ImportReport<Collection extends string = string> {
  dryRun: boolean;
  counts: Record<Collection, CollectionCounts>;
  problems: ImportProblem[];
}

export const noCounts = (skipped = 0): CollectionCounts => ({ created: 0, updated: 0, unchanged: 0, skipped });

/** Runs one batch of records in a transaction. */
export type Batch = (work: (tx: Executor) => Promise<void>) => Promise<void>;

class DryRunRollback extends Error {}

/**
 * Runs an import's batches: each in a transaction of its own, so that an import stopped half-way
 * keeps the batches it finished; or, for a dry run, all in one transaction that is rolled back, so
 * that later batches see what earlier ones would have written and the report is what an import would do.
 */
export async function runImport(db: Database, dryRun: boolean, run: (batch: Batch) => Promise<void>): Promise<void> {
  if (!dryRun) return run((work) => inTransaction(db, work));
  try {
    await db.transaction(async (tx) => {
      await run(async (work) => work(tx));
      throw new DryRunRollback();
    });
  } catch (error) {
    if (!(error instanceof DryRunRollback)) throw error;
  }
}

/** What the file said of a record, in a few characters: the same record imported again is known unchanged. */
export const fingerprintOf = (record: unknown) => createHash('sha256').update(JSON.stringify(record)).digest('base64url').slice(0, 32);

/**
 * The shop's notes of what imports brought in (imported_records): each record by its source, its
 * collection and its original id, with the shop's record it became and the fingerprint it had.
 */
export class ImportedRecords {
  constructor(private readonly source: string) {}

  async previous(tx: Executor, collection: string, originalId: string): Promise<{ localId: string; fingerprint: string } | undefined> {
    const [row] = await tx
      .select({ localId: importedRecords.localId, fingerprint: importedRecords.fingerprint })
      .from(importedRecords)
      .where(and(eq(importedRecords.source, this.source), eq(importedRecords.collection, collection), eq(importedRecords.originalId, originalId)));
    return row;
  }

  async remember(tx: Executor, collection: string, originalId: string, localId: string, fingerprint: string): Promise<void> {
    await tx
      .insert(importedRecords)
      .values({ source: this.source, collection, originalId, localId, fingerprint })
      .onConflictDoUpdate({ target: [importedRecords.source, importedRecords.collection, importedRecords.originalId], set: { localId, fingerprint, importedAt: sql`now()` } });
  }
}

/**
 * Product photos an import finds and stores through the shop's checks for uploads (or, in a dry run,
 * only checks). A photo that cannot be read is a problem of its product, which stays without it.
 * The photos stored for a batch that then fails are removed again (batch() removes them when its run throws).
 */
export class ImportPhotos {
  private stored: string[] = [];

  constructor(
    private readonly images: ImportImages,
    private readonly productImages: ProductImages,
    private readonly dryRun: boolean,
  ) {}

  /** Adds the photo at the position; the reason when it could not. */
  async add(tx: Executor, productId: string, source: string, position: number): Promise<string | null> {
    const found = await this.images.find(source);
    if ('problem' in found) return `${found.problem}; the product has no photo from it`;
    try {
      if (this.dryRun) {
        await this.productImages.checkUpload(found.bytes);
        return null;
      }
      const imageKey = await this.productImages.storeUpload(productId, found.bytes);
      this.stored.push(imageKey);
      await tx.insert(productPhotos).values({ productId, position, imageKey });
      return null;
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      const reason = error.statusCode === 415 ? error.message : 'The image has more pixels than the shop takes.';
      return `${reason} The product has no photo from it.`;
    }
  }

  /** Runs a batch, removing the photos it stored if it fails. */
  async batch(run: () => Promise<void>): Promise<void> {
    this.stored = [];
    try {
      await run();
    } catch (error) {
      if (!this.dryRun) await Promise.all(this.stored.map((key) => this.productImages.remove(key)));
      throw error;
    }
  }
}
