import { asc, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, expect, it } from 'vitest';
import { PRODUCT_IMAGE_WIDTHS, type Product } from '#shared/catalog.js';
import { addPhoto as addPhotoToProduct } from '#server/catalog/photos.js';
import { admins, productPhotos } from '#server/db/schema.js';
import type { ProductImages } from '#server/images/product-images.js';
import { hugeBlankPng } from '../support/huge-png.js';
import { pngImage, productForm } from './product-form.js';
import { signIn } from './sign-in.js';
import { describeEachDatabase, type TestApp } from './test-app.js';

const fields = { nameEn: 'Pearl Set', nameBg: 'Перлен комплект', descriptionEn: 'Ten pearl nails.', descriptionBg: 'Десет перлени нокътя.', price: '30', category: 'nails' };

/** A photo upload: multipart with one file named image. */
const photoUpload = (image: Buffer, cookie: string) => productForm({}, image, cookie);

describeEachDatabase('product photos', (context) => {
  let admin: string;
  let customer: string;

  beforeAll(async () => {
    const testApp = context();
    await testApp.database.db.insert(admins).values({ id: 'boss@example.com' });
    admin = await signIn(testApp, 'boss@example.com');
    customer = await signIn(testApp, 'client@example.com');
  });

  /** A new product with one photo (its cover), through the admin API. */
  async function newProduct(testApp: TestApp, red = 10): Promise<Product> {
    const response = await testApp.app.inject({ method: 'POST', url: '/api/admin/products', ...productForm(fields, await pngImage(red), admin) });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ product: Product }>().product;
  }

  async function addPhoto(testApp: TestApp, productId: string, image: Buffer, cookie = admin) {
    return testApp.app.inject({ method: 'POST', url: `/api/admin/products/${productId}/photos`, ...photoUpload(image, cookie) });
  }

  const storedPositions = async (testApp: TestApp, productId: string) =>
    (await testApp.database.db.select().from(productPhotos).where(eq(productPhotos.productId, productId)).orderBy(asc(productPhotos.position))).map((row) => row.position);

  /** The stored widths of the product's images, as `{key} {width}`, in whichever store the app uses. */
  const variantsOf = async (testApp: TestApp, productId: string) => {
    const keys = (await testApp.images.listKeys()).filter((key) => key.startsWith(`nails/${productId}_`));
    const stored = await Promise.all(
      keys.flatMap((key) => PRODUCT_IMAGE_WIDTHS.map(async (width) => ((await testApp.images.read(key, width)) ? `${key} ${width}` : undefined))),
    );
    return stored.filter((variant) => variant !== undefined).sort();
  };

  const arrange = (testApp: TestApp, productId: string, photos: Array<{ id: string; altEn?: string; altBg?: string }>, cookie = admin) =>
    testApp.app.inject({ method: 'PUT', url: `/api/admin/products/${productId}/photos`, headers: { cookie }, payload: { photos } });

  it('adds photos after the cover, in order, each served as WebP', async () => {
    const testApp = context();
    const product = await newProduct(testApp);
    let latest = product;
    for (const red of [60, 120, 180]) {
      const response = await addPhoto(testApp, product.id, await pngImage(red));
      expect(response.statusCode, response.body).toBe(201);
      latest = response.json<{ product: Product }>().product;
    }
    expect(latest.photos).toHaveLength(4);
    expect(latest.photos[0]).toEqual(product.photos[0]);
    for (const photo of latest.photos) {
      expect(photo.url).toMatch(new RegExp(`^/images/nails/${product.id}_\\d+_[0-9a-f]{16}\\.webp$`));
      expect(photo.alt).toEqual({ en: '', bg: '' });
    }
    expect(new Set(latest.photos.map((photo) => photo.url)).size).toBe(4);
    // Each photo is the image uploaded in its place: its colour tells which.
    const reds = await Promise.all(
      latest.photos.map(async (photo) => {
        const image = await testApp.app.inject({ method: 'GET', url: `${photo.url}?w=320` });
        expect(image.headers['content-type']).toBe('image/webp');
        return Math.round((await sharp(image.rawPayload).stats()).channels[0]!.mean / 10) * 10;
      }),
    );
    expect(reds).toEqual([10, 60, 120, 180]);
    expect(await storedPositions(testApp, product.id)).toEqual([0, 1, 2, 3]);
    expect(await variantsOf(testApp, product.id)).toHaveLength(12);

    // The catalogue shows them in the same order.
    const listed = (await testApp.app.inject({ method: 'GET', url: '/api/products' })).json<{ products: Product[] }>().products.find((item) => item.id === product.id);
    expect(listed!.photos).toEqual(latest.photos);
  });

  it('reorders the photos, makes another the cover and keeps alt texts in both languages', async () => {
    const testApp = context();
    const product = await newProduct(testApp);
    await addPhoto(testApp, product.id, await pngImage(100));
    const three = (await addPhoto(testApp, product.id, await pngImage(200))).json<{ product: Product }>().product;
    const [first, second, third] = three.photos as [Product['photos'][0], Product['photos'][0], Product['photos'][0]];

    const response = await arrange(testApp, product.id, [
      { id: third.id, altEn: '  Close-up of the pearls  ', altBg: 'Перлите отблизо' },
      { id: first.id },
      { id: second.id, altEn: '', altBg: 'Кутията' },
    ]);
    expect(response.statusCode, response.body).toBe(200);
    const arranged = response.json<{ product: Product }>().product;
    expect(arranged.photos.map((photo) => photo.id)).toEqual([third.id, first.id, second.id]);
    expect(arranged.photos.map((photo) => photo.alt)).toEqual([
      { en: 'Close-up of the pearls', bg: 'Перлите отблизо' },
      { en: '', bg: '' },
      { en: '', bg: 'Кутията' },
    ]);
    expect(arranged.photos[0]!.url).toBe(third.url);
    expect(await storedPositions(testApp, product.id)).toEqual([0, 1, 2]);

    const page = (await testApp.app.inject({ method: 'GET', url: '/api/products' })).json<{ products: Product[] }>().products.find((item) => item.id === product.id);
    expect(page!.photos).toEqual(arranged.photos);
  });

  it('refuses a list that is not exactly the product’s photos, and alt texts that cannot be stored', async () => {
    const testApp = context();
    const product = await newProduct(testApp);
    const two = (await addPhoto(testApp, product.id, await pngImage(90))).json<{ product: Product }>().product;
    const [a, b] = two.photos.map((photo) => photo.id) as [string, string];
    const other = await newProduct(testApp);
    for (const photos of [[{ id: a }], [{ id: a }, { id: a }], [{ id: a }, { id: b }, { id: other.photos[0]!.id }], [{ id: b }, { id: other.photos[0]!.id }]]) {
      const response = await arrange(testApp, product.id, photos);
      expect(response.statusCode, JSON.stringify(photos)).toBe(409);
      expect(response.json().error.code).toBe('photos_changed');
    }
    for (const [altEn, key] of [
      ['x'.repeat(201), 'altTooLong'],
      ['Rose\u0000', 'altInvalidCharacters'],
    ]) {
      const response = await arrange(testApp, product.id, [{ id: a, altEn }, { id: b }]);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.message).toBe(`photos.0.altEn: admin.products.messages.${key}`);
    }
    expect((await arrange(testApp, product.id, [{ id: 'not-an-id' }, { id: b }])).statusCode).toBe(400);
    expect((await arrange(testApp, '00000000-0000-4000-8000-000000000000', [{ id: a }, { id: b }])).statusCode).toBe(404);
    const unchanged = (await testApp.app.inject({ method: 'GET', url: '/api/admin/products', headers: { cookie: admin } })).json<{ products: Product[] }>().products.find((item) => item.id === product.id);
    expect(unchanged!.photos).toEqual(two.photos);
  });

  it('removes a photo and numbers the rest again, but never the last one', async () => {
    const testApp = context();
    const product = await newProduct(testApp);
    await addPhoto(testApp, product.id, await pngImage(100));
    const three = (await addPhoto(testApp, product.id, await pngImage(200))).json<{ product: Product }>().product;
    const ids = three.photos.map((photo) => photo.id);
    const remove = (photoId: string) => testApp.app.inject({ method: 'DELETE', url: `/api/admin/products/${product.id}/photos/${photoId}`, headers: { cookie: admin } });

    const afterCover = await remove(ids[0]!);
    expect(afterCover.statusCode, afterCover.body).toBe(200);
    expect(afterCover.json<{ product: Product }>().product.photos.map((photo) => photo.id)).toEqual([ids[1], ids[2]]);
    expect(await storedPositions(testApp, product.id)).toEqual([0, 1]);
    expect(await variantsOf(testApp, product.id)).toHaveLength(6);
    expect((await testApp.app.inject({ method: 'GET', url: three.photos[0]!.url })).statusCode).toBe(404);

    expect((await remove(ids[0]!)).statusCode).toBe(404);
    expect((await remove(ids[2]!)).json<{ product: Product }>().product.photos.map((photo) => photo.id)).toEqual([ids[1]]);
    const last = await remove(ids[1]!);
    expect(last.statusCode).toBe(409);
    expect(last.json().error.code).toBe('last_photo');
    expect(await storedPositions(testApp, product.id)).toEqual([0]);
    expect(await variantsOf(testApp, product.id)).toHaveLength(3);
    // A photo of another product is not found through this one.
    const other = await newProduct(testApp);
    expect((await remove(other.photos[0]!.id)).statusCode).toBe(404);
  });

  it('refuses a ninth photo and stores nothing of it', async () => {
    const testApp = context();
    const product = await newProduct(testApp);
    for (let index = 1; index < 8; index++) expect((await addPhoto(testApp, product.id, await pngImage(20 * index))).statusCode).toBe(201);
    expect(await variantsOf(testApp, product.id)).toHaveLength(24);
    const ninth = await addPhoto(testApp, product.id, await pngImage(250));
    expect(ninth.statusCode).toBe(409);
    expect(ninth.json().error.code).toBe('too_many_photos');
    expect(await storedPositions(testApp, product.id)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(await variantsOf(testApp, product.id)).toHaveLength(24);
  });

  it('keeps the positions dense and unique when uploads arrive at once', async () => {
    const testApp = context();
    const product = await newProduct(testApp);
    const images = await Promise.all(Array.from({ length: 8 }, (_, index) => pngImage(30 + index * 25)));
    const responses = await Promise.all(images.map((image) => addPhoto(testApp, product.id, image)));
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([201, 201, 201, 201, 201, 201, 201, 409]);
    expect(responses.find((response) => response.statusCode === 409)!.json().error.code).toBe('too_many_photos');
    expect(await storedPositions(testApp, product.id)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    const rows = await testApp.database.db.select().from(productPhotos).where(eq(productPhotos.productId, product.id));
    // Each photo has stored widths of its own, and the refused upload left none behind.
    expect(new Set(rows.map((row) => row.imageKey)).size).toBe(8);
    const variants = await variantsOf(testApp, product.id);
    expect(variants).toHaveLength(24);
    expect(new Set(variants.map((variant) => variant.split(' ')[0]))).toEqual(new Set(rows.map((row) => row.imageKey)));

    // Removals at once leave the photos numbered from 0 too, and the product one photo at least.
    const removals = await Promise.all(
      rows.map((row) => testApp.app.inject({ method: 'DELETE', url: `/api/admin/products/${product.id}/photos/${row.id}`, headers: { cookie: admin } })),
    );
    expect(removals.map((response) => response.statusCode).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 409]);
    expect(await storedPositions(testApp, product.id)).toEqual([0]);
    expect(await variantsOf(testApp, product.id)).toHaveLength(3);
  });

  it('numbers photos recorded at the same moment without gaps or twins (the row lock, without the files)', async () => {
    const testApp = context();
    const product = await newProduct(testApp);
    // Images stored at once, so that only the database keeps the recording of the photos in turn.
    const stored: string[] = [];
    const removed: string[] = [];
    const images = {
      storeUpload: async (productId: string) => {
        const key = `nails/${productId}_${1_700_000_000_000 + stored.length + 1}.webp`;
        stored.push(key);
        return key;
      },
      remove: async (key: string) => void removed.push(key),
    } as unknown as ProductImages;
    const results = await Promise.allSettled(Array.from({ length: 12 }, () => addPhotoToProduct(testApp.database.db, images, product.id, Buffer.alloc(1))));
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(7);
    const refused = results.filter((result) => result.status === 'rejected').map((result) => (result.reason as { code?: string }).code);
    expect(refused).toEqual(Array.from({ length: 5 }, () => 'too_many_photos'));
    expect(await storedPositions(testApp, product.id)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    const keys = (await testApp.database.db.select().from(productPhotos).where(eq(productPhotos.productId, product.id))).map((row) => row.imageKey);
    // Every image stored but not recorded has its files removed, and none of a recorded photo. How
    // many were stored depends on the timing: an upload that already finds the product full is
    // refused before its image is stored.
    expect(removed.sort()).toEqual(stored.filter((key) => !keys.includes(key)).sort());
    expect(keys.filter((key) => stored.includes(key))).toHaveLength(7);
  });

  it('refuses files that are not JPEG, PNG or WebP and stores nothing of them', async () => {
    const testApp = context();
    const product = await newProduct(testApp);
    const before = await variantsOf(testApp, product.id);
    for (const content of [Buffer.from('just text'), Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>')]) {
      const response = await addPhoto(testApp, product.id, content);
      expect(response.statusCode).toBe(415);
      expect(response.json().error.code).toBe('unsupported_media_type');
    }
    const empty = await testApp.app.inject({ method: 'POST', url: `/api/admin/products/${product.id}/photos`, ...productForm({}, undefined, admin) });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toMatchObject({ field: 'image', messageKey: 'admin.products.messages.imageRequired' });
    const json = await testApp.app.inject({ method: 'POST', url: `/api/admin/products/${product.id}/photos`, headers: { cookie: admin }, payload: { image: 'x' } });
    expect(json.statusCode).toBe(415);
    expect(await variantsOf(testApp, product.id)).toEqual(before);
    expect(await storedPositions(testApp, product.id)).toEqual([0]);
    const unknown = await addPhoto(testApp, '00000000-0000-4000-8000-000000000000', await pngImage());
    expect(unknown.statusCode).toBe(404);
    expect((await addPhoto(testApp, 'not-an-id', await pngImage())).statusCode).toBe(400);
  });

  it('refuses an image of more than 50 megapixels from its header, before decoding it, with its message key', async () => {
    const testApp = context();
    const product = await newProduct(testApp);
    const before = await variantsOf(testApp, product.id);
    const huge = hugeBlankPng(16_000, 16_000);
    expect(huge.length).toBeLessThan(64 * 1024);
    expect(await sharp(huge).metadata()).toMatchObject({ format: 'png', width: 16_000, height: 16_000 });
    const response = await addPhoto(testApp, product.id, huge);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().error).toEqual({
      code: 'bad_request',
      message: 'image: admin.products.messages.imageTooManyPixels',
      field: 'image',
      messageKey: 'admin.products.messages.imageTooManyPixels',
    });
    // A new product with it is refused too, and nothing is stored.
    const added = await testApp.app.inject({ method: 'POST', url: '/api/admin/products', ...productForm(fields, hugeBlankPng(10_000, 5_001), admin) });
    expect(added.statusCode, added.body).toBe(400);
    expect(await variantsOf(testApp, product.id)).toEqual(before);
    expect(await storedPositions(testApp, product.id)).toEqual([0]);
    // Just under the limit is taken.
    expect((await addPhoto(testApp, product.id, hugeBlankPng(10_000, 5_000))).statusCode).toBe(201);
  });

  it('refuses every photo endpoint to visitors (401) and customers (403)', async () => {
    const testApp = context();
    const product = await newProduct(testApp);
    const photoId = product.photos[0]!.id;
    const image = await pngImage();
    for (const [who, cookie, status] of [
      ['visitor', '', 401],
      ['customer', customer, 403],
    ] as const) {
      const upload = await testApp.app.inject({ method: 'POST', url: `/api/admin/products/${product.id}/photos`, ...photoUpload(image, cookie) });
      expect(upload.statusCode, `${who} upload`).toBe(status);
      expect((await arrange(testApp, product.id, [{ id: photoId, altEn: 'mine' }], cookie)).statusCode, `${who} arrange`).toBe(status);
      const removal = await testApp.app.inject({ method: 'DELETE', url: `/api/admin/products/${product.id}/photos/${photoId}`, headers: { cookie } });
      expect(removal.statusCode, `${who} remove`).toBe(status);
    }
    const [stored] = await testApp.database.db.select().from(productPhotos).where(eq(productPhotos.productId, product.id));
    expect(stored).toMatchObject({ id: photoId, altEn: '' });
    expect(await variantsOf(testApp, product.id)).toHaveLength(3);
  });
});
