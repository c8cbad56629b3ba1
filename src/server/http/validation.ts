import type { z } from 'zod';
import { isStorableText } from '../../shared/text.js';
import { HttpError } from './errors.js';

/** Parses request input with a shared schema; the first failing rule becomes a 400 with its message key. */
export function parseInput<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
  throw new HttpError(400, 'bad_request', `${where}${issue?.message ?? 'Invalid input'}`);
}

/** The longest id any record has; a longer one in a path names nothing. */
const MAX_ID_LENGTH = 100;

/** An id taken from a path: one that no record could have (too long, unstorable text) is simply not found. */
export function pathId(value: string, notFoundMessage: string): string {
  if (value.length > MAX_ID_LENGTH || !isStorableText(value)) throw new HttpError(404, 'not_found', notFoundMessage);
  return value;
}
