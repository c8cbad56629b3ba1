import { z } from 'zod';

/**
 * NUL, which PostgreSQL cannot keep in text, and half of a surrogate pair, which is no character
 * at all and would be stored as a replacement sign.
 */
// eslint-disable-next-line no-control-regex -- NUL is one of the characters this is meant to find
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const isStorableText = (text: string): boolean => !UNSTORABLE.test(text);

/** The text without what isStorableText refuses: for text a person did not type, such as another shop's export. */
export const storableText = (text: string): string => text.replace(new RegExp(UNSTORABLE.source, 'g'), '');

/**
 * Text as people type it: trimmed, at most `max` characters, and storable, each rule with its
 * message key; `missing` is the key for a required field that is absent or empty.
 */
export function typedText(max: number, keys: { tooLong: string; invalid: string; missing?: string }) {
  const text = z.string({ error: keys.missing ?? keys.invalid }).trim();
  return (keys.missing ? text.min(1, { error: keys.missing }) : text)
    .max(max, { error: keys.tooLong })
    .refine(isStorableText, { error: keys.invalid });
}
