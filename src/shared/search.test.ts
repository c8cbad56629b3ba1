import { describe, expect, it } from 'vitest';
import { searchableText } from './search.js';

describe('searchableText', () => {
  it.each([
    ['Crème Brûlée', 'creme brulee'],
    ['ПЕРЛЕНИ Нокти', 'перлени нокти'],
    ['Йоана', 'иоана'],
    ['  two   spaces\nand a line ', 'two spaces and a line'],
    ["100% _pearl_ 'quoted'", "100% _pearl_ 'quoted'"],
  ])('%s → %s', (text, searchable) => {
    expect(searchableText(text)).toBe(searchable);
  });
});
