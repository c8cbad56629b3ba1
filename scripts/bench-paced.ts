/**
 * The benchmark's load at a fixed rate: requests sent evenly spaced in time, on a pool of at most
 * so many keep-alive connections, each request's latency counted from the moment it was due to be
 * sent (so a request that waited for a free connection, because the shop was slow, counts that wait).
 *
 * autocannon's own rate (`overallRate`) is a quota per connection per second: at each second's start
 * every connection sends its share back to back, then waits for the next second. At 50 requests a
 * second on 50 connections that is one burst of 50 a second, and a catalogue answered in 1 ms alone
 * measured a median of 42 ms; "70% of the maximum" was the maximum for most of each second and
 * nothing for the rest of it.
 */
import { Agent, request as httpRequest } from 'node:http';
import type autocannon from 'autocannon';

export interface PacedResult {
  /** Answers with a 2xx status. */
  answered: number;
  /** From the first request due to the last answer, in seconds. */
  seconds: number;
  /** The 2xx answers' latencies, in ms. */
  latenciesMs: number[];
  /** Answers by status, 2xx included. */
  statuses: Record<string, number>;
  /** Requests without an answer within 10 s of their sending. */
  timeouts: number;
  /** Requests whose connection failed. */
  errors: number;
}

const TIMEOUT_MS = 10_000;

/** Sends `rate` requests a second for `seconds` to the URL, each built by the request's setupRequest as autocannon would build it. */
export async function pacedLoad(url: string, rate: number, seconds: number, connections: number, template: autocannon.Request): Promise<PacedResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const result: PacedResult = { answered: 0, seconds: 0, latenciesMs: [], statuses: {}, timeouts: 0, errors: 0 };
  const total = Math.max(1, Math.round(rate * seconds));
  const intervalMs = 1000 / rate;
  const started = performance.now();
  let lastAnswer = started;
  const answers: Array<Promise<void>> = [];

  const send = (dueAt: number) =>
    new Promise<void>((resolve) => {
      const built = typeof template.setupRequest === 'function' ? template.setupRequest({ ...template }, {}) : template;
      const body = typeof built.body === 'string' || Buffer.isBuffer(built.body) ? built.body : undefined;
      let settled = false;
      /** Counts the request's end once: its answer, no answer within TIMEOUT_MS of sending, or a failed connection. */
      const settle = (count?: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        count?.();
        resolve();
      };
      const request = httpRequest(new URL(built.path ?? '/', url), { agent, method: built.method ?? 'GET', headers: built.headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', () => settle(() => result.errors++));
        response.on('end', () =>
          settle(() => {
            lastAnswer = performance.now();
            const status = response.statusCode ?? 0;
            result.statuses[status] = (result.statuses[status] ?? 0) + 1;
            if (status >= 200 && status < 300) {
              result.answered++;
              result.latenciesMs.push(lastAnswer - dueAt);
            }
            if (typeof template.onResponse === 'function') template.onResponse(status, Buffer.concat(chunks).toString('utf8'), {}, response.headers);
          }),
        );
      });
      // From the sending, whether or not a connection was free: a request queued for one is unanswered too.
      const timer = setTimeout(() => {
        settle(() => result.timeouts++);
        request.destroy();
      }, TIMEOUT_MS);
      request.on('error', () => settle(() => result.errors++));
      // A connection closed mid-answer ends the request without an error or the answer's end.
      request.on('close', () => settle(() => result.errors++));
      request.end(body);
    });

  let sent = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const elapsed = performance.now() - started;
      while (sent < total && sent * intervalMs <= elapsed) answers.push(send(started + sent++ * intervalMs));
      if (sent < total) setTimeout(tick, Math.max(0, sent * intervalMs - (performance.now() - started)));
      else resolve();
    };
    tick();
  });
  await Promise.all(answers);
  agent.destroy();
  result.seconds = (lastAnswer - started) / 1000;
  return result;
}
