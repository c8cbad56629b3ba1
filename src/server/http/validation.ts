import type { z } from 'zod';
import { isStorableText } from '#shared/text.js';
import { HttpError } from './errors.js';

/**
 * The shape of an i18n key (`checkout.validation.cityRequired`). The shared schemas give their rules keys;
 * a rule without one (an id's format, a query's enum) fails with zod's English text, which names no key.
 */
const MESSAGE_KEY = /^[a-z][A-Za-z0-9]*(?:\.[A-Za-z0-9_-]+)+$/;

/**
 * A 400 for input that breaks a rule: the body names the field (the input's path, when the rule belongs to
 * one) and the rule's message key; the English message says the same for logs and API users.
 */
export function invalidInput(field: string | undefined, message: string): HttpError {
  const messageKey = MESSAGE_KEY.test(message) ? message : undefined;
  return new HttpError(400, 'bad_request', field ? `${field}: ${message}` : message, {
    ...(field ? { field } : {}),
    ...(messageKey ? { messageKey } : {}),
  });
}

/** Parses request input with a shared schema; the first failing rule becomes a 400 with its field and message key. */
export function parseInput<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw invalidInput(issue?.path.length ? issue.path.join('.') : undefined, issue?.message ?? 'Invalid input');
}

/** A uuid as PostgreSQL writes it: a text that is not one names no uuid column's row (and asking would fail). */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The longest id any record has; a longer one in a path names nothing. */
const MAX_ID_LENGTH = 100;

/** An id taken from a path: one that no record could have (too long, unstorable text) is simply not found. */
export function pathId(value: string, notFoundMessage: string): string {
  if (value.length > MAX_ID_LENGTH || !isStorableText(value)) throw new HttpError(404, 'not_found', notFoundMessage);
  return value;
}

/** A uuid taken from a path: anything else names no record, and is not found. */
export function pathUuid(value: string, notFoundMessage: string): string {
  if (!UUID.test(value)) throw new HttpError(404, 'not_found', notFoundMessage);
  return value;
}
