import { createHash } from 'node:crypto';

/** One stored width of an image, ready to send. */
export interface ImageVariant {
  bytes: Buffer;
  /** A quoted hash of the bytes: the same image has the same ETag in every store. */
  etag: string;
}

/**
 * Where product images are kept: files under DATA_DIR with the embedded database, PostgreSQL when the
 * shop runs on one (so that every server process reaches every image). A key such as
 * nails/{productId}_{time}_{random}.webp names an image; each of its widths is a variant.
 */
export interface ImageStore {
  /** Stores every width of an image: all of them, or none when it fails. */
  put(key: string, variants: ReadonlyMap<number, Buffer>): Promise<void>;
  /** One width of an image; null when the store does not have it. */
  read(key: string, width: number): Promise<ImageVariant | null>;
  /** Removes every width of an image; an unknown key is not an error. */
  remove(key: string): Promise<void>;
  /** Keys of the stored images, for finding those that no product references. */
  listKeys(): Promise<string[]>;
}

export function imageEtag(bytes: Buffer): string {
  return `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 32)}"`;
}
