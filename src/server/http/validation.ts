import type { z } from 'zod';
import { HttpError } from './errors.js';

/** Parses request input with a shared schema; the first failing rule becomes a 400 with its message key. */
export function parseInput<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
  throw new HttpError(400, 'bad_request', `${where}${issue?.message ?? 'Invalid input'}`);
}
