import { describe, expect, it } from 'vitest';
import { createTranslator } from './i18n.js';
import { detectLanguage } from './texts.js';

describe('detectLanguage', () => {
  it.each([
    ['bg', ['en-US'], 'bg'],
    ['en', ['bg-BG'], 'en'],
    [null, ['bg-BG', 'en-US'], 'bg'],
    [null, ['BG'], 'bg'],
    [null, ['de-DE', 'bg'], 'bg'],
    [null, ['de-DE', 'fr'], 'en'],
    ['xx', ['fr-FR'], 'en'],
    [null, [], 'en'],
  ])('stored %j with browser %j gives %s', (stored, browser, language) => {
    expect(detectLanguage(stored, browser)).toBe(language);
  });
});

describe('createTranslator', () => {
  const en = createTranslator('en', {
    greeting: 'Hello {{name}}',
    nested: { deep: 'Deep text' },
    items_one: '{{count}} item',
    items_other: '{{count}} items',
  });
  const bg = createTranslator('bg', { items_one: '{{count}} продукт', items_other: '{{count}} продукта' });

  it('finds nested keys and fills placeholders', () => {
    expect(en('nested.deep')).toBe('Deep text');
    expect(en('greeting', { name: 'Ana' })).toBe('Hello Ana');
  });

  it('ends a sentence with one full stop when a value brings its own', () => {
    const due = createTranslator('bg', { due: 'Новата сума е {{total}}.' });
    expect(due('due', { total: '39,06 € / 76,39 лв.' })).toBe('Новата сума е 39,06 € / 76,39 лв.');
    expect(due('due', { total: '39,06 €' })).toBe('Новата сума е 39,06 €.');
  });

  it('chooses the plural form of the language', () => {
    expect(en('items', { count: 1 })).toBe('1 item');
    expect(en('items', { count: 0 })).toBe('0 items');
    expect(bg('items', { count: 1 })).toBe('1 продукт');
    expect(bg('items', { count: 5 })).toBe('5 продукта');
  });

  it('groups the digits of a count as the language writes them, and no other number', () => {
    expect(en('items', { count: 100000 })).toBe('100,000 items');
    expect(bg('items', { count: 100000 })).toBe('100\u00a0000 продукта');
    expect(en('greeting', { name: 2026 })).toBe('Hello 2026');
  });

  it('shows the key of a missing text so that it is noticed', () => {
    expect(en('missing.key')).toBe('missing.key');
  });
});
