import type { FastifyInstance, FastifyRequest } from 'fastify';
import { databaseErrorCode } from '#server/db/transaction.js';

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

/** Answers slower than this are logged at info, as the refused and failed ones are. */
const SLOW_ANSWER_MS = 1000;

/**
 * One line per request, once it is answered: at info for a refusal or failure (4xx, 5xx) or an
 * answer that took a second or more, at debug for the rest. Fastify's own two lines for every request
 * (received, answered) cost a fifth of the catalogue's throughput, and a shop's access log is kept by
 * the proxy in front of it; LOG_LEVEL=debug brings every request back.
 */
export function registerRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', (request, reply, done) => {
    const level = reply.statusCode >= 400 || reply.elapsedTime >= SLOW_ANSWER_MS ? 'info' : 'debug';
    // A level below the logger's is a no-op in pino, so the line costs nothing then.
    request.log[level]({ req: request, res: { statusCode: reply.statusCode }, responseTime: reply.elapsedTime }, 'request completed');
    done();
  });
}
