import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RECONNECT_EVENT } from '#server/live/routes.js';
import { openEventStream } from '../support/event-stream.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { createShopPlace, exitOf, type ShopPlace } from './http-shopper.js';
import { eventually } from './shopper.js';
import { databaseTargets } from './test-app.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * Whether the server closed in order, as it logs when it does: its close ended by itself, and not by
 * the deadline it gives itself (start-server.ts), which exits with the same code. The log, not a clock,
 * tells the two apart: on a busy machine an orderly close may take longer than an idle one's deadline.
 */
const closedInOrder = (log: string) => /"msg":"Closed in \d+ ms"/.test(log) && !log.includes('Still closing after');

/**
 * A fault that nothing catches, made in the server process when it receives SIGUSR2: an exception
 * thrown from an event handler, or a promise rejected with no one to handle it, as FAULT says. The
 * file FAULT_MARK tells the test that the fault is happening.
 */
const FAULT_ON_SIGUSR2 = `
const { writeFileSync } = await import('node:fs');
process.on('SIGUSR2', () => {
  writeFileSync(process.env.FAULT_MARK, '');
  if (process.env.FAULT === 'rejection') void Promise.reject(new Error('A rejection no one handles'));
  else throw new Error('An exception no one catches');
});
`;

interface FaultyShop {
  place: ShopPlace;
  server: ServerProcess;
  /** Makes the fault happen in the server process, and resolves once it does. */
  fault(): Promise<void>;
}

async function startShop(target: 'pglite' | 'postgres', fault: 'exception' | 'rejection'): Promise<FaultyShop> {
  const place = await createShopPlace(target, 'shop-fault-');
  cleanups.push(() => place.remove());
  const mark = path.join(place.clientDir, 'fault-happened');
  const server = await startServerProcess(place.clientDir, { ...place.environment, LOG_LEVEL: 'info', FAULT: fault, FAULT_MARK: mark }, 60_000, FAULT_ON_SIGUSR2);
  cleanups.push(async () => {
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    await exitOf(server.child);
  });
  return {
    place,
    server,
    async fault() {
      server.child.kill('SIGUSR2');
      // A bound for the report only: on a busy machine the signal may wait seconds for the process.
      await eventually(async () => existsSync(mark), 60_000, 'the fault');
    },
  };
}

/**
 * A request under way: its headers and half its body sent, the rest when `finish` is called, which
 * resolves with the server's answer once the server has closed the connection.
 */
async function requestUnderWay(url: string): Promise<{ finish(): Promise<string> }> {
  const { hostname, port } = new URL(url);
  const body = JSON.stringify({ operations: [] });
  const socket = connect({ host: hostname, port: Number(port) });
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let answer = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (answer += chunk));
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(answer)));
  socket.write(`POST /api/cart/operations HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`);
  return {
    finish() {
      socket.end(body.slice(5));
      return closed;
    },
  };
}

/** The status of a raw HTTP answer. */
const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d{3}) /.exec(answer)?.[1]);

describe.each(databaseTargets)('a server with an error no one handled [%s]', (target) => {
  it.each(['exception', 'rejection'] as const)('closes as on SIGTERM after an uncaught %s, and exits with 1', { timeout: 120_000 }, async (fault) => {
    const { place, server, fault: makeFault } = await startShop(target, fault);
    const request = await requestUnderWay(server.url);
    // By the time the stream is ready, the server has long read the request's headers.
    const stream = await openEventStream(`${server.url}/api/events`, null);
    await stream.waitFor('ready');

    const exited = exitOf(server.child);
    await makeFault();
    // It closed as it does on SIGTERM: the open stream was sent elsewhere...
    await stream.waitForEnd(30_000);
    expect(stream.events).toContain(RECONNECT_EVENT);
    stream.close();
    // ...the request under way was answered...
    const answer = await request.finish();
    expect(statusOf(answer), answer).toBeLessThan(500);
    // ...and then it ended. Exit code 1, not a crash's (a signal, or Node's 7 for a failing handler): a supervisor restarts it, and knows it failed.
    expect(await exited).toEqual({ code: 1, signal: null });
    expect(closedInOrder(server.log()), server.log()).toBe(true);
    // The embedded database was closed, and its lock given back.
    if (target === 'pglite') expect(existsSync(path.join(place.dataDir, 'pglite.lock'))).toBe(false);
  });

  it('finishes closing after an error thrown while it closes, and exits with 1', { timeout: 120_000 }, async () => {
    const { place, server, fault } = await startShop(target, 'exception');
    // The close waits for this request, so the error comes while it closes.
    const request = await requestUnderWay(server.url);
    const stream = await openEventStream(`${server.url}/api/events`, null);
    await stream.waitFor('ready');

    const exited = exitOf(server.child);
    server.child.kill('SIGTERM');
    // The stream's last words show that the close has begun.
    await stream.waitForEnd(30_000);
    expect(stream.events).toContain(RECONNECT_EVENT);
    stream.close();
    await fault();
    const answer = await request.finish();
    expect(statusOf(answer), answer).toBeLessThan(500);
    expect(await exited).toEqual({ code: 1, signal: null });
    expect(closedInOrder(server.log()), server.log()).toBe(true);
    if (target === 'pglite') expect(existsSync(path.join(place.dataDir, 'pglite.lock'))).toBe(false);
  });
});
