/**
 * Product addresses (/product/{slug}) are made from names: Latin letters and digits, words joined
 * by hyphens. Bulgarian letters are written in Latin by the official transliteration (Закон за
 * транслитерацията, 2009), so "Перлени нокти" becomes "perleni-nokti".
 */
const BULGARIAN_LATIN: Record<string, string> = {
  а: 'a', б: 'b', в: 'v', г: 'g', д: 'd', е: 'e', ж: 'zh', з: 'z', и: 'i', й: 'y', к: 'k', л: 'l', м: 'm',
  н: 'n', о: 'o', п: 'p', р: 'r', с: 's', т: 't', у: 'u', ф: 'f', х: 'h', ц: 'ts', ч: 'ch', ш: 'sh',
  щ: 'sht', ъ: 'a', ь: 'y', ю: 'yu', я: 'ya',
};

const MAX_SLUG_LENGTH = 80;

export function slugify(name: string): string {
  const latin = name
    .toLocaleLowerCase('bg')
    // The law writes "ия" at the end of a word as "ia" (България: Bulgaria).
    .replace(/ия(?=$|[^\p{L}])/gu, 'ia')
    .replace(/[а-яѝ]/g, (letter) => BULGARIAN_LATIN[letter] ?? (letter === 'ѝ' ? 'i' : ''))
    .normalize('NFD')
    .replace(/\p{M}+/gu, '');
  const slug = latin
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/^-+|-+$/g, '');
  return slug || 'product';
}

/** A slug is what slugify gives; anything else in a product address is not one. */
export const isSlug = (text: string): boolean => text.length <= MAX_SLUG_LENGTH + 12 && /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(text);
