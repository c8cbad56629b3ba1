// `npm run demo:photos`: draws the demo catalogue's photos into
// src/server/demo/photos, one WebP file per product and width, which seeding stores as they are.
// Run it again after changing a drawing in src/server/demo/demo-art.ts, and commit the files.
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { PRODUCT_IMAGE_WIDTHS } from '#shared/catalog.js';
import { demoArt } from '#server/demo/demo-art.js';
import { DEMO_PHOTOS_DIR, demoPhotoPath, demoProducts } from '#server/demo/demo-catalogue.js';

// Lower than the 80 of uploaded photos: flat drawings stay clean at 75, and the files are part of the repository.
const QUALITY = 75;

await mkdir(DEMO_PHOTOS_DIR, { recursive: true });
const wanted = new Set<string>();
let total = 0;
for (const product of demoProducts) {
  const draw = demoArt[product.photo];
  if (!draw) throw new Error(`No drawing named ${product.photo} in demo-art.ts`);
  // 90 dpi renders the 800-unit drawing at 1000 px, just above the largest width.
  const drawing = sharp(Buffer.from(draw()), { density: 90 });
  for (const width of PRODUCT_IMAGE_WIDTHS) {
    const file = demoPhotoPath(product.photo, width);
    wanted.add(path.basename(file));
    await drawing
      .clone()
      .resize({ width, height: width, fit: 'cover' })
      .webp({ quality: QUALITY, effort: 6 })
      .toFile(file);
    total += (await stat(file)).size;
  }
}
// Photos of products that left the demo catalogue would only weigh on the repository.
for (const file of await readdir(DEMO_PHOTOS_DIR)) {
  if (!wanted.has(file)) await rm(path.join(DEMO_PHOTOS_DIR, file));
}
console.warn(`${wanted.size} demo photos written to ${path.relative(process.cwd(), DEMO_PHOTOS_DIR)}, ${Math.round(total / 1024)} KB in all.`);
