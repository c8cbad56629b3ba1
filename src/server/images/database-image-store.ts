import { and, eq } from 'drizzle-orm';
import type { Database } from '#server/db/client.js';
import { imageVariants } from '#server/db/schema.js';
import { imageEtag, type ImageStore, type ImageVariant } from './image-store.js';

/**
 * Images as rows of image_variants, for a shop on PostgreSQL: every server process of the shop
 * reaches every image, whatever machine and DATA_DIR it has.
 */
export class DatabaseImageStore implements ImageStore {
  constructor(private readonly db: Database) {}

  async put(key: string, variants: ReadonlyMap<number, Buffer>): Promise<void> {
    const rows = [...variants].map(([width, bytes]) => ({ key, width, bytes, etag: imageEtag(bytes) }));
    // One statement is one transaction: a failure stores none of the widths.
    await this.db.insert(imageVariants).values(rows);
  }

  /**
   * Stores only the widths not stored yet, in one transaction; the count of those stored. Copying
   * from files runs again after a failure without changing what it copied before.
   */
  async putMissing(key: string, variants: ReadonlyMap<number, Buffer>): Promise<number> {
    const rows = [...variants].map(([width, bytes]) => ({ key, width, bytes, etag: imageEtag(bytes) }));
    if (!rows.length) return 0;
    const added = await this.db.insert(imageVariants).values(rows).onConflictDoNothing().returning({ width: imageVariants.width });
    return added.length;
  }

  async read(key: string, width: number): Promise<ImageVariant | null> {
    const [row] = await this.db
      .select({ bytes: imageVariants.bytes, etag: imageVariants.etag })
      .from(imageVariants)
      .where(and(eq(imageVariants.key, key), eq(imageVariants.width, width)));
    return row ?? null;
  }

  async remove(key: string): Promise<void> {
    await this.db.delete(imageVariants).where(eq(imageVariants.key, key));
  }

  async listKeys(): Promise<string[]> {
    const rows = await this.db.selectDistinct({ key: imageVariants.key }).from(imageVariants);
    return rows.map((row) => row.key);
  }
}
