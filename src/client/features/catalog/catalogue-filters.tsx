import { Suspense, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { CATALOGUE_SORTS, MAX_SEARCH_LENGTH, PRODUCT_CATEGORIES, type CatalogueQuery, type CatalogueSort, type ProductCategory } from '#shared/catalog.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { lazyOrNothing } from '#client/ui/lazy-or-nothing.js';

interface CatalogueFiltersProps {
  query: CatalogueQuery;
  /** Moves to another view of the catalogue; `replace` for a search still being typed, so Back skips its letters. */
  onChange(query: CatalogueQuery, options?: { replace?: boolean }): void;
}

// Suggestions come with the first focus of the search box; without their code (offline), the box still searches.
const SearchSuggestions = lazyOrNothing(() => import('./search-suggestions.js'));

/** While typing, the list follows the search after this pause. */
const TYPING_PAUSE_MS = 350;

/** Category chips, a search box and a sort order for the catalogue; the address holds all three. */
export function CatalogueFilters({ query, onChange }: CatalogueFiltersProps) {
  const { t } = useTranslation();
  const id = useId();
  const [search, setSearch] = useState(query.q ?? '');
  const typing = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const input = useRef<HTMLInputElement>(null);
  const [suggesting, setSuggesting] = useState(false);

  // The address changed by itself (Back, a link, Clear filters): the box shows its search.
  useEffect(() => {
    clearTimeout(typing.current);
    setSearch(query.q ?? '');
  }, [query.q]);
  useEffect(() => () => clearTimeout(typing.current), []);

  // A new search starts with its best matches; without a search that order is the catalogue's own (catalogueQueryParams).
  const withSearch = (text: string): CatalogueQuery => ({ ...query, q: text.trim() || undefined, sort: query.q ? query.sort : 'relevance', page: 1 });

  const type = (text: string) => {
    setSearch(text);
    clearTimeout(typing.current);
    typing.current = setTimeout(() => onChange(withSearch(text), { replace: true }), TYPING_PAUSE_MS);
  };

  const searchFor = (text: string) => {
    clearTimeout(typing.current);
    setSearch(text);
    onChange(withSearch(text));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    clearTimeout(typing.current);
    if ((query.q ?? '') !== search.trim()) onChange(withSearch(search));
  };

  const chooseCategory = (category: ProductCategory | undefined) => onChange({ ...query, category, page: 1 });

  return (
    <div className="catalogue-filters">
      <form role="search" className="catalogue-filters__search" onSubmit={submit}>
        <label htmlFor={`${id}-q`} className="visually-hidden">
          {t('catalogue.searchLabel')}
        </label>
        <div className="search-box">
          <input
            ref={input}
            id={`${id}-q`}
            type="search"
            // A combobox from the start, whose list (and its state on the box) comes with the suggestions' code.
            role="combobox"
            aria-autocomplete="list"
            aria-expanded={false}
            className="field__input"
            value={search}
            maxLength={MAX_SEARCH_LENGTH}
            placeholder={t('catalogue.searchPlaceholder')}
            onChange={(event) => type(event.target.value)}
            onFocus={() => setSuggesting(true)}
            enterKeyHint="search"
            autoComplete="off"
          />
          {suggesting && (
            <Suspense fallback={null}>
              <SearchSuggestions input={input} text={search} onSearch={searchFor} />
            </Suspense>
          )}
        </div>
        <button type="submit" className="button">
          {t('catalogue.searchButton')}
        </button>
      </form>
      <div className="catalogue-filters__row">
        <div className="chips" role="group" aria-label={t('catalogue.categoriesLabel')}>
          <button type="button" className="chip" aria-pressed={!query.category} onClick={() => chooseCategory(undefined)}>
            {t('catalogue.allCategories')}
          </button>
          {PRODUCT_CATEGORIES.map((category) => (
            <button key={category} type="button" className="chip" aria-pressed={query.category === category} onClick={() => chooseCategory(category)}>
              {t(`products.categories.${category}`)}
            </button>
          ))}
        </div>
        <div className="catalogue-filters__sort">
          <label htmlFor={`${id}-sort`} className="field__label">
            {t('catalogue.sortLabel')}
          </label>
          <select id={`${id}-sort`} className="field__input" value={query.sort} onChange={(event) => onChange({ ...query, sort: event.target.value as CatalogueSort, page: 1 })}>
            {CATALOGUE_SORTS.filter((sort) => sort !== 'relevance' || query.q).map((sort) => (
              <option key={sort} value={sort}>
                {t(`catalogue.sort.${sort}`)}
              </option>
            ))}
          </select>
        </div>
      </div>
    </div>
  );
}
