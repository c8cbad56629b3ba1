import type { ServerOptions } from 'node:http';

/**
 * How long the HTTP server waits for a client. None of them cuts a long answer: Node's request and
 * header timeouts cover only the receiving of a request, so an open event stream (/api/events) or a
 * backup being downloaded outlives them, and the idle timeout is reset by every byte either way.
 */
export interface ServerTimeouts {
  /**
   * The whole request, headers and body, must arrive within this (REQUEST_TIMEOUT_SECONDS, 300 s):
   * a 10 MB photo upload on a 0.5 Mbit/s line takes about 170 s.
   */
  requestMs: number;
  /**
   * The headers must arrive within this; a client that sends them a byte at a time (slowloris) holds
   * a socket no longer. Node's default is 60 s; a browser sends them at once.
   */
  headersMs: number;
  /**
   * A connection on which nothing moves either way for this long is closed. Longer than the event
   * streams' 25 s heartbeat and than the server may take to prepare a backup before its first byte.
   */
  idleMs: number;
  /**
   * A kept-alive connection waits this long for its next request. Fastify's 72 s, longer than the
   * 60 s after which the usual reverse proxies (nginx, AWS load balancers) drop an idle upstream
   * connection, so that the proxy, not the shop, closes it and never sends a request on a socket the
   * shop is closing.
   */
  keepAliveMs: number;
  /** How often Node checks the request and header timeouts (its default is 30 s); tests shorten it. */
  checkEveryMs: number;
}

export const DEFAULT_SERVER_TIMEOUTS: Omit<ServerTimeouts, 'requestMs'> = { headersMs: 30_000, idleMs: 300_000, keepAliveMs: 72_000, checkEveryMs: 5_000 };

/** The timeouts as Fastify's options (Node's own for the headers and the checks). */
export function serverTimeoutOptions(timeouts: ServerTimeouts): { connectionTimeout: number; requestTimeout: number; keepAliveTimeout: number; http: ServerOptions } {
  return {
    connectionTimeout: timeouts.idleMs,
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    // Node refuses a header timeout longer than the request's.
    http: { headersTimeout: Math.min(timeouts.headersMs, timeouts.requestMs), requestTimeout: timeouts.requestMs, connectionsCheckingInterval: timeouts.checkEveryMs },
  };
}
