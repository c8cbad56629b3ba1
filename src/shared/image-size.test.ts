import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { hugeBlankPng } from '../../tests/support/huge-png.js';
import { imageSize } from './image-size.js';

const picture = (width: number, height: number, alpha = false) =>
  sharp({ create: { width, height, channels: alpha ? 4 : 3, background: { r: 200, g: 40, b: 90, alpha: 0.5 } } });

describe('imageSize', () => {
  it.each([
    ['PNG', () => picture(321, 123).png().toBuffer()],
    ['JPEG', () => picture(321, 123).jpeg().toBuffer()],
    ['progressive JPEG with Exif and a colour profile before its frame', () => picture(321, 123).withMetadata({ exif: { IFD0: { Copyright: 'Nail Art Atelier' } } }).jpeg({ progressive: true }).toBuffer()],
    ['lossy WebP', () => picture(321, 123).webp().toBuffer()],
    ['lossless WebP', () => picture(321, 123).webp({ lossless: true }).toBuffer()],
    ['WebP with transparency', () => picture(321, 123, true).webp().toBuffer()],
  ])('reads the size of a %s from its header', async (_kind, encode) => {
    const file = await encode();
    expect(imageSize(new Uint8Array(file))).toEqual({ width: 321, height: 123 });
    // From the first bytes alone, as the browser reads them.
    expect(imageSize(new Uint8Array(file.subarray(0, Math.min(file.length, 2048))))).toEqual({ width: 321, height: 123 });
  });

  it('reads the size a small PNG claims without decoding it', () => {
    expect(imageSize(new Uint8Array(hugeBlankPng(16_000, 16_000)))).toEqual({ width: 16_000, height: 16_000 });
  });

  it('knows nothing of other files, or of a header cut short', async () => {
    const gif = await picture(10, 10).gif().toBuffer();
    const png = await picture(10, 10).png().toBuffer();
    const jpeg = await picture(10, 10).jpeg().toBuffer();
    expect(imageSize(new Uint8Array(gif))).toBeUndefined();
    expect(imageSize(new TextEncoder().encode('not a picture at all'))).toBeUndefined();
    expect(imageSize(new Uint8Array(png.subarray(0, 20)))).toBeUndefined();
    expect(imageSize(new Uint8Array(jpeg.subarray(0, 6)))).toBeUndefined();
    expect(imageSize(new Uint8Array())).toBeUndefined();
  });
});
