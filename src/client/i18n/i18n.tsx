import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { languageFromSearch } from '../../shared/routes.js';

export const LANGUAGES = ['en', 'bg'] as const;
export type Language = (typeof LANGUAGES)[number];
const FALLBACK_LANGUAGE: Language = 'en';
/** The local-storage key that keeps the visitor's language choice (spec section 7). */
const LANGUAGE_STORAGE_KEY = 'language';

type Dictionary = { [key: string]: string | Dictionary };
type TranslationParams = Record<string, string | number>;
export type Translate = (key: string, params?: TranslationParams) => string;

/**
 * Each language's texts come in two chunks: the core (layout, home, sign-in, cart) that every
 * visit needs, and the pages (checkout, payment, profile, admin) loaded with the first of them.
 */
export type TextChunk = 'core' | 'pages';
const loaders: Record<Language, Record<TextChunk, () => Promise<{ default: Dictionary }>>> = {
  en: { core: () => import('./en.json'), pages: () => import('./en.pages.json') },
  bg: { core: () => import('./bg.json'), pages: () => import('./bg.pages.json') },
};
const loaded = new Map<string, Promise<Dictionary>>();

export function loadDictionary(language: Language, chunk: TextChunk = 'core'): Promise<Dictionary> {
  const key = `${language}:${chunk}`;
  let dictionary = loaded.get(key);
  if (!dictionary) {
    dictionary = loaders[language][chunk]().then((module) => module.default);
    // A failed download may be tried again later.
    dictionary.catch(() => loaded.delete(key));
    loaded.set(key, dictionary);
  }
  return dictionary;
}

async function loadTexts(language: Language, chunks: readonly TextChunk[]): Promise<Dictionary> {
  const parts = await Promise.all(chunks.map((chunk) => loadDictionary(language, chunk)));
  return Object.assign({}, ...parts) as Dictionary;
}

function isLanguage(value: unknown): value is Language {
  return LANGUAGES.includes(value as Language);
}

/**
 * The language the address names (?lang=bg), then the stored choice, then the browser's languages by
 * prefix ("bg-BG" is bg), then English.
 */
export function detectLanguage(stored: string | null, browserLanguages: readonly string[], fromAddress?: string | null): Language {
  if (isLanguage(fromAddress)) return fromAddress;
  if (isLanguage(stored)) return stored;
  for (const browserLanguage of browserLanguages) {
    const prefix = browserLanguage.toLowerCase().split('-')[0];
    if (isLanguage(prefix)) return prefix;
  }
  return FALLBACK_LANGUAGE;
}

function readStoredLanguage(): string | null {
  try {
    return localStorage.getItem(LANGUAGE_STORAGE_KEY);
  } catch {
    return null;
  }
}

function storeLanguage(language: Language): void {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Storage may be disabled; the choice then lasts for this page only.
  }
}

/**
 * The language to start in. An address that names one (a shared link, a search result in Bulgarian)
 * wins and becomes the visitor's choice, so that the next visit without it is in that language too.
 */
export function detectBrowserLanguage(): Language {
  const fromAddress = languageFromSearch(window.location.search);
  if (fromAddress) storeLanguage(fromAddress);
  return detectLanguage(readStoredLanguage(), navigator.languages?.length ? navigator.languages : [navigator.language], fromAddress);
}

function lookup(dictionary: Dictionary, key: string): string | undefined {
  let node: string | Dictionary | undefined = dictionary;
  for (const part of key.split('.')) {
    if (typeof node !== 'object') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/**
 * Builds `t` for one language: nested keys with dots, {{name}} placeholders, and plural forms
 * chosen by Intl.PluralRules from a `count` parameter (key_one, key_few, key_other...), which is
 * shown grouped as the language writes numbers.
 */
export function createTranslator(language: Language, dictionary: Dictionary): Translate {
  const plurals = new Intl.PluralRules(language);
  const counts = new Intl.NumberFormat(language);
  return (key, params) => {
    const count = params?.count;
    const text =
      (typeof count === 'number' ? lookup(dictionary, `${key}_${plurals.select(count)}`) ?? lookup(dictionary, `${key}_other`) : undefined) ??
      lookup(dictionary, key);
    if (text === undefined) return key;
    if (!params) return text;
    return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (placeholder, name: string) => {
      const value = params[name];
      if (value === undefined) return placeholder;
      // A count reads as the language writes numbers (100,000 or 100 000); other numbers, a year say, stay as they are.
      return name === 'count' && typeof value === 'number' ? counts.format(value) : String(value);
    });
  };
}

interface I18n {
  language: Language;
  t: Translate;
  setLanguage(language: Language): void;
  /** True once the texts of the lazily loaded pages are there; asking loads them. */
  pageTextsReady: boolean;
  /** Their download failed (offline before the app was kept for offline use); asking again retries. */
  pageTextsFailed: boolean;
  loadPageTexts(): void;
}

const I18nContext = createContext<I18n | null>(null);

export function I18nProvider({ initialLanguage, children }: { initialLanguage: Language; children: ReactNode }) {
  const [state, setState] = useState<{ language: Language; chunks: TextChunk[]; dictionary: Dictionary } | null>(null);
  const [failed, setFailed] = useState(false);

  const show = useCallback(async (language: Language, chunks: TextChunk[]) => {
    setFailed(false);
    try {
      setState({ language, chunks, dictionary: await loadTexts(language, chunks) });
    } catch {
      setFailed(true);
    }
  }, []);

  useEffect(() => {
    void show(initialLanguage, ['core']);
  }, [initialLanguage, show]);

  useEffect(() => {
    if (state) document.documentElement.lang = state.language;
  }, [state]);

  const value = useMemo<I18n | null>(() => {
    if (!state) return null;
    return {
      language: state.language,
      t: createTranslator(state.language, state.dictionary),
      setLanguage: (language) => {
        storeLanguage(language);
        void show(language, state.chunks);
      },
      pageTextsReady: state.chunks.includes('pages'),
      pageTextsFailed: failed,
      loadPageTexts: () => {
        if (!state.chunks.includes('pages')) void show(state.language, [...state.chunks, 'pages']);
      },
    };
  }, [state, failed, show]);

  if (failed && !value) {
    // Without texts there is nothing to show but this, in both languages.
    return <p className="state-message">The shop could not be loaded. Please reload the page. / Магазинът не можа да се зареди. Моля, презаредете страницата.</p>;
  }
  // Nothing is shown until the texts are there, so no page flashes raw keys.
  if (!value) return null;
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useTranslation(): I18n {
  const i18n = useContext(I18nContext);
  if (!i18n) throw new Error('useTranslation needs an I18nProvider');
  return i18n;
}

/**
 * Shows its children once the lazily loaded pages' texts are there, the fallback until then, and
 * `failed` (given a way to try again) when they could not be downloaded.
 */
export function PageTexts({ fallback, failed, children }: { fallback: ReactNode; failed: (retry: () => void) => ReactNode; children: ReactNode }) {
  const { pageTextsReady, pageTextsFailed, loadPageTexts } = useTranslation();
  useEffect(() => {
    if (!pageTextsReady && !pageTextsFailed) loadPageTexts();
  }, [pageTextsReady, pageTextsFailed, loadPageTexts]);
  if (pageTextsReady) return children;
  return pageTextsFailed ? failed(loadPageTexts) : fallback;
}
