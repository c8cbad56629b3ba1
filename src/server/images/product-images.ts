import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Sharp } from 'sharp';
import { PRODUCT_IMAGE_WIDTHS } from '#shared/catalog.js';
import { MAX_PHOTO_PIXELS, PHOTO_TOO_MANY_PIXELS } from '#shared/photo-schemas.js';
import type { DatabaseHandle } from '#server/db/client.js';
import { errorBody, HttpError } from '#server/http/errors.js';
import { pickAnswer, type EncodedAnswers } from '#server/http/content-encoding.js';
import { shortPathQuery, type ReadyAnswer } from '#server/http/short-path.js';
import { invalidInput } from '#server/http/validation.js';
import { DatabaseImageStore } from './database-image-store.js';
import { FileImageStore } from './file-image-store.js';
import type { ImageStore, ImageVariant } from './image-store.js';
import { RecentImages } from './recent-images.js';

const UPLOAD_FORMATS = new Set(['jpeg', 'png', 'webp']);

/**
 * sharp (libvips and its threads) adds about 28 MB to the process once loaded, and only an admin's
 * upload needs it, so it is loaded then rather than at start.
 */
const loadSharp = async () => (await import('sharp')).default;

/** The largest image file an admin may upload. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;


/**
 * Product images: each is encoded to WebP in every width of PRODUCT_IMAGE_WIDTHS and kept in an
 * ImageStore under a key such as nails/{productId}_{time}_{random}.webp, which product_photos records.
 */
export class ProductImages {
  private readonly recent = new RecentImages();

  constructor(readonly storage: ImageStore) {}

  /** Encodes an already decoded image to WebP in every width, without metadata, and returns its key. */
  async store(productId: string, image: Sharp): Promise<string> {
    const variants = new Map<number, Buffer>();
    for (const width of PRODUCT_IMAGE_WIDTHS) {
      variants.set(width, await image.clone().resize({ width, height: width, fit: 'cover' }).webp({ quality: 80, effort: 4 }).toBuffer());
    }
    return this.storeEncoded(productId, variants);
  }

  /**
   * Stores an image already encoded as WebP in every width (the demo catalogue's photos) as it is,
   * and returns its key.
   */
  async storeEncoded(productId: string, variants: ReadonlyMap<number, Buffer>): Promise<string> {
    const missing = PRODUCT_IMAGE_WIDTHS.filter((width) => !variants.has(width));
    if (missing.length) throw new Error(`The image lacks the width(s) ${missing.join(', ')}`);
    // The time it was stored, and 64 random bits for the photos that uploads at once store in the same millisecond.
    const key = `nails/${productId}_${Date.now()}_${randomBytes(8).toString('hex')}.webp`;
    await this.storage.put(key, variants);
    return key;
  }

  /**
   * Stores an uploaded image after checking what it is by its content, never its name: only JPEG,
   * PNG and WebP are taken (SVG may carry scripts). It is decoded and encoded again, which drops
   * any metadata and anything hidden after the pixels.
   */
  async storeUpload(productId: string, upload: Buffer): Promise<string> {
    await this.checkUpload(upload);
    const sharp = await loadSharp();
    try {
      return await this.store(productId, sharp(upload, { failOn: 'error', limitInputPixels: MAX_PHOTO_PIXELS }).rotate());
    } catch {
      throw new HttpError(415, 'unsupported_media_type', 'The image could not be read.');
    }
  }

  /** Refuses, by its header alone, what storeUpload would not take: another format, too many pixels. */
  async checkUpload(upload: Buffer): Promise<void> {
    const sharp = await loadSharp();
    // metadata() reads the header only.
    const header = await sharp(upload, { limitInputPixels: false })
      .metadata()
      .catch(() => undefined);
    if (!header?.format || !UPLOAD_FORMATS.has(header.format)) {
      throw new HttpError(415, 'unsupported_media_type', 'Only JPEG, PNG and WebP images are accepted.');
    }
    // The size the header states, before any pixel is decoded; sharp is told the same limit.
    if ((header.width ?? 0) * (header.height ?? 0) > MAX_PHOTO_PIXELS) {
      throw invalidInput('image', PHOTO_TOO_MANY_PIXELS);
    }
  }

