import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter, Histogram } from 'prom-client';
import type { ShopMetrics } from '#server/metrics/shop-metrics.js';
import { errorBody } from './errors.js';
import type { RecordRequest } from './short-path.js';

/*
 * The HTTP side of the metrics: every request counted and timed by its route's pattern, and GET
 * /metrics, which serves them with what the rest of the shop counts (metrics/shop-metrics.ts).
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route answers with an event stream, which stays open: its time is no response time. */
    eventStream?: boolean;
  }
}

/** Requests no route matched: their paths are whatever a client sent, so they share one label. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Counts and times every request, and serves GET /metrics: with the bearer token when one is set, else
 * to this host only. Answers how to count a request answered on the short path (short-path.ts).
 */
export function registerMetrics(app: FastifyInstance, metrics: ShopMetrics, { token }: { token: string | undefined }): RecordRequest {
  const requests = new Counter({ name: 'http_requests_total', help: 'HTTP requests answered, by route pattern.', labelNames: ['method', 'route', 'status'] as const, registers: [metrics.registry] });
  const requestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route pattern (event streams apart, which stay open).',
    labelNames: ['method', 'route'] as const,
    registers: [metrics.registry],
  });

  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
    requests.inc({ method: request.method, route, status: String(reply.statusCode) });
    if (!request.routeOptions.config.eventStream) {
      requestDuration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    }
  });

  app.get('/metrics', async (request, reply) => {
    if (token === undefined ? !isFromThisHost(request) : !bearerTokenMatches(request, token)) {
      if (token === undefined) return reply.callNotFound();
      return reply.status(401).header('www-authenticate', 'Bearer').send(errorBody('unauthorized', 'The metrics need their bearer token.'));
    }
    const { contentType, body } = await metrics.exposition();
    return reply.type(contentType).header('cache-control', 'no-store').send(body);
  });
  // The short path's few routes and statuses, each with its series found once rather than from its labels at every request.
  const series = new Map<string, { counted: { inc(): void }; timed: { observe(seconds: number): void } }>();
  return (method, route, status, seconds) => {
    const key = `${method} ${status} ${route}`;
    let found = series.get(key);
    if (!found) {
      found = { counted: requests.labels(method, route, String(status)), timed: requestDuration.labels(method, route) };
      series.set(key, found);
    }
    found.counted.inc();
    found.timed.observe(seconds);
  };
}

/** Compares digests, which have one length, so that the time taken says nothing about the token. */
function bearerTokenMatches(request: FastifyRequest, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  if (!match) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(match[1]!), digest(token));
}

const isLoopback = (address: string) => {
  const plain = address.trim().replace(/^::ffff:/i, '');
  return plain === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(plain);
};

/**
 * Whether the request came from this host and from nobody behind it. A reverse proxy on this host
 * connects from the loopback address for every client it serves, so an address it names (it adds
 * the client's to X-Forwarded-For) must be a loopback one too, whether or not TRUST_PROXY lets the
 * shop believe those headers otherwise: a header can only narrow who is let in here. A proxy that
 * names nobody cannot be told from a local client, which is why docs/operations/metrics.md says to set METRICS_TOKEN
 * or keep /metrics from the proxy.
 */
function isFromThisHost(request: FastifyRequest): boolean {
  const { headers } = request;
  const named = [headers['x-forwarded-for'], headers['x-real-ip']].flat().flatMap((value) => value?.split(',') ?? []);
  // The RFC 7239 header names clients in a syntax of its own that the shop reads nowhere else.
  if (headers.forwarded !== undefined) return false;
  return [request.socket.remoteAddress ?? '', ...named].every(isLoopback);
}
