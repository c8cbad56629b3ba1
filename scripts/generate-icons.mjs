// Draws the installable app's icons from the favicon's design: `npm run icons`, then check the PNGs in.
// The icons change only with the brand, so they are files in the repository rather than a build step.
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

const publicDir = path.resolve('src/client/public');
const outDir = path.join(publicDir, 'icons');
const favicon = readFileSync(path.join(publicDir, 'favicon.svg'), 'utf8');

// The favicon's nail drawing, without its rounded background square.
const nail = favicon.replace(/^<svg[^>]*>/, '').replace(/<\/svg>\s*$/, '').replace(/<rect[^>]*\/>/, '');
const BRAND = '#9d2b6b';

/** A square icon with no transparent corners; the drawing scaled around the centre (maskable icons keep it in the middle 80 %). */
const fullBleed = (scale) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="${BRAND}"/>` +
  `<g transform="translate(16 16) scale(${scale}) translate(-16 -15.85)">${nail}</g></svg>`;

const icons = [
  { file: 'icon-192.png', size: 192, svg: favicon },
  { file: 'icon-512.png', size: 512, svg: favicon },
  { file: 'maskable-512.png', size: 512, svg: fullBleed(0.7) },
  // iOS draws its own rounded corners and shows transparency as black.
  { file: 'apple-touch-icon-180.png', size: 180, svg: fullBleed(0.85) },
];

mkdirSync(outDir, { recursive: true });
for (const { file, size, svg } of icons) {
  await sharp(Buffer.from(svg), { density: (72 * size) / 32 })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toFile(path.join(outDir, file));
  console.warn(`  ${path.relative(process.cwd(), path.join(outDir, file))}`);
}
