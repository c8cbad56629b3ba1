import { afterEach, describe, expect, it, vi } from 'vitest';
import { PRODUCT_IMAGE_WIDTHS } from '#shared/catalog.js';
import type { ImageStore } from './image-store.js';
import { IMAGE_NAME, ProductImages } from './product-images.js';

function memoryStore(): ImageStore & { keys: string[] } {
  const keys: string[] = [];
  return {
    keys,
    put: async (key) => void keys.push(key),
    read: async () => null,
    remove: async () => undefined,
    listKeys: async () => [...keys],
  };
}

const encoded = new Map(PRODUCT_IMAGE_WIDTHS.map((width) => [width, Buffer.alloc(1)]));

describe('ProductImages keys', () => {
  afterEach(() => vi.restoreAllMocks());

  it('gives every image stored in the same millisecond a key of its own', async () => {
    vi.spyOn(Date, 'now').mockReturnValue(1_700_000_000_000);
    const store = memoryStore();
    const images = new ProductImages(store);
    const keys = await Promise.all(Array.from({ length: 2000 }, () => images.storeEncoded('p1', encoded)));
    expect(new Set(keys).size).toBe(2000);
    expect(store.keys).toHaveLength(2000);
    for (const key of keys) expect(key).toMatch(/^nails\/p1_1700000000000_[0-9a-f]{16}\.webp$/);
  });

  it('serves the names of new keys and of those stored before keys carried random digits, and nothing else', async () => {
    const productId = 'c7949703-5ce9-4477-8ca4-d7e14d1dd86a';
    const key = await new ProductImages(memoryStore()).storeEncoded(productId, encoded);
    expect(IMAGE_NAME.test(key.replace(/^nails\//, ''))).toBe(true);
    expect(IMAGE_NAME.test(`${productId}_1795970560931042.webp`)).toBe(true);
    for (const name of [`${productId}_1795970560931_f758bc74.webp`, `${productId}_1795970560931_f758bc74eff50194.png`, `../${productId}_1795970560931.webp`]) {
      expect(IMAGE_NAME.test(name), name).toBe(false);
    }
  });
});