  async remove(key: string): Promise<void> {
    this.recent.forget(key);
    await this.storage.remove(key);
  }

  /** Keys of the stored images, for finding those that no product references. */
  listKeys(): Promise<string[]> {
    return this.storage.listKeys();
  }

  /** The variant when it was served lately (held in memory), for the short path; undefined: `read` it. */
  recentVariant(key: string, width: number): ImageVariant | undefined {
    return this.recent.get(key, width);
  }

  async read(key: string, width: number): Promise<ImageVariant | null> {
    const recent = this.recent.get(key, width);
    if (recent) return recent;
    const variant = await this.storage.read(key, width);
    if (variant) this.recent.set(key, width, variant);
    return variant;
  }
}

/**
 * The shop's product images where every server process reaches them: PostgreSQL when the shop runs
 * on it, files under DATA_DIR with the embedded database (which serves one process anyway).
 */
export function productImagesFor(database: DatabaseHandle, dataDir: string): ProductImages {
  return new ProductImages(database.kind === 'postgres' ? new DatabaseImageStore(database.db) : new FileImageStore(dataDir));
}

export function imageUrlForKey(key: string | null): string | null {
  return key ? `/images/${key}` : null;
}

/** The smallest stored width that covers the requested one; the largest when none is asked for. */
function pickWidth(requested: number | undefined): number {
  const widths = [...PRODUCT_IMAGE_WIDTHS];
  const largest = widths[widths.length - 1]!;
  if (!requested || !Number.isFinite(requested)) return largest;
  return widths.find((width) => width >= requested) ?? largest;
}

/** A stored image's file name: the product, the time, and (since keys carry them) 16 random hex digits. */
export const IMAGE_NAME = /^[0-9a-f-]{36}_\d{10,16}(?:_[0-9a-f]{16})?\.webp$/;

const IMAGE_ROUTE = '/images/nails/:file';

export function registerImageRoutes(app: FastifyInstance, images: ProductImages): void {
  app.get<{ Params: { file: string }; Querystring: { w?: string } }>(IMAGE_ROUTE, async (request, reply) => {
    const { file } = request.params;
    if (!IMAGE_NAME.test(file)) return reply.status(404).send(errorBody('not_found', 'Image not found'));
    const variant = await images.read(`nails/${file}`, pickWidth(Number(request.query.w)));
    if (!variant) return reply.status(404).send(errorBody('not_found', 'Image not found'));
    const { status, headers, body } = imageAnswer(request.headers, variant);
    return reply.status(status).headers(headers).send(body);
  });
  // The photos served lately, from memory.
  app.shortPath.addPrefix('/images/nails/', IMAGE_ROUTE, ({ pathname, search, headers }) => {
    const file = pathname.slice('/images/nails/'.length);
    const query = shortPathQuery(search);
    if (!IMAGE_NAME.test(file) || !query) return undefined;
    const variant = images.recentVariant(`nails/${file}`, pickWidth(Number(query.get('w') ?? undefined)));
    return variant && imageAnswer(headers, variant);
  });
}

/** Each photo's answers, made once while it is kept in memory. */
const answersByVariant = new WeakMap<ImageVariant, EncodedAnswers>();

function imageAnswer(requestHeaders: IncomingHttpHeaders, variant: ImageVariant): ReadyAnswer {
  let answers = answersByVariant.get(variant);
  if (!answers) {
    // A key is never reused for other pixels, so a copy may be kept for a year; the ETag lets a
    // browser that revalidates anyway (a reload) get a 304 instead of the image again.
    const headers = { 'cache-control': 'public, max-age=31536000, immutable', etag: variant.etag };
    answers = { identity: { ok: { status: 200, headers: { ...headers, 'content-type': 'image/webp' }, body: variant.bytes }, notModified: { status: 304, headers }, etag: variant.etag } };
    answersByVariant.set(variant, answers);
  }
  return pickAnswer(requestHeaders, answers);
}
