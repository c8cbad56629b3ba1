import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { PRODUCT_DESCRIPTION_MAX_LENGTH, productModelSchema } from '#shared/catalog-schemas.js';
import { PRODUCT_IMAGE_WIDTHS } from '#shared/catalog.js';
import { isPlainProduct } from '#shared/product-options.js';
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

describe('the demo catalogue’s products', () => {
  it('has models the product form would accept', () => {
    for (const demo of demoProducts) {
      const parsed = productModelSchema.safeParse(demo.model);
      expect(parsed.error?.issues, demo.name).toBeUndefined();
      expect(demo.model.stockMode === 'combination' ? demo.stock : null, `${demo.name} counts per combination only`).toBeNull();
    }
  });

  it('shows press-on sets made in a shape and length, to ten sizes, with notes, made to order', () => {
    const sets = demoProducts.filter((demo) => demo.model.sized);
    expect(sets.length).toBeGreaterThanOrEqual(2);
    for (const set of sets) {
      expect(set.model.optionGroups.map((group) => group.id)).toEqual(['shape', 'length']);
      expect(set.model.optionGroups[0]!.values.map((value) => value.id)).toEqual(['almond', 'coffin', 'stiletto', 'square', 'oval']);
      expect(set.model.optionGroups[1]!.values.map((value) => value.id)).toEqual(['short', 'medium', 'long', 'extra-long']);
      expect(set.model.optionGroups[1]!.values.map((value) => value.priceDeltaMinor)).toEqual([0, 0, 300, 600]);
      expect(set.model.questions.length).toBeGreaterThanOrEqual(1);
      expect(set.model.leadTime).toEqual({ kind: 'made_to_order', minDays: 5, maxDays: 10 });
    }
    const counted = sets.find((set) => set.model.stockMode === 'combination')!;
    expect(counted.model.combinations.some((combination) => combination.stock !== null && combination.stock > 0)).toBe(true);
    expect(counted.model.combinations.some((combination) => combination.stock === 0)).toBe(true);
    expect(counted.model.combinations.some((combination) => combination.stock === null)).toBe(true);
    // A question with a price add-on, and one without.
    const answers = sets.flatMap((set) => set.model.questions);
    expect(answers.some((question) => question.kind === 'choice' && question.choices.some((choice) => choice.priceDeltaMinor > 0))).toBe(true);
    expect(answers.some((question) => question.kind === 'text' && !question.required && question.priceDeltaMinor === 0)).toBe(true);
  });

  it('sells a sizing kit, ready in a day, whose description explains how to measure in both languages', () => {
    const kit = demoProducts.find((demo) => demo.name === 'Nail Sizing Kit')!;
    expect(kit).toMatchObject({ category: 'kits', model: { sized: false, optionGroups: [], leadTime: { kind: 'ready', days: 1 } } });
    expect(kit.description).toMatch(/how to measure/i);
    expect(kit.descriptionBg).toMatch(/как да измерите/i);
    for (const text of [kit.description, kit.descriptionBg]) expect(text.length).toBeLessThanOrEqual(PRODUCT_DESCRIPTION_MAX_LENGTH);
  });

  it('keeps the one-of-a-kind pieces as they are', () => {
    const pieces = demoProducts.filter((demo) => demo.stock === 1);
    expect(pieces.length).toBeGreaterThanOrEqual(2);
    for (const piece of pieces) expect(isPlainProduct(piece.model), piece.name).toBe(true);
  });
});
