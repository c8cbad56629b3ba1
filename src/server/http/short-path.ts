import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { FastifyServerFactoryHandler } from 'fastify';
import { isPageContent, type SecurityHeaders } from './security-headers.js';

/**
 * The short path: answers that are ready in memory (the built app's hashed files, the catalogue's
 * and the pages' prepared answers while they are current) are sent straight from node:http, before
 * Fastify routes the request and runs its hooks, which cost about half of such an answer's time
 * (docs/operations/benchmark.md). Each answer is made by the same function as its Fastify route's
 * (so the two cannot differ), with the same security headers and metrics. Anything else, and every
 * request while the short path is closed (the server closing or shedding load, debug logging on),
 * goes to Fastify as before. Tests that use `inject` take the Fastify route; tests/api/short-path.test.ts
 * holds the two to the same bytes.
 */

declare module 'fastify' {
  interface FastifyInstance {
    /** Where routes add the answers they can give from memory. */
    shortPath: ShortPath;
  }
}

/** An answer ready to send; never changed once made, since the short path keeps what it sends with it. */
export interface ReadyAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Buffer;
}

/** What a short answer needs of the request: its path, query string and headers. */
interface ShortRequest {
  pathname: string;
  search: string;
  url: string;
  headers: IncomingHttpHeaders;
}

/** An answer for a GET it can give from memory, and the route pattern its metrics count it under; undefined: Fastify answers. */
export type ShortAnswer = (request: ShortRequest) => ReadyAnswer | undefined;

export type RecordRequest = (method: string, route: string, status: number, seconds: number) => void;

export class ShortPath {
  private readonly exact = new Map<string, { route: string; answer: ShortAnswer }>();
  private readonly prefixes: Array<{ prefix: string; route: string; answer: ShortAnswer }> = [];
  private readonly fallbacks: Array<{ route: string; answer: ShortAnswer }> = [];
  /** Whether the short path may answer now; set once the app is built. */
  isOpen: () => boolean = () => false;
  headers: SecurityHeaders = { every: {}, page: {} };
  record: RecordRequest = () => {};
  /**
   * The whole head of each answer sent: answers made once (prepared, built files, photos in memory)
   * are sent many times, and building their head again for each (about 15 entries for a page) was
   * a tenth of such a request's time, with the garbage it left.
   */
  private readonly heads = new WeakMap<ReadyAnswer, Record<string, string>>();

  /** Answers for this exact path. */
  add(pathname: string, route: string, answer: ShortAnswer): void {
    this.exact.set(pathname, { route, answer });
  }

  /** Answers for the paths under this prefix. */
  addPrefix(prefix: string, route: string, answer: ShortAnswer): void {
    this.prefixes.push({ prefix, route, answer });
  }

  /** Tried for any other path (the pages, whose prepared answers are known by their address). */
  addFallback(route: string, answer: ShortAnswer): void {
    this.fallbacks.push({ route, answer });
  }

  /** Answers the request when it can; false: it is Fastify's. */
  answer(request: IncomingMessage, response: ServerResponse): boolean {
    if (request.method !== 'GET' || !this.isOpen()) return false;
    const started = performance.now();
    const url = request.url ?? '/';
    const queryAt = url.indexOf('?');
    const pathname = queryAt === -1 ? url : url.slice(0, queryAt);
    const short: ShortRequest = { pathname, search: queryAt === -1 ? '' : url.slice(queryAt), url, headers: request.headers };
    const exact = this.exact.get(pathname);
    if (exact) return this.answerWith(exact, short, response, started) === 'answered';
    for (const candidate of this.prefixes) {
      const outcome = pathname.startsWith(candidate.prefix) ? this.answerWith(candidate, short, response, started) : 'passed';
      if (outcome !== 'passed') return outcome === 'answered';
    }
    for (const candidate of this.fallbacks) {
      const outcome = this.answerWith(candidate, short, response, started);
      if (outcome !== 'passed') return outcome === 'answered';
    }
    return false;
  }

  /** Answers with this candidate when it has an answer; one that fails leaves the request to Fastify, whose error handler logs what went wrong. */
  private answerWith({ route, answer }: { route: string; answer: ShortAnswer }, request: ShortRequest, response: ServerResponse, started: number): 'answered' | 'passed' | 'failed' {
    let ready: ReadyAnswer | undefined;
    try {
      ready = answer(request);
    } catch {
      return 'failed';
    }
    if (!ready) return 'passed';
    this.send(response, ready);
    this.record('GET', route, ready.status, (performance.now() - started) / 1000);
    return 'answered';
  }

  private send(response: ServerResponse, answer: ReadyAnswer): void {
    let head = this.heads.get(answer);
    if (!head) {
      const { headers, body } = answer;
      const page = isPageContent(headers['content-type']) ? this.headers.page : undefined;
      head = { ...this.headers.every, ...page, ...headers, ...(body ? { 'content-length': String(body.length) } : {}) };
      this.heads.set(answer, head);
    }
    response.writeHead(answer.status, head);
    response.end(answer.body);
  }
}

/**
 * The query string as a route reads it, for a short answer; undefined for one that Fastify might read
 * otherwise (a name given twice, which it reads as a list; a malformed escape): Fastify answers those.
 */
export function shortPathQuery(search: string): URLSearchParams | undefined {
  if (search.includes('%')) {
    try {
      decodeURIComponent(search);
    } catch {
      return undefined;
    }
  }
  const params = new URLSearchParams(search);
  const names = [...params.keys()];
  return new Set(names).size === names.length ? params : undefined;
}

/**
 * Fastify's server factory: node:http's server as Fastify would make it (its timeouts), whose
 * requests meet the short path first.
 */
export function shortPathServerFactory(shortPath: ShortPath) {
  return (handler: FastifyServerFactoryHandler, options: { http?: ServerOptions; keepAliveTimeout?: number; requestTimeout?: number; connectionTimeout?: number }): Server => {
    const server = createServer(options.http ?? {}, (request, response) => {
      if (!shortPath.answer(request, response)) handler(request, response);
    });
    if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
    if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
    if (options.connectionTimeout !== undefined) server.setTimeout(options.connectionTimeout);
    return server;
  };
}
