// Kept apart from text.ts, which loads the validation library: the catalogue's address parsing needs only this.

/**
 * NUL, which PostgreSQL cannot keep in text, and half of a surrogate pair, which is no character
 * at all and would be stored as a replacement sign.
 */
// eslint-disable-next-line no-control-regex -- NUL is one of the characters this is meant to find
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const isStorableText = (text: string): boolean => !UNSTORABLE.test(text);

const EVERY_UNSTORABLE = new RegExp(UNSTORABLE.source, 'g');

/** The text without what isStorableText refuses, for input read leniently (a search taken from an address). */
export const storablePart = (text: string): string => text.replace(EVERY_UNSTORABLE, '');
