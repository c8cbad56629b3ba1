import { describe, expect, it } from 'vitest';
import type { Product, ProductPhoto } from '#shared/catalog.js';
import { PLAIN_PRODUCT_MODEL } from '#shared/product-options.js';
import { ApiError } from '#client/api/http.js';
import type { PhotoItem } from './photo-manager.js';
import { isRefusal, saveProductWithPhotos, type ProductCalls } from './save-product-photos.js';

const tooManyPixels = () => new ApiError(400, 'bad_request', 'image: admin.products.messages.imageTooManyPixels');
const offline = () => new ApiError(0, 'network', 'Network error');

/**
 * A server that keeps one product in memory and answers as the admin API does: the product with all
 * its photos after each call, upload progress before an upload's answer, and photos_changed for an
 * order that does not name exactly the photos the product has. A file named in `refuse` is refused.
 */
function fakeServer({ product, refuse = {} }: { product?: Product; refuse?: Record<string, () => Error> } = {}) {
  let stored = product && structuredClone(product);
  let photoCount = stored?.photos.length ?? 0;
  const log: string[] = [];
  const photoOf = (file: File): ProductPhoto => ({ id: `photo-${++photoCount}-${file.name}`, url: `/images/${file.name}`, alt: { en: '', bg: '' } });
  const receive = async (file: File, onProgress: (percent: number) => void) => {
    onProgress(50);
    await Promise.resolve();
    const refusal = refuse[file.name];
    if (refusal) throw refusal();
    onProgress(100);
    return photoOf(file);
  };
  const answer = () => structuredClone(stored!);
  const calls: ProductCalls = {
    async saveProduct(form, id, onProgress) {
      const name = String(form.get('nameEn'));
      if (id === null) {
        const file = form.get('image') as File;
        log.push(`create ${name} with ${file.name}`);
        const cover = await receive(file, onProgress);
        stored = { ...PLAIN_PRODUCT_MODEL, returnRule: 'standard', id: 'product-1', slug: 'product-1', name: { en: name, bg: '' }, description: { en: '', bg: '' }, priceMinor: 1200, category: '', stock: 1, weightGrams: null, photos: [cover], createdAt: '', updatedAt: '' };
      } else {
        log.push(`update ${name}`);
        stored!.name.en = name;
      }
      return answer();
    },
    async uploadPhoto(productId, file, onProgress) {
      log.push(`upload ${file.name}`);
      const photo = await receive(file, onProgress);
      stored!.photos.push(photo);
      return answer();
    },
    async removePhoto(productId, photoId) {
      log.push(`remove ${photoId}`);
      stored!.photos = stored!.photos.filter((photo) => photo.id !== photoId);
      return answer();
    },
    async arrangePhotos(productId, order) {
      log.push(`arrange ${order.map((photo) => photo.id).join(', ')}`);
      const now = new Map(stored!.photos.map((photo) => [photo.id, photo]));
      if (order.length !== now.size || order.some((photo) => !now.has(photo.id))) throw new ApiError(409, 'photos_changed', 'The photos changed.');
      stored!.photos = order.map((photo) => ({ ...now.get(photo.id)!, alt: { en: (photo.altEn ?? '').trim(), bg: (photo.altBg ?? '').trim() } }));
      return answer();
    },
  };
  return { calls, log, stored: () => stored };
}

const fileItem = (name: string, altEn = ''): PhotoItem => ({ key: `file-${name}`, file: new File([name], name, { type: 'image/png' }), altEn, altBg: '' });
const photoItem = (photo: ProductPhoto): PhotoItem => ({ key: photo.id, photo, altEn: photo.alt.en, altBg: photo.alt.bg });

const fields = (name: string) => {
  const form = new FormData();
  form.set('nameEn', name);
  return form;
};

/** Saves as the form does, keeping every list and product it is told of. */
function save(server: ReturnType<typeof fakeServer>, items: PhotoItem[], product?: Product) {
  const lists: PhotoItem[][] = [];
  const products: { product: Product; step: 'fields' | 'photos' }[] = [];
  const run = saveProductWithPhotos({
    fields: fields('Aurora'),
    product,
    items,
    calls: server.calls,
    onItems: (next) => lists.push(next),
    onProduct: (answer, step) => products.push({ product: answer, step }),
  });
  return { run, lists, products };
}

