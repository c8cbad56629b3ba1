import { and, or, sql, type SQL } from 'drizzle-orm';
import { searchKey, searchTerms, type SearchTerm } from '#shared/search.js';
import type { Executor } from '#server/db/client.js';
import { products } from '#server/db/schema.js';

/*
 * The catalogue's forgiving search (shared/search.ts brings texts and searches into one form). Every
 * searched word must be found in the product's names or descriptions: as a part of a word (which
 * finds "perl" in "perla" and "nail" in "nails"), or, for a word of 4 letters or more, by likeness,
 * pg_trgm's word similarity (which finds "glitr" in "gliter" and "perl" in "pearl"). Both can use
 * the trigram index on search_text, though over a small catalogue PostgreSQL reads the table
 * instead, checking the likeness row by row. The best matches come first: a word found at the start
 * of a word of the name, then within the name, then likeness to the name, then the description.
 */

/**
 * How alike (0 to 1) a searched word and the closest part of a product's text must be for a word not
 * found as it is: low enough for a letter or two wrong in a word of five ("stilleto", "glitr"), high
 * enough that "nail" does not find "mail".
 */
const WORD_LIKENESS = 0.5;
/** The shortest searched word matched by likeness; a shorter one is looked for as it is. */
const LIKENESS_MIN_LENGTH = 4;

/** A search's words (the single letters left out when there are longer ones, since they find everything). */
export function productSearchTerms(search: string): SearchTerm[] {
  const terms = searchTerms(search);
  const longer = terms.filter((term) => term.word.length > 1);
  return longer.length > 0 ? longer : terms;
}

// Terms are made of [a-z0-9] only (searchKey), so they need no escaping in a LIKE pattern.
const within = (column: typeof products.searchText | typeof products.searchName, term: string) => sql`${column} like ${`%${term}%`}`;
const atWordStart = (term: string) => sql`(' ' || ${products.searchName}) like ${`% ${term}%`}`;

/** The products that have every word of the search. */
export function searchCondition(terms: SearchTerm[]): SQL | undefined {
  return and(
    ...terms.map(({ word, stem }) =>
      word.length >= LIKENESS_MIN_LENGTH ? sql`(${within(products.searchText, stem)} or ${word} <% ${products.searchText})` : within(products.searchText, stem),
    ),
  );
}

/** How well a product matches the search: higher first. */
export function searchRank(terms: SearchTerm[]): SQL {
  const scores = terms.map(
    ({ word, stem }) => sql`(case when ${atWordStart(stem)} then 4 when ${within(products.searchName, stem)} then 3 else 0 end
      + 2 * word_similarity(${word}, ${products.searchName})
      + case when ${within(products.searchText, stem)} then 1 else 0 end)`,
  );
  return sql.join(scores, sql` + `);
}

/**
 * Sets the likeness `<%` asks for, for the rest of the transaction: pg_trgm reads it from a setting
 * (pg_trgm.word_similarity_threshold), which its index search uses too.
 */
export async function useSearchLikeness(tx: Executor, likeness = WORD_LIKENESS): Promise<void> {
  await tx.execute(sql`select set_config('pg_trgm.word_similarity_threshold', ${String(likeness)}, true)`);
}

/** The likeness of a word to a name's word for "Did you mean": looser than a search's own, since the buyer is asked first. */
const CORRECTION_LIKENESS = 0.3;

/** pg_trgm's similarity of two words (shared trigrams of all trigrams, each word padded as pg_trgm pads it), 0 to 1. */
function wordLikeness(one: string, other: string): number {
  const trigrams = (word: string) => {
    const padded = `  ${word} `;
    return new Set(Array.from({ length: padded.length - 2 }, (_, index) => padded.slice(index, index + 3)));
  };
  const [first, second] = [trigrams(one), trigrams(other)];
  const shared = [...first].filter((trigram) => second.has(trigram)).length;
  return shared / (first.size + second.size - shared);
}

/**
 * A search for "Did you mean": each word replaced by the most alike word of the names of products
 * that have a word like one of the search's, in the buyer's language first. Null when a word has
 * nothing alike enough.
 */
export async function closestSearch(tx: Executor, terms: SearchTerm[], language: 'en' | 'bg'): Promise<string | null> {
  await useSearchLikeness(tx, CORRECTION_LIKENESS);
  const names = await tx
    .select({ en: products.nameEn, bg: products.nameBg })
    .from(products)
    .where(or(...terms.map(({ word }) => sql`${word} <% ${products.searchName}`)))
    .limit(30);
  await useSearchLikeness(tx);
  const words = [...new Set(names.flatMap((name) => [name[language], name[language === 'en' ? 'bg' : 'en']]).flatMap((name) => name.toLocaleLowerCase('bg').split(/[^\p{L}\p{N}]+/u)))]
    .filter((word) => word.length > 1)
    .map((word) => ({ word, key: searchKey(word) }));
  const corrected: string[] = [];
  for (const term of terms) {
    let best: { word: string; likeness: number } | undefined;
    for (const candidate of words) {
      const likeness = wordLikeness(term.word, candidate.key);
      if (likeness > (best?.likeness ?? CORRECTION_LIKENESS)) best = { word: candidate.word, likeness };
    }
    if (!best) return null;
    corrected.push(best.word);
  }
  return corrected.join(' ');
}
