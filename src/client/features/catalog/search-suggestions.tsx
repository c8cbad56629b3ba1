// Loaded when the buyer first focuses the search box, so that the first page carries none of it.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState, type ReactNode, type RefObject } from 'react';
import { useLocation } from 'wouter';
import type { SearchSuggestions as Suggestions } from '#shared/catalog.js';
import { productPath } from '#shared/routes.js';
import { requestJson } from '#client/api/http.js';
import { PageTexts, useTranslation } from '#client/i18n/i18n.js';
import { useLocalize } from '#client/i18n/localized.js';

/** Suggestions follow the typing after this pause, so that each letter does not ask the server. */
const TYPING_PAUSE_MS = 200;
/** Shorter searches find too much to suggest. */
const MIN_LENGTH = 2;

/** The suggestions for a search, shared by the list under the box and "Did you mean" under empty results. */
function useSuggestions(search: string) {
  const { language } = useTranslation();
  const q = search.trim();
  return useQuery({
    queryKey: ['search-suggestions', language, q],
    queryFn: () => requestJson<Suggestions>(`/api/products/suggestions?${new URLSearchParams({ q, lang: language })}`),
    enabled: q.length >= MIN_LENGTH,
    staleTime: 60_000,
  });
}

interface SuggestionListProps {
  /** The search box, which keeps the focus while the list is chosen from (the ARIA combobox pattern). */
  input: RefObject<HTMLInputElement | null>;
  text: string;
  /** Runs this search (a "Did you mean" chosen). */
  onSearch(text: string): void;
}

type Option = { id: string; label: string; choose(): void };

/**
 * The products a search being typed finds, under the search box, or "Did you mean" when it finds
 * none: chosen with the arrow keys and Enter, or by pointer; Escape closes the list.
 */
