import { useCallback } from 'react';
import { pickText, type LocalizedText } from '#shared/catalog.js';
import { useTranslation } from './i18n.js';

/** Picks a product text in the page's language, else the other one's (for labels, messages and alt texts). */
export function useLocalize(): (text: LocalizedText) => string {
  const { language } = useTranslation();
  return useCallback((text: LocalizedText) => pickText(text, language).text, [language]);
}

/**
 * A product text in the page's language, else in the other one, then marked with its `lang` so that
 * a screen reader speaks it in the right voice.
 */
export function Localized({ text }: { text: LocalizedText }) {
  const { language } = useTranslation();
  const picked = pickText(text, language);
  return picked.language === language ? <>{picked.text}</> : <span lang={picked.language}>{picked.text}</span>;
}
