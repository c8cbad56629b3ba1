import { and, or, sql, type SQL } from 'drizzle-orm';
import { searchKey, searchTerms, synonymAlternatives, type SearchTerm } from '#shared/search.js';
import type { Executor } from '#server/db/client.js';
import { products, searchWords } from '#server/db/schema.js';
import { selectRows } from '#server/db/transaction.js';
import { readSearchSynonyms } from './search-synonyms.js';

/*
 * The catalogue's forgiving search (shared/search.ts brings texts and searches into one form). Every
 * searched word must be found in the product's names or descriptions: as a part of a word (which
 * finds "perl" in "perla" and "nail" in "nails"), or, for a word of 4 letters or more, by likeness,
 * pg_trgm's word similarity (which finds "glitr" in "gliter" and "perl" in "pearl"). Each searched
 * word is first matched against the catalogue's distinct words (search_words, a few thousand short
 * words, through its trigram index: findSearchWords); the products holding the words found are then
 * read through the index on their words, and ranked by which of those words their names hold, so
 * that no likeness is computed per product. The best matches come first: the word itself in the name,
 * then a word of the name starting with it, then holding it, then alike to it, then the description.
 */

/**
 * How alike (0 to 1) a searched word and the closest part of a catalogue word must be for a word not
 * found as it is: low enough for a letter or two wrong in a word of five ("stilleto", "glitr"), high
 * enough that "nail" does not find "mail".
 */
const WORD_LIKENESS = 0.5;
/** The shortest searched word matched by likeness; a shorter one is looked for as it is. */
const LIKENESS_MIN_LENGTH = 4;
/**
 * The shortest searched word whose stem is found inside a word rather than at its start: "stone" in
 * "rhinestone", but not "oil" in "foil" or "perl" in "superlative".
 */
const HOLDING_MIN_LENGTH = 5;
/** Alike words at least this alike rank above the others. */
const CLOSE_LIKENESS = 0.7;

/** A search's words (the single letters left out when there are longer ones, since they find everything). */
export function productSearchTerms(search: string): SearchTerm[] {
  const terms = searchTerms(search);
  const longer = terms.filter((term) => term.word.length > 1);
  return longer.length > 0 ? longer : terms;
}

/** The catalogue's words that one searched word finds, from the best kind of match to the least. */
interface FoundWords {
  /** The searched word itself. */
  same: string[];
  /** Words starting with its stem ("perla" for "perli"). */
  starting: string[];
  /** Words holding its stem elsewhere. */
  holding: string[];
  /** Words alike to it by a letter or two: very alike (CLOSE_LIKENESS), then the rest. */
  close: string[];
  alike: string[];
}

/**
 * For each searched word, the catalogue's words that it finds (through search_words' trigram index),
 * by kind of match.
 */
async function findSearchWords(tx: Executor, terms: readonly SearchTerm[]): Promise<FoundWords[]> {
  // Catalogue words are made of [a-z0-9] only (searchKey), so a stem needs no escaping in a LIKE pattern, and a space joins them.
  const lists = terms.map(({ word, stem }) => {
    const alike = word.length >= LIKENESS_MIN_LENGTH ? sql` or ${word} <% ${searchWords.word}` : sql``;
    const pattern = word.length >= HOLDING_MIN_LENGTH ? `%${stem}%` : `${stem}%`;
    return sql`array_to_string(array(select ${searchWords.word} from ${searchWords} where ${searchWords.word} like ${pattern}${alike}), ' ')`;
  });
  const [row] = await selectRows<Record<string, string>>(tx, sql`select ${sql.join(lists.map((list, index) => sql`${list} as ${sql.identifier(`t${index}`)}`), sql`, `)}`);
  return terms.map(({ word, stem }, index) => {
    const found: FoundWords = { same: [], starting: [], holding: [], close: [], alike: [] };
    for (const candidate of (row?.[`t${index}`] ?? '').split(' ').filter(Boolean)) {
      if (candidate === word) found.same.push(candidate);
      else if (candidate.startsWith(stem)) found.starting.push(candidate);
      else if (candidate.includes(stem)) found.holding.push(candidate);
      else if (wordLikeness(word, candidate) >= CLOSE_LIKENESS) found.close.push(candidate);
      else found.alike.push(candidate);
    }
    return found;
  });
}

const allOf = (found: FoundWords) => [...found.same, ...found.starting, ...found.holding, ...found.close, ...found.alike];

/**
 * A search ready to be matched: for each part of it (a searched word, or a phrase of the admin's
 * synonyms), the ways of saying it that find catalogue words, each way as the words found for each
 * of its searched words. A part with no such way finds no product.
 */
export type FoundSearch = FoundWords[][][];

/** The search's parts and their ways of saying them (shared/search.ts synonymAlternatives), with the catalogue words each finds. */
export async function findSearch(tx: Executor, terms: readonly SearchTerm[]): Promise<FoundSearch> {
  const { groups } = await readSearchSynonyms(tx);
  const parts = synonymAlternatives(terms, groups);
  const distinct = [...new Map(parts.flat(2).map((term) => [term.word, term])).values()];
  const found = await findSearchWords(tx, distinct);
  const byWord = new Map(distinct.map((term, index) => [term.word, found[index]!]));
  return parts.map((ways) => ways.map((way) => way.map((term) => byWord.get(term.word)!)).filter((way) => way.every((words) => allOf(words).length > 0)));
}