const existing = (): Product => ({
  ...PLAIN_PRODUCT_MODEL,
  returnRule: 'standard',
  id: 'product-1',
  slug: 'product-1',
  name: { en: 'Aurora', bg: '' },
  description: { en: '', bg: '' },
  priceMinor: 1200,
  category: '',
  stock: 1,
  weightGrams: null,
  photos: [
    { id: 'photo-1-old', url: '/images/old.png', alt: { en: 'Old', bg: '' } },
    { id: 'photo-2-older', url: '/images/older.png', alt: { en: '', bg: '' } },
  ],
  createdAt: '',
  updatedAt: '',
});

describe('saveProductWithPhotos', () => {
  it('creates a new product with its cover, uploads the other photos with progress and keeps the order', async () => {
    const server = fakeServer();
    const { run, lists, products } = save(server, [fileItem('red.png', 'Red'), fileItem('green.png'), fileItem('blue.png')]);
    const { product, items, failures } = await run;

    expect(failures).toEqual([]);
    expect(server.log).toEqual(['create Aurora with red.png', 'upload green.png', 'upload blue.png', 'arrange photo-1-red.png, photo-2-green.png, photo-3-blue.png']);
    expect(product!.photos.map((photo) => photo.url)).toEqual(['/images/red.png', '/images/green.png', '/images/blue.png']);
    // The alt text the admin typed reached the server with the order.
    expect(product!.photos[0]!.alt.en).toBe('Red');
    expect(items.every((item) => item.photo && !item.file && item.progress === undefined && !item.failed)).toBe(true);
    // Each file showed its own progress while it was sent.
    expect(lists.map((list) => list.find((item) => item.key === 'file-green.png')!.progress)).toContain(50);
    expect(products.map(({ step }) => step)).toEqual(['fields', 'photos', 'photos', 'photos']);
    expect(server.stored()).toEqual(product);
  });

  it('uploads the others when the second of three files is refused, orders them, and keeps the refused file with its reason', async () => {
    const server = fakeServer({ refuse: { 'huge.png': tooManyPixels } });
    const { run, lists, products } = save(server, [fileItem('red.png'), fileItem('huge.png'), fileItem('blue.png', 'Blue')]);
    const { product, items, failures } = await run;

    // The product is saved with the photos that went, in the admin's order.
    expect(server.log).toEqual(['create Aurora with red.png', 'upload huge.png', 'upload blue.png', 'arrange photo-1-red.png, photo-2-blue.png']);
    expect(product!.photos.map((photo) => [photo.url, photo.alt.en])).toEqual([
      ['/images/red.png', ''],
      ['/images/blue.png', 'Blue'],
    ]);
    expect(products.at(-1)!.product).toEqual(product);
    expect(server.stored()).toEqual(product);
    // The refused file is reported by its place and name, with the server's reason.
    expect(failures).toEqual([{ key: 'file-huge.png', number: 2, fileName: 'huge.png', reason: tooManyPixels(), refused: true }]);
    // The form keeps it, in its place, to be sent again or removed; the others are photos now.
    expect(items.map((item) => item.photo?.url ?? item.file!.name)).toEqual(['/images/red.png', 'huge.png', '/images/blue.png']);
    expect(items[1]).toMatchObject({ file: expect.any(File), failed: { reason: tooManyPixels(), refused: true } });
    expect(items[1]!.progress).toBeUndefined();
    expect(lists.at(-1)).toEqual(items);
  });

  it('sends a failed file again on the next save, in the place the admin moved the photos to', async () => {
    const refuse = { 'green.png': offline };
    const server = fakeServer({ refuse });
    const first = await save(server, [fileItem('red.png'), fileItem('green.png'), fileItem('blue.png'), fileItem('pink.png')]).run;
    expect(first.failures).toEqual([{ key: 'file-green.png', number: 2, fileName: 'green.png', reason: offline(), refused: false }]);
    expect(first.product!.photos.map((photo) => photo.url)).toEqual(['/images/red.png', '/images/blue.png', '/images/pink.png']);

    // The connection is back; the admin makes blue the cover and saves again.
    delete (refuse as Partial<typeof refuse>)['green.png'];
    server.log.length = 0;
    const [red, green, blue, pink] = first.items;
    const again = await save(server, [blue!, red!, green!, pink!], first.product).run;
    expect(again.failures).toEqual([]);
    expect(again.items.some((item) => item.failed)).toBe(false);
    expect(server.log).toEqual(['update Aurora', 'upload green.png', 'arrange photo-2-blue.png, photo-1-red.png, photo-4-green.png, photo-3-pink.png']);
    expect(again.product!.photos.map((photo) => photo.url)).toEqual(['/images/blue.png', '/images/red.png', '/images/green.png', '/images/pink.png']);
  });

  it('sends nothing more when a new product cannot be created, and reports its cover', async () => {
    const server = fakeServer({ refuse: { 'huge.png': tooManyPixels } });
    const { run, products } = save(server, [fileItem('huge.png'), fileItem('green.png'), fileItem('blue.png')]);
    const { product, items, failures } = await run;

    expect(product).toBeUndefined();
    expect(server.log).toEqual(['create Aurora with huge.png']);
    expect(server.stored()).toBeUndefined();
    expect(products).toEqual([]);
    expect(failures).toEqual([{ key: 'file-huge.png', number: 1, fileName: 'huge.png', reason: tooManyPixels(), refused: true }]);
    expect(items.map((item) => [item.file?.name, Boolean(item.failed)])).toEqual([
      ['huge.png', true],
      ['green.png', false],
      ['blue.png', false],
    ]);
  });

  it('reorders after the uploads, with the new files in the places the admin gave them', async () => {
    const product = existing();
    const server = fakeServer({ product });
    const [old, older] = product.photos.map(photoItem);
    const { run } = save(server, [fileItem('new.png', 'New cover'), older!, old!], product);
    const { product: saved, failures } = await run;

    expect(failures).toEqual([]);
    // The upload adds the photo last; only then can the order name it, and put it first.
    expect(server.log).toEqual(['update Aurora', 'upload new.png', 'arrange photo-3-new.png, photo-2-older, photo-1-old']);
    expect(saved!.photos.map((photo) => [photo.id, photo.alt.en])).toEqual([
      ['photo-3-new.png', 'New cover'],
      ['photo-2-older', ''],
      ['photo-1-old', 'Old'],
    ]);
  });

  it('does not ask to reorder when the order and alt texts are as saved', async () => {
    const product = existing();
    const server = fakeServer({ product });
    const { run } = save(server, product.photos.map(photoItem), product);
    await run;
    expect(server.log).toEqual(['update Aurora']);
  });

  it('removes the last of the replaced photos only once a new one is uploaded, so that the product always has one', async () => {
    const product = existing();
    const server = fakeServer({ product, refuse: { 'bad.png': tooManyPixels } });
    const { run } = save(server, [fileItem('bad.png'), fileItem('new.png')], product);
    const { product: saved, failures } = await run;

    expect(server.log).toEqual(['update Aurora', 'remove photo-1-old', 'upload bad.png', 'upload new.png', 'remove photo-2-older']);
    expect(saved!.photos.map((photo) => photo.id)).toEqual(['photo-3-new.png']);
    expect(failures.map((failure) => [failure.number, failure.fileName])).toEqual([[1, 'bad.png']]);
  });

  it('keeps the last photo when every new file fails, and asks for no order the product cannot take', async () => {
    const product = existing();
    const server = fakeServer({ product, refuse: { 'bad.png': tooManyPixels } });
    const { run } = save(server, [fileItem('bad.png')], product);
    const { product: saved, failures } = await run;

    expect(server.log).toEqual(['update Aurora', 'remove photo-1-old', 'upload bad.png']);
    expect(saved!.photos.map((photo) => photo.id)).toEqual(['photo-2-older']);
    expect(failures).toHaveLength(1);
  });

  it('throws a failure that is not a file’s, after telling the product as saved so far', async () => {
    const product = existing();
    const server = fakeServer({ product });
    server.calls.removePhoto = () => Promise.reject(new ApiError(409, 'last_photo', 'A product keeps one photo.'));
    const { run, products } = save(server, [photoItem(product.photos[0]!)], product);

    await expect(run).rejects.toMatchObject({ code: 'last_photo' });
    expect(products.map(({ product: answer, step }) => [answer.name.en, step])).toEqual([['Aurora', 'fields']]);
  });
});

describe('isRefusal', () => {
  it.each([
    [tooManyPixels(), true],
    [new ApiError(413, 'payload_too_large', 'Too large'), true],
    [new ApiError(415, 'unsupported_media_type', 'Not an image'), true],
    [new ApiError(409, 'too_many_photos', 'Full'), true],
    [offline(), false],
    [new ApiError(500, 'internal', 'Fault'), false],
    [new ApiError(401, 'unauthorized', 'Signed out'), false],
    [new ApiError(429, 'rate_limited', 'Slow down'), false],
    [new Error('Something else'), false],
  ])('%s: %s', (reason, refused) => {
    expect(isRefusal(reason)).toBe(refused);
  });
});
