// The visitor's language and the download of its texts, without React: the page's small first script
// (early-requests.ts) uses it to start that download before the app's code has arrived.
import { languageFromSearch } from '#shared/routes.js';

export const LANGUAGES = ['en', 'bg'] as const;
export type Language = (typeof LANGUAGES)[number];
const FALLBACK_LANGUAGE: Language = 'en';
/** The local-storage key that keeps the visitor's language choice (spec section 7). */
const LANGUAGE_STORAGE_KEY = 'language';

export type Dictionary = { [key: string]: string | Dictionary };

/**
 * Each language's texts come in chunks: the core (layout, home, the cart's messages) that every visit
 * needs; the pages (sign-in, checkout, payment, profile, admin) loaded with the first of them, or when
 * the home page is idle, with the sign-in dialog; and the shop's (the product page with its choices and
 * sizes, the cart page), which the product page loads alone and the pages bring along.
 */
export type TextChunk = 'core' | 'pages' | 'shop';
const withShop = (pages: Promise<{ default: Dictionary }>, shop: Promise<{ default: Dictionary }>) =>
  Promise.all([pages, shop]).then(([one, other]) => ({ default: { ...one.default, ...other.default } }));
const loaders: Record<Language, Record<TextChunk, () => Promise<{ default: Dictionary }>>> = {
  en: { core: () => import('./en.json'), pages: () => withShop(import('./en.pages.json'), import('./en.shop.json')), shop: () => import('./en.shop.json') },
  bg: { core: () => import('./bg.json'), pages: () => withShop(import('./bg.pages.json'), import('./bg.shop.json')), shop: () => import('./bg.shop.json') },
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

export function storeLanguage(language: Language): void {
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
