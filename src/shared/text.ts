import { z } from 'zod';
import { isStorableText } from './storable-text.js';

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
