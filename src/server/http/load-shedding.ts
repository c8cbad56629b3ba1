import fastifyUnderPressure from '@fastify/under-pressure';
import type { FastifyInstance } from 'fastify';
import { errorBody } from './errors.js';

/** @fastify/under-pressure's own sampling interval. */
const DEFAULT_SAMPLE_INTERVAL_MS = 1_000;

/** What a refused client is told to wait before it asks again. */
const RETRY_AFTER_SECONDS = 5;

/**
 * Requests answered even under pressure: /health says the process is alive (an orchestrator that
 * restarted a busy process would only move the load), /ready says itself that the process is busy
 * (http/probes.ts), and /metrics shows how busy.
 */
const ANSWERED_UNDER_PRESSURE = new Set(['/health', '/ready', '/metrics']);

export interface LoadSheddingOptions {
  /** The mean event-loop delay, in ms, past which the process is overloaded; 0: never. */
  maxEventLoopDelayMs: number;
  /** How often the delay is measured (1 s); tests shorten it. */
  sampleIntervalMs?: number;
}

/**
 * When the event loop falls so far behind that answers come late anyway, a new request is refused at
 * once with 503 and Retry-After, so that the process works off what it holds instead of queueing
 * more, and /ready answers 503 so that a load balancer sends traffic elsewhere.
 * @fastify/under-pressure measures the delay: the mean over each sample, so that one long task (a
 * heavy query on the embedded database) does not trip it, only a loop that stays behind. The refusal
 * is answered here rather than by the plugin's own check, so that it has the API's error shape and is
 * not logged as a failure of the shop's. Registered before the routes, so that a refused request
 * costs little. Returns whether the process is overloaded now.
 */
export async function registerLoadShedding(app: FastifyInstance, { maxEventLoopDelayMs, sampleIntervalMs }: LoadSheddingOptions): Promise<() => boolean> {
  const sampleMs = sampleIntervalMs ?? DEFAULT_SAMPLE_INTERVAL_MS;
  await app.register(fastifyUnderPressure, { sampleInterval: sampleMs });
  // The start (compiling the embedded database, migrating, reading the catalogue) keeps the loop busy
  // by design; the samples taken then say nothing about the load, so they are let pass.
  let measuredFrom = Infinity;
  app.addHook('onReady', async () => {
    measuredFrom = Date.now() + 2 * sampleMs;
  });
  // A sample in which the loop never turned reads as an infinite delay. Once, that is one long task,
  // which shows, measured, in the next sample; only a loop that stays behind should refuse requests.
  // But a loop blocked so steadily that no measurement lands in any sample reads as infinite sample
  // after sample: infinite for longer than two samples is a loop that stays behind.
  let unmeasuredSince: number | null = null;
  const overloaded = () => {
    if (maxEventLoopDelayMs === 0 || Date.now() <= measuredFrom) return false;
    const delay = app.memoryUsage().eventLoopDelay;
    if (Number.isFinite(delay)) {
      unmeasuredSince = null;
      return delay > maxEventLoopDelayMs;
    }
    unmeasuredSince ??= Date.now();
    return Date.now() - unmeasuredSince > 2 * sampleMs;
  };
  if (maxEventLoopDelayMs === 0) return overloaded;

  let refusing = false;
  app.addHook('onRequest', async (request, reply) => {
    if (!overloaded()) {
      refusing = false;
      return undefined;
    }
    if (ANSWERED_UNDER_PRESSURE.has(request.url.split('?')[0]!)) return undefined;
    // Once per overloaded spell, not once per refused request, which would add to the load.
    if (!refusing) app.log.warn({ eventLoopDelayMs: Math.round(app.memoryUsage().eventLoopDelay), maxEventLoopDelayMs }, 'Overloaded: refusing new requests until the event loop catches up');
    refusing = true;
    return reply
      .status(503)
      .header('retry-after', String(RETRY_AFTER_SECONDS))
      .header('cache-control', 'no-store')
      .send(errorBody('unavailable', 'The shop is busy; try again in a few seconds.', { retryAfterSeconds: RETRY_AFTER_SECONDS }));
  });
  return overloaded;
}
