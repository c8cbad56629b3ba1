/*
 * Catalogue search forgives the way people type on a phone: in either script, with a letter or two
 * wrong, and in another form of the word. Product texts and searches are brought into one form,
 * `searchKey`: Latin letters, Bulgarian transliterated, spellings of one sound folded together. The
 * server keeps the catalogue's words in that form and matches each searched word against them by
 * part (LIKE) or, for a word of 4 letters or more, by likeness (pg_trgm's word similarity), then
 * finds the products holding the words it found; see catalog/product-search.ts.
 */

const CYRILLIC_TO_LATIN: Record<string, string> = {
  а: 'a', б: 'b', в: 'v', г: 'g', д: 'd', е: 'e', ж: 'zh', з: 'z', и: 'i', й: 'y', к: 'k', л: 'l', м: 'm', н: 'n', о: 'o',
  п: 'p', р: 'r', с: 's', т: 't', у: 'u', ф: 'f', х: 'h', ц: 'ts', ч: 'ch', ш: 'sh', щ: 'sht', ъ: 'a', ь: 'y', ю: 'yu', я: 'ya',
  ѝ: 'i', ы: 'i', э: 'e', ё: 'yo', є: 'ye', і: 'i', ї: 'yi',
};

const withoutAccents = (text: string) => text.normalize('NFD').replace(/\p{M}+/gu, '');

/**
 * Lower case, without accents, in Latin letters: Bulgarian's official transliteration (Закон за
 * транслитерацията) for Cyrillic, so that "Пловдив" is "plovdiv".
 */
export function latinLowerCase(text: string): string {
  return withoutAccents(withoutAccents(text).toLowerCase().replace(/[\u0400-\u04ff]/g, (letter) => CYRILLIC_TO_LATIN[letter] ?? letter));
}

/**
 * Bulgarian written in Latin letters as people chat ("шльокавица", much as the phonetic keyboard
 * places the letters) and in the official transliteration, folded to one spelling, with English
 * spellings of the same sounds: "4ereshov" and "chereshov" (черешов), "6apka" and "shapka", "jelqzo"
 * and "zhelyazo" (желязо), "cvqt" and "tsvyat" (цвят), "kristal" and "crystal", "stiletto" and "стилето".
 */
function foldSpelling(word: string): string {
  return word
    .replace(/(?<=[a-z])4|4(?=[a-z])/g, 'ch')
    .replace(/(?<=[a-z])6|6(?=[a-z])/g, 'sh')
    .replace(/zh/g, 'j')
    .replace(/w/g, 'v')
    .replace(/q/g, 'ia')
    .replace(/x/g, 'ks')
    .replace(/ph/g, 'f')
    .replace(/th/g, 't')
    .replace(/ck/g, 'k')
    .replace(/c(?=[eiyv])/g, 'ts')
    .replace(/c(?!h)/g, 'k')
    .replace(/y/g, 'i')
    .replace(/([a-z])\1/g, '$1');
}

/** The words of a text in the search's form: Latin, folded spellings, nothing but letters and digits. */
export function searchKey(text: string): string {
  return latinLowerCase(text)
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .map(foldSpelling)
    .join(' ');
}

/**
 * Endings that mark a form of a word rather than the word: Bulgarian articles and plurals
 * (перлите, перли, перла), English plurals (pearls), and a last vowel, in their folded spelling.
 * The longest that leaves at least 3 letters goes, once.
 */
const WORD_FORM_ENDINGS = ['ovete', 'ite', 'ove', 'ies', 'ta', 'to', 'te', 'es', 's', 'a', 'e', 'i', 'o', 'u'];

/** A searched word without its ending, so that it finds the word's other forms as a part of them. */
export function wordStem(word: string): string {
  if (word.length < 5) return word;
  const ending = WORD_FORM_ENDINGS.find((candidate) => word.endsWith(candidate) && word.length - candidate.length >= 3);
  return ending ? word.slice(0, -ending.length) : word;
}

/** The most words of one search that are matched; the rest of a longer search is left out. */
export const SEARCH_MAX_WORDS = 8;
/** The longest searched word that is matched, cut to this; a longer one is no word of a product. */
const SEARCH_MAX_WORD_LENGTH = 32;

/** A searched word: whole, for likeness, and without its ending, to be found as a part of a word. */
export interface SearchTerm {
  word: string;
  stem: string;
}

/** A search's words in the search's form: each must be found in a product. */
export function searchTerms(search: string): SearchTerm[] {
  const words = searchKey(search.slice(0, 400))
    .split(' ')
    .filter(Boolean)
    .map((word) => word.slice(0, SEARCH_MAX_WORD_LENGTH));
  return [...new Set(words)].slice(0, SEARCH_MAX_WORDS).map((word) => ({ word, stem: wordStem(word) }));
}

/**
 * The admin's synonyms: groups of words or phrases that mean the same to a shopper ("press-on",
 * "изкуствени нокти"). A search holding one of a group's phrases also finds products holding any
 * other phrase of the group instead.
 */
export const MAX_SYNONYM_GROUPS = 100;
export const MAX_SYNONYMS_PER_GROUP = 10;
export const MAX_SYNONYM_LENGTH = 60;

/** The most searched words, with those of the synonyms a search brings in, that one search matches. */
const MAX_SEARCH_TERMS = 24;

/**
 * The ways of saying each part of a search: a part is one searched word, or a phrase of a synonym
 * group that the search holds (its words in a row, each in any form: "nails" for "nail"), which
 * may then be said by any phrase of its group. A product must hold one way of saying every part.
 */
export function synonymAlternatives(terms: readonly SearchTerm[], groups: readonly (readonly string[])[]): SearchTerm[][][] {
  const phrases = groups.map((group) => group.map(searchTerms).filter((phrase) => phrase.length > 0));
  const sameWord = (one: SearchTerm, other: SearchTerm) => one.word === other.word || one.stem === other.stem;
  const parts: SearchTerm[][][] = [];
  let count = terms.length;
  for (let at = 0; at < terms.length; ) {
    let best: { phrase: SearchTerm[]; group: SearchTerm[][] } | undefined;
    for (const group of phrases) {
      for (const phrase of group) {
        const fits = phrase.length > (best?.phrase.length ?? 0) && phrase.every((word, index) => terms[at + index] && sameWord(word, terms[at + index]!));
        if (fits) best = { phrase, group };
      }
    }
    const said = terms.slice(at, at + (best?.phrase.length ?? 1));
    const others = (best?.group ?? []).filter((phrase) => phrase !== best?.phrase);
    const alternatives = [said];
    for (const other of others) {
      if (count + other.length > MAX_SEARCH_TERMS) break;
      alternatives.push(other);
      count += other.length;
    }
    parts.push(alternatives);
    at += said.length;
  }
  return parts;
}

/** A product's stored search texts (products.search_text and search_name) from its names and descriptions. */
export const productSearchColumns = (name: { en: string; bg: string }, description: { en: string; bg: string }) => ({
  searchText: searchKey([name.en, name.bg, description.en, description.bg].join(' ')),
  searchName: searchKey(`${name.en} ${name.bg}`),
});
