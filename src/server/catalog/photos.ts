import { asc, count, eq } from 'drizzle-orm';
import { MAX_PRODUCT_PHOTOS, type Product } from '#shared/catalog.js';
import type { PhotoOrder } from '#shared/photo-schemas.js';
import type { Database, Executor, Transaction } from '#server/db/client.js';
import { productPhotos, products } from '#server/db/schema.js';
import { inTransaction } from '#server/db/transaction.js';
import { HttpError } from '#server/http/errors.js';
import type { ProductImages } from '#server/images/product-images.js';
import { catalogueChanged } from './catalogue-state.js';
import { findProduct, withPhotos } from './product-queries.js';

// A product's photos are numbered 0..n-1 (0 is the cover). Every change holds the product's row
// (select ... for no key update) for its whole transaction, so that changes of one product's photos
// take turns, on any number of server processes, and the numbers stay dense and unique; checkouts,
// which only keep the product from being deleted (for key share), do not wait for them.

const productNotFound = () => new HttpError(404, 'not_found', 'Product not found');
const photoNotFound = () => new HttpError(404, 'not_found', 'Photo not found');

/** Holds the product for a change of its photos until the transaction ends; false when there is none. */
async function lockProduct(tx: Transaction, productId: string): Promise<boolean> {
  const [row] = await tx.select({ id: products.id }).from(products).where(eq(products.id, productId)).for('no key update');
  return row !== undefined;
}

const photosInOrder = (db: Executor, productId: string) =>
  db.select().from(productPhotos).where(eq(productPhotos.productId, productId)).orderBy(asc(productPhotos.position), asc(productPhotos.createdAt));

/** Ends a change of the product's photos: its pages are told, and it is answered with as it is now. */
async function photosChanged(tx: Transaction, productId: string): Promise<Product> {
  await catalogueChanged(tx);
  const [row] = await tx.update(products).set({ updatedAt: new Date() }).where(eq(products.id, productId)).returning();
  return (await withPhotos(tx, [row!]))[0]!;
}

const tooManyPhotos = () => new HttpError(409, 'too_many_photos', `A product has at most ${MAX_PRODUCT_PHOTOS} photos.`);

/**
 * Adds an uploaded photo after the product's others. The image is checked and stored first (which
 * takes a while, and holds no lock); if the product is gone or full by the time it is recorded, its
 * files are removed again.
 */
export async function addPhoto(db: Database, images: ProductImages, productId: string, upload: Buffer): Promise<Product> {
  // Refused early, without encoding the image, when it is plain that it cannot be added.
  if (!(await findProduct(db, productId))) throw productNotFound();
  const [before] = await db.select({ photos: count() }).from(productPhotos).where(eq(productPhotos.productId, productId));
  if ((before?.photos ?? 0) >= MAX_PRODUCT_PHOTOS) throw tooManyPhotos();

  const imageKey = await images.storeUpload(productId, upload);
  try {
    return await inTransaction(db, async (tx) => {
      if (!(await lockProduct(tx, productId))) throw productNotFound();
      const [counted] = await tx.select({ photos: count() }).from(productPhotos).where(eq(productPhotos.productId, productId));
      const position = counted?.photos ?? 0;
      if (position >= MAX_PRODUCT_PHOTOS) throw tooManyPhotos();
      await tx.insert(productPhotos).values({ productId, position, imageKey });
      return photosChanged(tx, productId);
    });
  } catch (error) {
    await images.remove(imageKey);
    throw error;
  }
}

/**
 * Removes a photo and numbers the others again from 0; its files go once the change is committed. The
 * last photo stays (last_photo): a product always has a cover.
 */
export async function removePhoto(db: Database, images: ProductImages, productId: string, photoId: string): Promise<Product> {
  const { product, imageKey } = await inTransaction(db, async (tx) => {
    if (!(await lockProduct(tx, productId))) throw productNotFound();
    const photos = await photosInOrder(tx, productId);
    const removed = photos.find((photo) => photo.id === photoId);
    if (!removed) throw photoNotFound();
    if (photos.length === 1) throw new HttpError(409, 'last_photo', 'A product keeps at least one photo, its cover.');
    await tx.delete(productPhotos).where(eq(productPhotos.id, photoId));
    await renumber(
      tx,
      photos.filter((photo) => photo !== removed),
    );
    return { product: await photosChanged(tx, productId), imageKey: removed.imageKey };
  });
  await images.remove(imageKey);
  return product;
}

/**
 * Puts the product's photos in the given order (the first becomes the cover) with their alt texts.
 * The list must name exactly the photos the product has now (photos_changed otherwise): an admin
 * whose page missed another's upload or removal is told, rather than losing or reviving a photo.
 */
export async function arrangePhotos(db: Database, productId: string, order: PhotoOrder): Promise<Product> {
  return inTransaction(db, async (tx) => {
    if (!(await lockProduct(tx, productId))) throw productNotFound();
    const current = await photosInOrder(tx, productId);
    const requested = new Set(order.photos.map((photo) => photo.id));
    const sameSet = requested.size === order.photos.length && requested.size === current.length && current.every((photo) => requested.has(photo.id));
    if (!sameSet) {
      throw new HttpError(409, 'photos_changed', 'The product’s photos changed meanwhile; list every photo it has now.');
    }
    for (const [position, photo] of order.photos.entries()) {
      await tx.update(productPhotos).set({ position, altEn: photo.altEn, altBg: photo.altBg }).where(eq(productPhotos.id, photo.id));
    }
    return photosChanged(tx, productId);
  });
}

/** Numbers the photos 0..n-1 in the order given, writing only those whose number changes. */
async function renumber(tx: Transaction, photos: ReadonlyArray<{ id: string; position: number }>): Promise<void> {
  for (const [position, photo] of photos.entries()) {
    if (photo.position !== position) await tx.update(productPhotos).set({ position }).where(eq(productPhotos.id, photo.id));
  }
}
