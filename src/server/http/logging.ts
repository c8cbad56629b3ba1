import type { FastifyRequest } from 'fastify';
import { databaseErrorCode } from '../db/transaction.js';

/**
 * What the log keeps of an error: its kind, message and stack, the database's code and the failing
 * statement, never the values a query carried (names, streets, phones, e-mails) nor a database
 * error's detail, which repeats them.
 */
export function serializeError(error: unknown): SerializedError {
  if (!(error instanceof Error)) return { type: typeof error, message: String(error), stack: '' };
  // Drizzle's message is "Failed query: <sql>\nparams: <values>"; the values must not reach the log.
  const message = error.message.split('\nparams:')[0]!;
  const stack = error.stack?.replace(error.message, message) ?? '';
  const serialized: SerializedError = { type: error.name, message, stack };
  const code = databaseErrorCode(error);
  if (code) serialized.code = code;
  if (error.cause !== undefined) serialized.cause = serializeCause(error.cause);
  return serialized;
}

interface SerializedError {
  type: string;
  message: string;
  stack: string;
  [key: string]: unknown;
}

function serializeCause(cause: unknown): SerializedError {
  const fields = cause as { message?: unknown; code?: unknown; constraint?: unknown; table?: unknown; routine?: unknown };
  const serialized = serializeError(cause);
  // A data exception quotes the value it could not take, as in `invalid input syntax for type uuid: "..."`.
  if (typeof fields.code === 'string' && fields.code.startsWith('22')) {
    serialized.message = serialized.message.replace(/"[^"]*"/g, '"…"');
    serialized.stack = '';
  }
  for (const key of ['constraint', 'table', 'routine'] as const) if (typeof fields[key] === 'string') serialized[key] = fields[key];
  return serialized;
}

/** A request as the log keeps it: no query string (sign-in tokens, mailbox keys, searched e-mails), no client address. */
export function serializeRequest(request: FastifyRequest): { method: string; url: string } {
  return { method: request.method, url: request.url.split('?')[0]! };
}
