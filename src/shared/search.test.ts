import { describe, expect, it } from 'vitest';
import { latinLowerCase, SEARCH_MAX_WORDS, searchKey, searchTerms, synonymAlternatives, wordStem, type SearchTerm } from './search.js';

describe('latinLowerCase', () => {
  it.each([
    ['Crème Brûlée', 'creme brulee'],
    ['ПЕРЛЕНИ Нокти', 'perleni nokti'],
    ['Щастие и Юлия', 'shtastie i yuliya'],
    // Й is И with a breve, which goes with the other accents.
    ['Йоана', 'ioana'],
  ])('%s → %s', (text, latin) => {
    expect(latinLowerCase(text)).toBe(latin);
  });
});

describe('searchKey', () => {
  it('brings a word typed in either script, officially or as people chat, to one spelling', () => {
    for (const [typed, written] of <const>[
      ['chereshov', 'черешов'],
      ['4ereshov', 'Черешов'],
      ['cvqt', 'цвят'],
      ['tsvyat', 'цвят'],
      ['jelqzo', 'желязо'],
      ['6apka', 'шапка'],
      ['stiletto', 'стилето'],
      ['kristal', 'crystal'],
      ['nokti', 'НОКТИ'],
    ]) {
      expect(searchKey(typed), `${typed} and ${written}`).toBe(searchKey(written));
    }
  });

  it('keeps only letters and digits, so that a search is never a pattern', () => {
    expect(searchKey("100% _pearl_ 'gold' \\ [a-z]*")).toBe('100 pearl gold a z');
    expect(searchKey('  tiny   heart\nand a line ')).toBe('tini heart and a line');
    expect(searchKey('„Розова перла“ – 3D')).toBe('rozova perla 3d');
  });
});

describe('wordStem', () => {
  it('leaves out the ending of a form, so that the word finds its other forms', () => {
    expect(wordStem(searchKey('перли'))).toBe('perl');
    expect(wordStem(searchKey('перлите'))).toBe('perl');
    expect(wordStem(searchKey('pearls'))).toBe('pearl');
    expect(wordStem(searchKey('нокти'))).toBe('nokt');
    expect(searchKey('нокти')).toContain(wordStem(searchKey('ноктите')));
  });

  it('keeps short words whole', () => {
    expect(wordStem('nail')).toBe('nail');
    expect(wordStem('oil')).toBe('oil');
  });
});

describe('searchTerms', () => {
  it('bounds the work of any search: a few words of limited length', () => {
    const terms = searchTerms(`${'перла '.repeat(50)}${Array.from({ length: 40 }, (_, index) => `w${index}`).join(' ')} ${'x'.repeat(5000)}`);
    expect(terms.length).toBeLessThanOrEqual(SEARCH_MAX_WORDS);
    for (const term of terms) expect(term.word).toMatch(/^[a-z0-9]{1,32}$/);
    expect(terms[0]).toEqual({ word: 'perla', stem: 'perl' });
  });

  it('finds nothing to search in punctuation alone', () => {
    expect(searchTerms('%%% ___ \\')).toEqual([]);
  });
});

describe('the admin’s synonyms in a search', () => {
  const words = (parts: SearchTerm[][][]) => parts.map((ways) => ways.map((way) => way.map((term) => term.word).join(' ')));
  const groups = [['press-on', 'изкуствени нокти'], ['decals', 'stickers', 'стикери'], ['nail', 'нокът']];

  it('lets each part of a search be said by any phrase of its group, the longest phrase held first', () => {
    expect(words(synonymAlternatives(searchTerms('press on nails red'), groups))).toEqual([['pres on', 'izkustveni nokti'], ['nails', 'nokat'], ['red']]);
    expect(words(synonymAlternatives(searchTerms('стикерите'), groups))).toEqual([['stikerite', 'dekals', 'stikeri']]);
    expect(words(synonymAlternatives(searchTerms('glitter'), groups))).toEqual([['gliter']]);
  });

  it('bounds the words a search brings in', () => {
    const many = [Array.from({ length: 10 }, (_, index) => `phrase${index} of three words${index}`).concat('gift')];
    const parts = synonymAlternatives(searchTerms('gift'), many);
    expect(parts.flat(2).length).toBeLessThanOrEqual(24);
    expect(words(parts)[0]![0]).toBe('gift');
  });
});
