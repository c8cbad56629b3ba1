import { searchSynonymsSchema, type SearchSynonyms } from '#shared/catalog-schemas.js';
import type { Executor } from '#server/db/client.js';
import { readShopState, writeShopState } from '#server/db/shop-state.js';
import { parseInput } from '#server/http/validation.js';
import { catalogueChanged } from './catalogue-state.js';

/** The admin's search synonyms (shared/search.ts synonymAlternatives), as JSON in shop_state; none until saved. */
const SYNONYMS_KEY = 'search_synonyms';

export async function readSearchSynonyms(db: Executor): Promise<SearchSynonyms> {
  const value = await readShopState(db, SYNONYMS_KEY);
  if (value === undefined) return { groups: [] };
  // Saved through saveSearchSynonyms only; a value that no longer parses (edited by hand) is left out rather than break every search.
  try {
    const parsed = searchSynonymsSchema.safeParse(JSON.parse(value));
    return parsed.success ? parsed.data : { groups: [] };
  } catch {
    return { groups: [] };
  }
}

/**
 * Validates and saves the synonyms (400 with the refused group and its message key otherwise), and
 * counts it as a change of the catalogue, so that searches answered before are answered again.
 */
export async function saveSearchSynonyms(db: Executor, input: unknown): Promise<SearchSynonyms> {
  const synonyms = parseInput(searchSynonymsSchema, input);
  const value = JSON.stringify(synonyms);
  await db.transaction(async (tx) => {
    await catalogueChanged(tx);
    await writeShopState(tx, SYNONYMS_KEY, value);
  });
  return synonyms;
}
