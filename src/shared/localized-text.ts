// The types of texts in both languages, apart from catalog.ts so that the product model's rules can
// use them without importing the catalogue (which imports the model).

/** The languages a product's texts are written in, the interface's own. */
export type TextLanguage = 'en' | 'bg';

/** A text in English and Bulgarian; either may be empty. */
export type LocalizedText = Record<TextLanguage, string>;