function SuggestionList({ input, text, onSearch }: SuggestionListProps) {
  const { t } = useTranslation();
  const localize = useLocalize();
  const [, navigate] = useLocation();
  const listId = useId();
  const [typed, setTyped] = useState(text);
  const [focused, setFocused] = useState(true);
  const [dismissed, setDismissed] = useState(false);
  const [active, setActive] = useState(-1);
  // The search a "Did you mean" put in the box, whose products the results show: not suggested again.
  const chosen = useRef<string | undefined>(undefined);

  useEffect(() => {
    const timer = setTimeout(() => setTyped(text), TYPING_PAUSE_MS);
    if (text !== chosen.current) setDismissed(false);
    setActive(-1);
    return () => clearTimeout(timer);
  }, [text]);

  const suggestions = useSuggestions(typed);
  const found = text.trim().length >= MIN_LENGTH ? suggestions.data : undefined;
  // New suggestions: none is chosen, so that an arrow pressed while they came does not land on another.
  useEffect(() => setActive(-1), [found]);
  // The latest onSearch, which the parent makes anew at each render, without making the options anew.
  const latestOnSearch = useRef(onSearch);
  useEffect(() => {
    latestOnSearch.current = onSearch;
  });
  const options = useMemo<Option[]>(
    () =>
      found
        ? found.products.length > 0
          ? found.products.map((product) => ({ id: `${listId}-${product.slug}`, label: localize(product.name), choose: () => navigate(productPath(product.slug)) }))
          : found.didYouMean
            ? [
                {
                  id: `${listId}-did-you-mean`,
                  label: t('searchSuggestions.didYouMean', { search: found.didYouMean }),
                  choose: () => {
                    chosen.current = found.didYouMean!;
                    latestOnSearch.current(found.didYouMean!);
                  },
                },
              ]
            : []
        : [],
    [found, listId, localize, navigate, t],
  );
  const open = focused && !dismissed && options.length > 0;
  const activeOption = open ? options[active] : undefined;
  // What the keys act on, as of the latest key: a key pressed before the page has drawn the one before
  // (Enter right after an arrow, on a busy phone) acts on the option that arrow chose.
  const latest = useRef({ options, open, active });
  latest.current = { options, open, active };

  // The box is the combobox: its state is set on it here, as the list that it controls lives here.
  useEffect(() => {
    const box = input.current;
    if (!box) return;
    box.setAttribute('aria-controls', listId);
    box.setAttribute('aria-expanded', String(open));
    if (activeOption) box.setAttribute('aria-activedescendant', activeOption.id);
    else box.removeAttribute('aria-activedescendant');
  }, [input, listId, open, activeOption]);
  useEffect(() => {
    const box = input.current;
    return () => {
      box?.removeAttribute('aria-controls');
      box?.removeAttribute('aria-activedescendant');
      box?.setAttribute('aria-expanded', 'false');
    };
  }, [input]);

  useEffect(() => {
    const box = input.current;
    if (!box) return;
    const onKeyDown = (event: KeyboardEvent) => {
      const { options, open, active } = latest.current;
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        if (options.length === 0) return;
        event.preventDefault();
        setDismissed(false);
        const step = event.key === 'ArrowDown' ? 1 : -1;
        // From the box, down goes to the first and up to the last; past either end, back to the box.
        const next = open ? ((active + step + 1 + options.length + 1) % (options.length + 1)) - 1 : step === 1 ? 0 : options.length - 1;
        latest.current = { options, open: true, active: next };
        setActive(next);
      } else if (event.key === 'Enter') {
        // With no option chosen, the form searches for what is typed, and the list makes way for the results.
        setDismissed(true);
        const chosenOption = open ? options[active] : undefined;
        if (!chosenOption) return;
        event.preventDefault();
        chosenOption.choose();
      } else if (event.key === 'Escape' && open) {
        // Closes the list; the box keeps its text (a search box clears itself on Escape otherwise).
        event.preventDefault();
        setDismissed(true);
        setActive(-1);
      }
    };
    const onFocus = () => setFocused(true);
    const onBlur = () => setFocused(false);
    box.addEventListener('keydown', onKeyDown);
    box.addEventListener('focus', onFocus);
    box.addEventListener('blur', onBlur);
    return () => {
      box.removeEventListener('keydown', onKeyDown);
      box.removeEventListener('focus', onFocus);
      box.removeEventListener('blur', onBlur);
    };
  }, [input]);

  return (
    <>
      <ul id={listId} role="listbox" aria-label={t('searchSuggestions.label')} className="search-suggestions" hidden={!open}>
        {open &&
          options.map((option, index) => (
            <li
              key={option.id}
              id={option.id}
              role="option"
              aria-selected={index === active}
              className="search-suggestions__option"
              // The box keeps the focus, so that the list stays open until an option is chosen.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => {
                setDismissed(true);
                option.choose();
              }}
            >
              {option.label}
            </li>
          ))}
      </ul>
      <p className="visually-hidden" role="status" aria-live="polite">
        {!open || !found ? '' : found.products.length > 0 ? t('searchSuggestions.count', { count: found.products.length }) : options[0]?.label}
      </p>
    </>
  );
}

/** "Did you mean" under a search that found nothing, when a corrected one finds products. */
function DidYouMeanLink({ search, onSearch }: { search: string; onSearch(text: string): void }) {
  const { t } = useTranslation();
  const didYouMean = useSuggestions(search).data?.didYouMean;
  if (!didYouMean) return null;
  return (
    <button type="button" className="button button--primary" onClick={() => onSearch(didYouMean)}>
      {t('searchSuggestions.didYouMean', { search: didYouMean })}
    </button>
  );
}

// Their texts are the shop's (which the product page a suggestion leads to needs too): loaded with them.
export default function SearchSuggestions(props: SuggestionListProps): ReactNode {
  return (
    <PageTexts shopOnly fallback={null} failed={() => null}>
      <SuggestionList {...props} />
    </PageTexts>
  );
}

export function DidYouMean(props: { search: string; onSearch(text: string): void }): ReactNode {
  return (
    <PageTexts shopOnly fallback={null} failed={() => null}>
      <DidYouMeanLink {...props} />
    </PageTexts>
  );
}
