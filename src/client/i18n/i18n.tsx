import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { endingSentence } from '#shared/sentence.js';
import { loadDictionary, storeLanguage, type Dictionary, type Language, type TextChunk } from './texts.js';

type TranslationParams = Record<string, string | number>;
export type Translate = (key: string, params?: TranslationParams) => string;

async function loadTexts(language: Language, chunks: readonly TextChunk[]): Promise<Dictionary> {
  const parts = await Promise.all(chunks.map((chunk) => loadDictionary(language, chunk)));
  return Object.assign({}, ...parts) as Dictionary;
}

function lookup(dictionary: Dictionary, key: string): string | undefined {
  let node: string | Dictionary | undefined = dictionary;
  for (const part of key.split('.')) {
    if (typeof node !== 'object') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

interface NumberRules {
  plurals: Intl.PluralRules;
  counts: Intl.NumberFormat;
}
const numberRulesByLanguage = new Map<Language, NumberRules>();

/**
 * A language's plural rules and number format, made once. The page's first number format loads the
 * browser's locale data: 20 to 40 ms on a desktop, four times that on a slow phone (measured in Chromium).
 */
function numberRules(language: Language): NumberRules {
  let rules = numberRulesByLanguage.get(language);
  if (!rules) {
    rules = { plurals: new Intl.PluralRules(language), counts: new Intl.NumberFormat(language) };
    numberRulesByLanguage.set(language, rules);
  }
  return rules;
}

/**
 * Loads the locale data that the first render in this language needs (see numberRules), in a task of
 * its own: called while the texts download, it keeps that wait out of the render that shows the page.
 */
export function prepareNumberRules(language: Language): void {
  setTimeout(() => numberRules(language), 0);
}

/**
 * Builds `t` for one language: nested keys with dots, {{name}} placeholders, and plural forms
 * chosen by Intl.PluralRules from a `count` parameter (key_one, key_few, key_other...), which is
 * shown grouped as the language writes numbers.
 */
export function createTranslator(language: Language, dictionary: Dictionary): Translate {
  const { plurals, counts } = numberRules(language);
  return (key, params) => {
    const count = params?.count;
    const text =
      (typeof count === 'number' ? lookup(dictionary, `${key}_${plurals.select(count)}`) ?? lookup(dictionary, `${key}_other`) : undefined) ??
      lookup(dictionary, key);
    if (text === undefined) return key;
    if (!params) return text;
    return text.replace(/\{\{\s*(\w+)\s*\}\}(\.?)/g, (placeholder, name: string, stop: string) => {
      const value = params[name];
      if (value === undefined) return placeholder;
      // A count reads as the language writes numbers (100,000 or 100 000); other numbers, a year say, stay as they are.
      return endingSentence(name === 'count' && typeof value === 'number' ? counts.format(value) : String(value), stop);
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
  /** Resolves to whether the pages' texts are there (false: their download failed). */
  loadPageTexts(): Promise<boolean>;
  /** True once the shop's texts (product page, cart) are there, which the pages' bring too; asking loads them. */
  shopTextsReady: boolean;
  loadShopTexts(): Promise<boolean>;
}

const I18nContext = createContext<I18n | null>(null);

export function I18nProvider({ initialLanguage, children }: { initialLanguage: Language; children: ReactNode }) {
  const [state, setState] = useState<{ language: Language; chunks: TextChunk[]; dictionary: Dictionary } | null>(null);
  const [failed, setFailed] = useState(false);

  /** Shows the texts of these chunks; resolves to false when they could not be downloaded. */
  const show = useCallback(async (language: Language, chunks: TextChunk[]) => {
    setFailed(false);
    try {
      setState({ language, chunks, dictionary: await loadTexts(language, chunks) });
      return true;
    } catch {
      setFailed(true);
      return false;
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
      loadPageTexts: () => (state.chunks.includes('pages') ? Promise.resolve(true) : show(state.language, [...state.chunks, 'pages'])),
      shopTextsReady: state.chunks.length > 1,
      loadShopTexts: () => (state.chunks.length > 1 ? Promise.resolve(true) : show(state.language, [...state.chunks, 'shop'])),
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
export function PageTexts({
  fallback,
  failed,
  children,
  shopOnly,
}: {
  fallback: ReactNode;
  failed: (retry: () => void) => ReactNode;
  children: ReactNode;
  /** Only the shop's texts are needed (the product page), not all the pages'. */
  shopOnly?: boolean;
}) {
  const { pageTextsReady, pageTextsFailed, loadPageTexts, shopTextsReady, loadShopTexts } = useTranslation();
  const ready = shopOnly ? shopTextsReady : pageTextsReady;
  const load = shopOnly ? loadShopTexts : loadPageTexts;
  useEffect(() => {
    if (!ready && !pageTextsFailed) void load();
  }, [ready, pageTextsFailed, load]);
  if (ready) return children;
  return pageTextsFailed ? failed(() => void load()) : fallback;
}
