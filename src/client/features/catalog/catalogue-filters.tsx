import { Suspense, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import {
  CATALOGUE_SORTS,
  MAX_OPTION_FILTERS,
  MAX_SEARCH_LENGTH,
  pickText,
  PRODUCT_CATEGORIES,
  type CatalogueFacets,
  type CatalogueQuery,
  type CatalogueSort,
  type PriceBand,
  type ProductCategory,
} from '#shared/catalog.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { settings } from '#client/settings.js';
import { currencyLabel } from '#client/ui/price-text.js';
import { lazyOrNothing } from '#client/ui/lazy-or-nothing.js';

interface CatalogueFiltersProps {
  query: CatalogueQuery;
  /** How many products each filter would show; absent until the first answer. */
  facets: CatalogueFacets | undefined;
  /** Moves to another view of the catalogue; `replace` for a search still being typed, so Back skips its letters. */
  onChange(query: CatalogueQuery, options?: { replace?: boolean }): void;
}

// Suggestions come with the first focus of the search box; without their code (offline), the box still searches.
const SearchSuggestions = lazyOrNothing(() => import('./search-suggestions.js'));

/** While typing, the list follows the search after this pause. */
const TYPING_PAUSE_MS = 350;

/** A search box, category chips, a sort order and the filters with their counts; the address holds them all. */
export function CatalogueFilters({ query, facets, onChange }: CatalogueFiltersProps) {
  const { t } = useTranslation();
  const id = useId();
  const [search, setSearch] = useState(query.q ?? '');
  const typing = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const input = useRef<HTMLInputElement>(null);
  const [suggesting, setSuggesting] = useState(false);

  // The search this box last put in the address, until the address has it: that change is the box's
  // own, and the letters typed after it was sent stay (null: none on its way).
  const sent = useRef<string | undefined | null>(null);

  // The address changed by itself (Back, a link, Clear filters): the box shows its search.
  useEffect(() => {
    const own = query.q === sent.current;
    sent.current = null;
    if (own) return;
    clearTimeout(typing.current);
    setSearch(query.q ?? '');
  }, [query.q]);
  useEffect(() => () => clearTimeout(typing.current), []);

  /** Shows the catalogue for this search; a new search starts with its best matches, without one the order is the catalogue's own (catalogueQueryParams). */
  const sendSearch = (text: string, options?: { replace?: boolean }) => {
    const q = text.trim() || undefined;
    sent.current = q;
    onChange({ ...query, q, sort: query.q ? query.sort : 'relevance', page: 1 }, options);
  };

  const type = (text: string) => {
    setSearch(text);
    clearTimeout(typing.current);
    typing.current = setTimeout(() => sendSearch(text, { replace: true }), TYPING_PAUSE_MS);
  };

  const searchFor = (text: string) => {
    clearTimeout(typing.current);
    setSearch(text);
    sendSearch(text);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    clearTimeout(typing.current);
    if ((query.q ?? '') !== search.trim()) sendSearch(search);
  };

  const chooseCategory = (category: ProductCategory | undefined) => onChange({ ...query, category, page: 1 });
  const chosenFilters = (query.price ? 1 : 0) + (query.available ? 1 : 0) + (query.options?.length ?? 0);
  // Open from the start when the address chose some of them, so that what narrows the view shows.
  const [filtersOpen, setFiltersOpen] = useState(chosenFilters > 0);
  const facetsShown = facets !== undefined && filtersOpen;
  const categoryCount = (category: ProductCategory | undefined) => facets && (category ? facets.categories.find((counted) => counted.category === category)?.count : facets.all);

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
        <div className="catalogue-filters__chips">
          {/* In the categories' row, not a row of its own: on a phone the first product stays on the first screen.
              There from the first paint, so that the chips do not move when the counts arrive; it opens once they have. */}
          {/* It controls the panel only while the panel is there: open, with its counts arrived. */}
          <button
            type="button"
            className="chip chip--toggle"
            aria-expanded={facetsShown}
            aria-controls={facetsShown ? `${id}-facets` : undefined}
            disabled={!facets}
            onClick={() => setFiltersOpen(!filtersOpen)}
          >
            {chosenFilters > 0 ? t('catalogue.filters.titleChosen', { count: chosenFilters }) : t('catalogue.filters.title')}
          </button>
          <div className="chips" role="group" aria-label={t('catalogue.categoriesLabel')}>
            <button type="button" className="chip" aria-pressed={!query.category} onClick={() => chooseCategory(undefined)}>
              {t('catalogue.allCategories')}
              <Count count={categoryCount(undefined)} />
            </button>
            {PRODUCT_CATEGORIES.map((category) => (
              <button key={category} type="button" className="chip" aria-pressed={query.category === category} onClick={() => chooseCategory(category)}>
                {t(`products.categories.${category}`)}
                <Count count={categoryCount(category)} />
              </button>
            ))}
          </div>
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
      {facetsShown && <CatalogueFacetFilters id={`${id}-facets`} query={query} facets={facets} onChange={onChange} />}
    </div>
  );
}

