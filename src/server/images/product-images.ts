import { randomInt } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp, { type Sharp } from 'sharp';
import { PRODUCT_IMAGE_WIDTHS } from '../../shared/catalog.js';
import { errorBody, HttpError } from '../http/errors.js';

const UPLOAD_FORMATS = new Set(['jpeg', 'png', 'webp']);
/** The largest image file an admin may upload. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/**
 * Product images live under DATA_DIR/images. A key such as nails/{productId}_{timestamp}.webp names
 * the image; each width is stored beside it as nails/{productId}_{timestamp}-{width}.webp.
 */
export class ProductImages {
  readonly root: string;

  constructor(dataDir: string) {
    this.root = path.resolve(dataDir, 'images');
  }

  /** Encodes an already decoded image to WebP in every width, without metadata, and returns its key. */
  async store(productId: string, image: Sharp): Promise<string> {
    // The time and three random digits: two photos of one product stored in the same millisecond get keys of their own.
    const key = `nails/${productId}_${Date.now()}${String(randomInt(1000)).padStart(3, '0')}.webp`;
    await mkdir(path.join(this.root, 'nails'), { recursive: true });
    for (const width of PRODUCT_IMAGE_WIDTHS) {
      await image
        .clone()
        .resize({ width, height: width, fit: 'cover' })
        .webp({ quality: 80, effort: 4 })
        .toFile(this.variantPath(key, width));
    }
    return key;
  }

  /**
   * Stores an uploaded image after checking what it is by its content, never its name: only JPEG,
   * PNG and WebP are taken (SVG may carry scripts). It is decoded and encoded again, which drops
   * any metadata and anything hidden after the pixels.
   */
  async storeUpload(productId: string, upload: Buffer): Promise<string> {
    let format: string | undefined;
    try {
      format = (await sharp(upload).metadata()).format;
    } catch {
      format = undefined;
    }
    if (!format || !UPLOAD_FORMATS.has(format)) {
      throw new HttpError(415, 'unsupported_media_type', 'Only JPEG, PNG and WebP images are accepted.');
    }
    try {
      return await this.store(productId, sharp(upload, { failOn: 'error' }).rotate());
    } catch {
      throw new HttpError(415, 'unsupported_media_type', 'The image could not be read.');
    }
  }

  async remove(key: string): Promise<void> {
    await Promise.all(PRODUCT_IMAGE_WIDTHS.map((width) => rm(this.variantPath(key, width), { force: true })));
  }

  /** Keys of images on disk, for finding files that no product references. */
  async listKeys(): Promise<string[]> {
    const files = await readdir(path.join(this.root, 'nails')).catch(() => [] as string[]);
    const keys = files.map((file) => file.match(/^(.+)-\d+\.webp$/)?.[1]).filter((name) => name !== undefined);
    return [...new Set(keys)].map((name) => `nails/${name}.webp`);
  }

  variantPath(key: string, width: number): string {
    return path.join(this.root, key.replace(/\.webp$/, `-${width}.webp`));
  }
}

export function imageUrlForKey(key: string | null): string | null {
  return key ? `/images/${key}` : null;
}

/** The smallest stored width that covers the requested one; the largest when none is asked for. */
export function pickWidth(requested: number | undefined): number {
  const widths = [...PRODUCT_IMAGE_WIDTHS];
  const largest = widths[widths.length - 1]!;
  if (!requested || !Number.isFinite(requested)) return largest;
  return widths.find((width) => width >= requested) ?? largest;
}

const IMAGE_NAME = /^[0-9a-f-]{36}_\d{10,16}\.webp$/;

export function registerImageRoutes(app: FastifyInstance, images: ProductImages): void {
  app.get<{ Params: { file: string }; Querystring: { w?: string } }>('/images/nails/:file', async (request, reply) => {
    const { file } = request.params;
    const notFound = () => reply.status(404).send(errorBody('not_found', 'Image not found'));
    if (!IMAGE_NAME.test(file)) return notFound();
    const filePath = images.variantPath(`nails/${file}`, pickWidth(Number(request.query.w)));
    const info = await stat(filePath).catch(() => null);
    if (!info) return notFound();
    return reply
      .header('content-type', 'image/webp')
      .header('content-length', info.size)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(createReadStream(filePath));
  });
}
