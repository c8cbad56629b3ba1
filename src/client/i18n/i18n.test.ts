import { describe, expect, it } from 'vitest';
import { DISCOUNT_REFUSALS, discountRefusalKey } from '#shared/discounts.js';
import bgCore from './bg.json';
import bgShop from './bg.shop.json';
import bgPages from './bg.pages.json';
import enCore from './en.json';
import enShop from './en.shop.json';
import enPages from './en.pages.json';

const en = { ...enCore, ...enPages, ...enShop };
const bg = { ...bgCore, ...bgPages, ...bgShop };

function keysOf(tree: object, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'object' && value !== null ? keysOf(value, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}

function valueAt(tree: object, key: string): string {
  return key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], tree) as string;
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]).sort();

describe('translations', () => {
  const englishKeys = keysOf(en).sort();
  const bulgarianKeys = keysOf(bg).sort();

  it('have the same keys in English and Bulgarian', () => {
    expect(bulgarianKeys).toEqual(englishKeys);
  });

  it('keep each top-level section in one chunk, so that merging the chunks loses nothing', () => {
    for (const chunks of [
      [enCore, enPages, enShop],
      [bgCore, bgPages, bgShop],
    ] as object[][]) {
      const sections = chunks.flatMap((chunk) => Object.keys(chunk));
      expect(sections.filter((section, index) => sections.indexOf(section) !== index)).toEqual([]);
    }
  });

  it('have no empty texts', () => {
    for (const key of englishKeys) {
      expect(valueAt(en, key), `en ${key}`).not.toBe('');
      expect(valueAt(bg, key), `bg ${key}`).not.toBe('');
    }
  });

  it('use the same placeholders in both languages', () => {
    for (const key of englishKeys) {
      expect(placeholders(valueAt(bg, key)), key).toEqual(placeholders(valueAt(en, key)));
    }
  });

  it('translate the sentences into Bulgarian rather than copying the English', () => {
    const sameAsEnglish = englishKeys.filter((key) => {
      const english = valueAt(en, key);
      return english === valueAt(bg, key) && /[a-z]{3,}\s+[a-z]{3,}/i.test(english) && !english.includes('Nail Art Atelier');
    });
    expect(sameAsEnglish).toEqual([]);
  });

  it('say why each discount code is refused', () => {
    for (const reason of DISCOUNT_REFUSALS) expect(englishKeys, reason).toContain(discountRefusalKey(reason));
  });
});
