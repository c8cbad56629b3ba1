import { useEffect } from 'react';
import { useLocation, useSearch } from 'wouter';
import { DEFAULT_PAGE_LANGUAGE, isIndexablePath, LANGUAGE_PARAM, searchWithLanguage } from '#shared/routes.js';
import { useTranslation } from './i18n.js';

/**
 * Keeps the address of an indexable page (home, product pages) naming the language it is shown in:
 * ?lang=bg in Bulgarian, no parameter in English, the other parameters kept. The language shown is
 * what counts (the address's own wins only when the app starts, see detectBrowserLanguage), so a
 * link followed in the app or the language switcher both end on the right address. The history
 * entry is replaced, not added: a change of language is not a step back.
 */
export function useLanguageInAddress(): void {
  const { language } = useTranslation();
  const [pathname] = useLocation();
  const search = useSearch();
  useEffect(() => {
    if (!isIndexablePath(pathname)) return;
    // The address as it is now: another part of the app (the sign-in, cleaning its link away) may have
    // replaced it since this render, and its change must not be undone.
    const { pathname: path, search: current, hash } = window.location;
    const named = new URLSearchParams(current).get(LANGUAGE_PARAM);
    if (named === (language === DEFAULT_PAGE_LANGUAGE ? null : language)) return;
    window.history.replaceState(window.history.state, '', path + searchWithLanguage(current, language) + hash);
  }, [pathname, search, language]);
}
