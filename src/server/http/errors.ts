import type { FastifyError, FastifyInstance } from 'fastify';
import type { ApiErrorBody, ApiErrorCode } from '#shared/api-errors.js';

/** An error whose status, code and message are meant for the client. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ApiErrorCode,
    message: string,
    /** What the client needs besides the code to explain the error, such as the lines short of stock. */
    readonly details: Omit<ApiErrorBody['error'], 'code' | 'message'> = {},
  ) {
    super(message);
  }
}

export function errorBody(code: ApiErrorCode, message: string, details: Omit<ApiErrorBody['error'], 'code' | 'message'> = {}): ApiErrorBody {
  return { error: { code, message, ...details } };
}

const codeForStatus: Readonly<Record<number, ApiErrorCode>> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  503: 'unavailable',
};

/**
 * Every error leaves the API as `{ error: { code, message } }`; bad input is a 4xx, never a 500.
 * Every 5xx is logged once, with its cause, under the request's id.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    const status = error instanceof HttpError ? error.statusCode : error.validation ? 400 : (error.statusCode ?? 500);
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    if (error instanceof HttpError) {
      if (error.details.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.details.retryAfterSeconds));
      return reply.status(error.statusCode).send(errorBody(error.code, error.message, error.details));
    }
    const code = codeForStatus[status];
    if (status < 500 && code) {
      return reply.status(status).send(errorBody(code, error.message));
    }
    return reply.status(status >= 500 ? status : 500).send(errorBody('internal', 'Something went wrong on our side.'));
  });
}