/** A filter's count beside its name: "Almond (12)"; its place is kept while it is on its way, so that the chips do not move. */
function Count({ count }: { count: number | undefined }) {
  return (
    <>
      {' '}
      <span className="chip__count">{count === undefined ? null : `(${count})`}</span>
    </>
  );
}

/** Price bands, "available now" and the options the matching products offer, each with how many products it would show. */
function CatalogueFacetFilters({ id, query, facets, onChange }: CatalogueFiltersProps & { id: string; facets: CatalogueFacets }) {
  const { t, language } = useTranslation();
  const change = (next: Partial<CatalogueQuery>) => onChange({ ...query, ...next, page: 1 });
  const bandLabel = (band: PriceBand) => {
    const [from = '', below = ''] = band.split('-');
    return from === '0' ? t('catalogue.filters.below', { amount: below }) : below ? `${from}–${below}` : t('catalogue.filters.andMore', { amount: from });
  };
  const toggleOption = (key: string) => {
    const options = query.options ?? [];
    const next = options.includes(key) ? options.filter((option) => option !== key) : [...options, key].slice(-MAX_OPTION_FILTERS);
    change({ options: next.length > 0 ? next : undefined });
  };

  return (
    <div className="catalogue-facets" id={id}>
      <div className="catalogue-facets__groups">
        <div className="chips" role="group" aria-label={t('catalogue.filters.price', { currency: currencyLabel(settings.pricing.currency) })}>
          <span className="catalogue-facets__label" aria-hidden="true">
            {t('catalogue.filters.price', { currency: currencyLabel(settings.pricing.currency) })}
          </span>
          {facets.prices.map(({ band, count }) => (
            <button key={band} type="button" className="chip" aria-pressed={query.price === band} onClick={() => change({ price: query.price === band ? undefined : band })}>
              {bandLabel(band)}
              <Count count={count} />
            </button>
          ))}
        </div>
        <div className="chips" role="group" aria-label={t('catalogue.filters.availability')}>
          <span className="catalogue-facets__label" aria-hidden="true">
            {t('catalogue.filters.availability')}
          </span>
          <button type="button" className="chip" aria-pressed={Boolean(query.available)} onClick={() => change({ available: query.available ? undefined : true })}>
            {t('catalogue.filters.available')}
            <Count count={facets.available} />
          </button>
        </div>
        {facets.options.map((group) => {
          const name = pickText(group.group, language).text;
          return (
            <div key={group.group.en || group.group.bg} className="chips" role="group" aria-label={name}>
              <span className="catalogue-facets__label" aria-hidden="true">
                {name}
              </span>
              {group.values.map((value) => (
                <button key={value.key} type="button" className="chip" aria-pressed={query.options?.includes(value.key) ?? false} onClick={() => toggleOption(value.key)}>
                  {pickText(value.name, language).text}
                  <Count count={value.count} />
                </button>
              ))}
            </div>
          );
        })}
      </div>
    </div>
  );
}
