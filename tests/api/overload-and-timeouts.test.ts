import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '#server/config.js';
import { openEventStream } from '../support/event-stream.js';
import { createTestApp, databaseTargets, type TestApp, type TestAppOptions } from './test-app.js';

const opened: TestApp[] = [];
afterEach(async () => {
  for (const testApp of opened.splice(0)) await testApp.close();
});

async function startApp(target: 'pglite' | 'postgres', environment: Record<string, string>, options: TestAppOptions): Promise<TestApp> {
  const testApp = await createTestApp(target, environment, options);
  opened.push(testApp);
  return testApp;
}

async function listen(testApp: TestApp): Promise<{ host: string; port: number }> {
  await testApp.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = testApp.app.server.address() as AddressInfo;
  return { host: '127.0.0.1', port };
}

/** Busies the event loop in slices of `sliceMs` (letting timers and requests in between) until stopped. */
function saturateEventLoop(sliceMs: number): { stop(): Promise<void> } {
  let running = true;
  const done = (async () => {
    while (running) {
      const until = Date.now() + sliceMs;
      while (Date.now() < until) {
        // busy, as a CPU-bound task would keep the process
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await done;
    },
  };
}

/** Sends `written` on a raw connection and never more; resolves with what the server answered once it closed the connection. */
function stallingClient(address: { host: string; port: number }, written: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(address, () => socket.write(written));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
  });
}

/** Short timeouts, checked often, so that a stalled client is cut within the test. */
const SHORT_TIMEOUTS = { requestMs: 1_000, headersMs: 1_000, idleMs: 1_000, checkEveryMs: 100 } satisfies TestAppOptions['timeouts'];

describe.each(databaseTargets)('an overloaded server [%s]', (target) => {
  it('is not ready and refuses new requests with 503 and Retry-After, but stays alive, until its event loop catches up', { timeout: 60_000 }, async () => {
    const { app } = await startApp(target, { MAX_EVENT_LOOP_DELAY_MS: '100' }, { pressureSampleMs: 100 });
    expect((await app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);

    // A loop blocked 300 ms at a time: each request waits that long to be seen.
    const pressure = saturateEventLoop(300);
    try {
      const deadline = Date.now() + 20_000;
      let ready = await app.inject({ method: 'GET', url: '/ready' });
      while (ready.statusCode === 200 && Date.now() < deadline) {
        // A macrotask between the probes, or PGlite's answers, all microtasks, would never let the loop turn.
        await new Promise((resolve) => setTimeout(resolve, 20));
        ready = await app.inject({ method: 'GET', url: '/ready' });
      }
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'unavailable', reason: 'overloaded' });
      const [products, health] = await Promise.all(['/api/products', '/health'].map((url) => app.inject({ method: 'GET', url })));
      expect(products!.statusCode, products!.body).toBe(503);
      expect(products!.headers['retry-after']).toBe('5');
      expect(products!.json()).toEqual({ error: { code: 'unavailable', message: expect.any(String), retryAfterSeconds: 5 } });
      expect(health!.statusCode).toBe(200);
    } finally {
      await pressure.stop();
    }

    const deadline = Date.now() + 20_000;
    while ((await app.inject({ method: 'GET', url: '/ready' })).statusCode !== 200) {
      if (Date.now() > deadline) throw new Error('Still not ready 20 s after the pressure ended');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const products = await app.inject({ method: 'GET', url: '/api/products' });
    expect(products.statusCode, products.body).toBe(200);
  });

  it('sheds nothing by default while its event loop is merely busy', { timeout: 60_000 }, async () => {
    // The shop's default (the test app turns shedding off unless told, as the shop does).
    const { app } = await startApp(target, { MAX_EVENT_LOOP_DELAY_MS: String(loadConfig({}).maxEventLoopDelayMs) }, { pressureSampleMs: 100 });
    const pressure = saturateEventLoop(300);
    try {
      // Measured under the pressure: past the start's grace (two samples) and with a delay well above the usual.
      const started = Date.now();
      while ((app.memoryUsage().eventLoopDelay <= 100 || Date.now() - started < 500) && Date.now() - started < 20_000) await new Promise((resolve) => setImmediate(resolve));
      expect(app.memoryUsage().eventLoopDelay).toBeGreaterThan(100);
      expect((await app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
      const products = await app.inject({ method: 'GET', url: '/api/products' });
      expect(products.statusCode, products.body).toBe(200);
    } finally {
      await pressure.stop();
    }
  });
});

describe.each(databaseTargets)('a client that stalls [%s]', (target) => {
  it('is cut off when its headers do not arrive in time', { timeout: 30_000 }, async () => {
    // The idle timeout is the default's, long: it is the header timeout that cuts the client.
    const testApp = await startApp(target, {}, { timeouts: { ...SHORT_TIMEOUTS, headersMs: 1_000, requestMs: 20_000, idleMs: 60_000 } });
    const answer = await stallingClient(await listen(testApp), 'GET /api/products HTTP/1.1\r\nHost: shop.test\r\nAccept: appl');
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('is cut off when its body does not arrive in time', { timeout: 30_000 }, async () => {
    const testApp = await startApp(target, {}, { timeouts: { ...SHORT_TIMEOUTS, idleMs: 60_000 } });
    const answer = await stallingClient(
      await listen(testApp),
      'POST /api/cart/operations HTTP/1.1\r\nHost: shop.test\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"operations": [',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });
});

describe.each(databaseTargets)('an event stream [%s]', (target) => {
  it('stays open long past the request and idle timeouts', { timeout: 30_000 }, async () => {
    const testApp = await startApp(target, {}, { timeouts: SHORT_TIMEOUTS, liveHeartbeatMs: 200 });
    const { host, port } = await listen(testApp);
    const stream = await openEventStream(`http://${host}:${port}/api/events`, null);
    try {
      await stream.waitFor('ready');
      // Fifteen heartbeats of 200 ms: three times the request timeout, checked every 100 ms.
      const deadline = Date.now() + 20_000;
      while (stream.keepAlives < 15 && !stream.ended && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(stream.ended).toBe(false);
      expect(stream.keepAlives).toBeGreaterThanOrEqual(15);
    } finally {
      stream.close();
    }
  });
});