/** Whether some part of the search finds no catalogue word in any way of saying it, so that no product can match. */
export const findsNothing = (search: FoundSearch) => search.some((ways) => ways.length === 0);

/** The words as one array parameter: a space joins them, as no word holds one. */
const wordArray = (words: readonly string[]) => sql`string_to_array(${words.join(' ')}, ' ')`;

/** Whether the product holds one way of saying a part: a word found for each of its words. */
const holdsWay = (way: FoundWords[]) => and(...way.map((words) => sql`${products.searchWords} && ${wordArray(allOf(words))}`));

/** The products that hold, for every part of the search, one way of saying it. */
export function searchCondition(search: FoundSearch): SQL | undefined {
  return and(...search.map((ways) => or(...ways.map(holdsWay))));
}

/** How well one searched word's catalogue words match a product: in its name (how closely), or in its description. */
function wordRank(words: FoundWords): SQL {
  const inName = ([kind, score]: [string[], number]) => (kind.length > 0 ? sql`when ${products.searchNameWords} && ${wordArray(kind)} then ${sql.raw(String(score))} ` : sql``);
  const tiers: [string[], number][] = [
    [words.same, 5],
    [words.starting, 4],
    [words.holding, 3],
    [words.close, 2],
    [words.alike, 1],
  ];
  const byPart = [...words.same, ...words.starting, ...words.holding];
  const inText = byPart.length > 0 ? sql` + case when ${products.searchWords} && ${wordArray(byPart)} then 1 else 0 end` : sql``;
  return sql`(case ${sql.join(tiers.map(inName))}else 0 end${inText})`;
}

/**
 * How well a product matches the search: higher first. Each part scores by the best way of saying it
 * that the product holds whole (a synonym's phrase half held scores nothing): a phrase by its words'
 * average, so that a longer one does not outweigh the word searched, which scores one more.
 */
export function searchRank(search: FoundSearch): SQL {
  const wayRank = (way: FoundWords[]) => sql.join(way.map(wordRank), sql` + `);
  const partRank = (ways: FoundWords[][]) =>
    // One way: the search's condition already holds it.
    ways.length === 1
      ? wayRank(ways[0]!)
      : sql`greatest(${sql.join(
          ways.map((way, index) => sql`case when ${holdsWay(way)} then (${wayRank(way)}) / ${sql.raw(String(way.length))}.0 + ${sql.raw(index === 0 ? '1' : '0')} else 0 end`),
          sql`, `,
        )})`;
  return sql.join(
    search.map((ways) => sql`(${partRank(ways)})`),
    sql` + `,
  );
}

/**
 * The highest rank searchRank can give for this search: every part said in its first way, each word
 * found as it is (or by its best kind of match) in the name and in the text. A product ranked this high
 * has no better.
 */
export function bestRank(search: FoundSearch): number {
  const wordBest = (words: FoundWords) => {
    const inName = words.same.length > 0 ? 5 : words.starting.length > 0 ? 4 : words.holding.length > 0 ? 3 : words.close.length > 0 ? 2 : 1;
    return inName + (words.same.length + words.starting.length + words.holding.length > 0 ? 1 : 0);
  };
  const wayBest = (way: FoundWords[]) => way.reduce((sum, words) => sum + wordBest(words), 0);
  const partBest = (ways: FoundWords[][]) => (ways.length === 1 ? wayBest(ways[0]!) : Math.max(...ways.map((way, index) => wayBest(way) / way.length + (index === 0 ? 1 : 0))));
  return search.reduce((sum, ways) => sum + partBest(ways), 0);
}

/**
 * Sets, for the rest of the transaction, the likeness `<%` asks for (pg_trgm reads it from a setting,
 * pg_trgm.word_similarity_threshold, which its index search uses too), and the planner's cost of a
 * page read out of order. At its default (4, for spinning disks) a search that finds an eighth of
 * 20,000 products read all of them rather than its matches through the index on their words, and
 * took four times as long; the catalogue's pages are in memory or on solid-state storage.
 */
export async function useSearchSettings(tx: Executor, likeness = WORD_LIKENESS): Promise<void> {
  await tx.execute(sql`select set_config('pg_trgm.word_similarity_threshold', ${String(likeness)}, true), set_config('random_page_cost', '1.1', true)`);
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
 * whose names have a word like one of the search's, in the buyer's language first. Null when a word has
 * nothing alike enough.
 */
export async function closestSearch(tx: Executor, terms: SearchTerm[], language: 'en' | 'bg'): Promise<string | null> {
  await useSearchSettings(tx, CORRECTION_LIKENESS);
  const names = await tx
    .select({ en: products.nameEn, bg: products.nameBg })
    .from(products)
    .where(or(...terms.map(({ word }) => sql`${products.searchNameWords} && array(select ${searchWords.word} from ${searchWords} where ${word} <% ${searchWords.word})`)))
    .limit(30);
  await useSearchSettings(tx);
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
