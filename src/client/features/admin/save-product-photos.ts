import type { ApiErrorCode } from '#shared/api-errors.js';
import type { Product } from '#shared/catalog.js';
import type { PhotoOrderInput } from '#shared/photo-schemas.js';
import { ApiError } from '#client/api/http.js';
import type { PhotoItem } from './photo-manager.js';

/** The server calls that saving a product makes (admin-api.ts has them; tests pass fakes). */
export interface ProductCalls {
  /** Creates the product (`id` null, the form carrying its cover) or updates its fields. */
  saveProduct(form: FormData, id: string | null, onProgress: (percent: number) => void): Promise<Product>;
  uploadPhoto(productId: string, file: File, onProgress: (percent: number) => void): Promise<Product>;
  removePhoto(productId: string, photoId: string): Promise<Product>;
  arrangePhotos(productId: string, photos: PhotoOrderInput['photos']): Promise<Product>;
}

/** A chosen file the product did not get: which one (its place in the list, from 1), and why. */
export interface PhotoFailure {
  key: string;
  number: number;
  fileName: string;
  /** What the server answered (an ApiError), or why the request did not reach it. */
  reason: unknown;
  /** The server refused the file itself, so sending it again is refused again; otherwise a new try may succeed. */
  refused: boolean;
}

/**
 * The answers by which the server refuses a file for what it is (its type, bytes, pixels) or because
 * the product has no room for it. Anything else (no connection, a fault, a sign-in that ended) may pass
 * on a new try.
 */
const FILE_REFUSALS: ReadonlySet<ApiErrorCode | 'network'> = new Set(['bad_request', 'payload_too_large', 'unsupported_media_type', 'too_many_photos']);

export const isRefusal = (reason: unknown): boolean => reason instanceof ApiError && FILE_REFUSALS.has(reason.code);

export interface SaveProductInput {
  /** The product's fields as the form sends them, without a photo. */
  fields: FormData;
  /** The product as last saved, whose photos the form showed; absent for a new product. */
  product: Product | undefined;
  /** The photos in the admin's order: the product's own and chosen files. */
  items: PhotoItem[];
  calls: ProductCalls;
  /** Each change of the list as the server answers: progress, an uploaded file become a photo, a failure. */
  onItems(items: PhotoItem[]): void;
  /** Each product the server answers with: 'fields' once its fields are saved (created or updated), then after each photo step. */
  onProduct(product: Product, step: 'fields' | 'photos'): void;
}

export interface SaveProductResult {
  /** The product as saved; absent when a new product could not be created. */
  product: Product | undefined;
  /** The list as it ends: uploaded files are photos now, failed ones keep their file to be sent again or removed. */
  items: PhotoItem[];
  /** The files that were not uploaded, in the list's order; empty when everything was saved. */
  failures: PhotoFailure[];
}

/** Whether the product's photos differ from the list's order or alt texts. */
const arrangementDiffers = (product: Product, items: PhotoItem[]) =>
  product.photos.length !== items.length ||
  product.photos.some((photo, index) => {
    const item = items[index]!;
    return item.photo?.id !== photo.id || item.altEn.trim() !== photo.alt.en || item.altBg.trim() !== photo.alt.bg;
  });

/**
 * Saves a product from its form: its fields (a new product is created with its first photo, its
 * cover), then the photos the admin removed, then each new file with its own progress, then the
 * order and alt texts. A file that fails does not stop the others: it stays in the list, marked with
 * its reason, and is reported, while the product keeps everything that was saved. A failed creation
 * is reported against the cover and sends nothing more. Any other failed call (the fields, a removal,
 * the order) is thrown, after onProduct has told the product as saved so far.
 */
export async function saveProductWithPhotos({ fields, product, items: chosen, calls, onItems, onProduct }: SaveProductInput): Promise<SaveProductResult> {
  // Each step changes the list as the server answers, so that whatever was saved stays saved if a later step fails.
  let items = chosen;
  const setItems = (next: PhotoItem[]) => {
    items = next;
    onItems(next);
  };
  const setItem = (key: string, change: Partial<PhotoItem>) => setItems(items.map((item) => (item.key === key ? { ...item, ...change } : item)));
  const failures: PhotoFailure[] = [];
  let saved = product;
  const answered = (next: Product, step: 'fields' | 'photos') => {
    saved = next;
    onProduct(next, step);
    return next;
  };

  /** Sends one file; true when the product has it now. */
  const upload = async (item: PhotoItem, send: (file: File, onProgress: (percent: number) => void) => Promise<Product>, step: 'fields' | 'photos') => {
    const file = item.file!;
    setItem(item.key, { progress: 0, failed: undefined });
    const known = new Set(saved?.photos.map((photo) => photo.id));
    try {
      const next = answered(await send(file, (percent) => setItem(item.key, { progress: percent })), step);
      // The new photo is the one the product did not have before.
      setItem(item.key, { photo: next.photos.find((photo) => !known.has(photo.id)), file: undefined, progress: undefined });
      return true;
    } catch (reason) {
      const refused = isRefusal(reason);
      setItem(item.key, { progress: undefined, failed: { reason, refused } });
      failures.push({ key: item.key, number: items.findIndex((candidate) => candidate.key === item.key) + 1, fileName: file.name, reason, refused });
      return false;
    }
  };

  if (saved) {
    answered(await calls.saveProduct(fields, saved.id, () => undefined), 'fields');
  } else {
    const cover = items[0]!;
    const created = await upload(
      cover,
      (file, onProgress) => {
        const form = new FormData();
        for (const [name, value] of fields) form.append(name, value);
        form.set('image', file);
        return calls.saveProduct(form, null, onProgress);
      },
      'fields',
    );
    if (!created) return { product: undefined, items, failures };
  }
  const productId = saved!.id;

  // Photos the admin removed go first, so that new ones fit; the last of them waits for a new
  // photo when none of the product's others stays, since a product always keeps one.
  const kept = new Set(items.flatMap((item) => (item.photo ? [item.photo.id] : [])));
  // Only photos this form showed: one that another admin added meanwhile is not this admin's to remove.
  const removed = (product?.photos ?? []).filter((photo) => !kept.has(photo.id));
  const waiting = kept.size === 0 ? removed.pop() : undefined;
  for (const photo of removed) answered(await calls.removePhoto(productId, photo.id), 'photos');
  for (const item of items.filter((candidate) => candidate.file)) {
    const uploaded = await upload(item, (file, onProgress) => calls.uploadPhoto(productId, file, onProgress), 'photos');
    if (uploaded && waiting && saved!.photos.some((photo) => photo.id === waiting.id)) answered(await calls.removePhoto(productId, waiting.id), 'photos');
  }

  // The order names the photos the product has: a failed file is not one of them.
  const placed = items.filter((item) => item.photo);
  if (placed.length > 0 && arrangementDiffers(saved!, placed)) {
    answered(
      await calls.arrangePhotos(
        productId,
        placed.map((item) => ({ id: item.photo!.id, altEn: item.altEn, altBg: item.altBg })),
      ),
      'photos',
    );
  }
  return { product: saved, items, failures };
}
