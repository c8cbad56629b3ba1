/**
 * Catalogue search ignores case and accents: both the stored text and the search are lower-cased and
 * lose their combining marks, in Latin and Cyrillic alike ("Crème" is found by "creme", "Й" by "й"
 * and "и"). The server stores a product's searchable text and compares with LIKE, so a search is
 * always plain text.
 */
export function searchableText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLocaleLowerCase('en')
    .replace(/\s+/g, ' ')
    .trim();
}
