import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { PRODUCT_IMAGE_WIDTHS } from '../../shared/catalog.js';
import { demoArt } from './demo-art.js';
import { DEMO_PHOTOS_DIR, demoPhotoPath, demoProducts } from './demo-catalogue.js';

describe('the demo catalogue’s shipped photos', () => {
  it('has a drawing and a square WebP file in every width for each product, and nothing else', async () => {
    const photos = demoProducts.map((product) => product.photo);
    expect(new Set(photos).size).toBe(demoProducts.length);
    expect(Object.keys(demoArt).sort()).toEqual([...photos].sort());
    const expected = photos.flatMap((photo) => PRODUCT_IMAGE_WIDTHS.map((width) => path.basename(demoPhotoPath(photo, width))));
    expect((await readdir(DEMO_PHOTOS_DIR)).sort()).toEqual(expected.sort());
    for (const photo of photos) {
      for (const width of PRODUCT_IMAGE_WIDTHS) {
        const metadata = await sharp(demoPhotoPath(photo, width)).metadata();
        expect(metadata, `${photo} at ${width}`).toMatchObject({ format: 'webp', width, height: width });
        expect(metadata.exif).toBeUndefined();
      }
    }
  });

  it('stays small enough to keep in the repository', async () => {
    const sizes = await Promise.all((await readdir(DEMO_PHOTOS_DIR)).map(async (file) => (await stat(path.join(DEMO_PHOTOS_DIR, file))).size));
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBeLessThan(512 * 1024);
  });
});
