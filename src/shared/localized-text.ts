/** The languages a product's texts are written in, the interface's own. */
export const TEXT_LANGUAGES = ['en', 'bg'] as const;
export type TextLanguage = (typeof TEXT_LANGUAGES)[number];

/** A text in English and Bulgarian; either may be empty. */
export type LocalizedText = Record<TextLanguage, string>;

/**
 * The text to show in a language: that language's, else the other one's, with the language it is
 * written in (so that a page can mark it with `lang`).
 */
export function pickText(text: LocalizedText, language: TextLanguage): { text: string; language: TextLanguage } {
  if (text[language]) return { text: text[language], language };
  const other = language === 'en' ? 'bg' : 'en';
  return text[other] ? { text: text[other], language: other } : { text: '', language };
}
