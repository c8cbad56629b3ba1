import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PRODUCT_IMAGE_WIDTHS } from '#shared/catalog.js';
import { makePrivateFolder, PRIVATE_FILE_MODE } from '#server/private-files.js';
import { imageEtag, type ImageStore, type ImageVariant } from './image-store.js';

/**
 * Images as files under DATA_DIR/images, for a shop on the embedded database (one process, one
 * DATA_DIR): each width of nails/{name}.webp is the file nails/{name}-{width}.webp.
 */
export class FileImageStore implements ImageStore {
  readonly root: string;

  constructor(dataDir: string) {
    this.root = path.resolve(dataDir, 'images');
  }

  async put(key: string, variants: ReadonlyMap<number, Buffer>): Promise<void> {
    await makePrivateFolder(path.dirname(this.variantPath(key, 0)));
    try {
      for (const [width, bytes] of variants) await writeFile(this.variantPath(key, width), bytes, { mode: PRIVATE_FILE_MODE });
    } catch (error) {
      await this.removeWidths(key, [...variants.keys()]);
      throw error;
    }
  }

  async read(key: string, width: number): Promise<ImageVariant | null> {
    const bytes = await readFile(this.variantPath(key, width)).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
    return bytes && { bytes, etag: imageEtag(bytes) };
  }

  async remove(key: string): Promise<void> {
    await this.removeWidths(key, PRODUCT_IMAGE_WIDTHS);
  }

  async listKeys(): Promise<string[]> {
    const files = await readdir(path.join(this.root, 'nails')).catch(() => [] as string[]);
    const names = files.map((file) => file.match(/^(.+)-\d+\.webp$/)?.[1]).filter((name) => name !== undefined);
    return [...new Set(names)].map((name) => `nails/${name}.webp`);
  }

  variantPath(key: string, width: number): string {
    return path.join(this.root, key.replace(/\.webp$/, `-${width}.webp`));
  }

  private async removeWidths(key: string, widths: readonly number[]): Promise<void> {
    await Promise.all(widths.map((width) => rm(this.variantPath(key, width), { force: true })));
  }
}
