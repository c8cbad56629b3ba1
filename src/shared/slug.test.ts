import { describe, expect, it } from 'vitest';
import { isSlug, slugify } from './slug.js';

describe('slugify', () => {
  it.each([
    ['Blush Pearl Almond Set', 'blush-pearl-almond-set'],
    ['Перлени нокти „Бадем“', 'perleni-nokti-badem'],
    ['Щипка на жълто цвете', 'shtipka-na-zhalto-tsvete'],
    ['Юлия и България', 'yulia-i-balgaria'],
    ['Crème Brûlée Tips', 'creme-brulee-tips'],
    ['  --100% Handmade!!  ', '100-handmade'],
    ['Кутия за съхранение', 'kutia-za-sahranenie'],
    ['✨✨✨', 'product'],
    ['', 'product'],
  ])('%s → %s', (name, slug) => {
    expect(slugify(name)).toBe(slug);
  });

  it('keeps slugs short and never ends them on a hyphen', () => {
    const slug = slugify('word '.repeat(40));
    expect(slug.length).toBeLessThanOrEqual(80);
    expect(slug.endsWith('-')).toBe(false);
  });

  it('tells a slug from other text', () => {
    expect(isSlug('blush-pearl-almond-set-2')).toBe(true);
    expect(isSlug('Blush')).toBe(false);
    expect(isSlug('a--b')).toBe(false);
    expect(isSlug('../etc')).toBe(false);
  });
});
