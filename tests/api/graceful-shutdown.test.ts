import { existsSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { CartResponse } from '#shared/cart.js';
import { priceLines } from '#shared/pricing.js';
import type { Order } from '#shared/orders.js';
import { mailQueue, orders } from '#server/db/schema.js';
import { RECONNECT_EVENT } from '#server/live/routes.js';
import { openEventStream } from '../support/event-stream.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { startSmtpInbox, type SmtpInbox } from '../support/smtp-inbox.js';
import { ADMIN_EMAIL, addProductOverHttp, call, createShopPlace, exitOf, saveAddress, signInOverHttp, type ShopPlace } from './http-shopper.js';
import { eventually, operationKey } from './shopper.js';
import { databaseTargets } from './test-app.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * A shutdown ends within 10 s: the server gives itself 9 s and then exits with 1 (start-server.ts), so
 * an exit with 0 is one that ended in time by the server's own clock. The test's clock would count, on
 * a busy machine, the seconds the process waited for a core too.
 */
const EXITED_IN_TIME = { code: 0, signal: null };
const CUSTOMERS = 12;

/** One request of the burst, as the customer's side saw it. */
interface Outcome {
  what: string;
  startedAt: number;
  endedAt: number;
  /** The answer's status; absent when no answer came. */
  status?: number;
  /** Why no answer came: the connection was refused or cut. */
  error?: string;
}

/** What a client may see of a server that is stopping or gone, besides an answer: no connection, or one cut. */
const CONNECTION_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

async function newShop(target: 'pglite' | 'postgres'): Promise<ShopPlace> {
  const place = await createShopPlace(target, 'shop-shutdown-');
  cleanups.push(() => place.remove());
  return place;
}

async function startShop(place: ShopPlace, environment: Record<string, string>): Promise<ServerProcess> {
  const server = await startServerProcess(place.clientDir, { ...place.environment, TRUST_PROXY: 'true', ADMIN_EMAILS: ADMIN_EMAIL, ...environment });
  cleanups.push(async () => {
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    await exitOf(server.child);
  });
  return server;
}

async function inbox(options: Parameters<typeof startSmtpInbox>[0] = {}): Promise<SmtpInbox> {
  const started = await startSmtpInbox(options);
  cleanups.push(() => started.close());
  return started;
}

describe.each(databaseTargets)('a server stopped with SIGTERM [%s]', (target) => {
  it('answers the checkouts under way, sends its event streams elsewhere, and exits 0 within 10 s', { timeout: 120_000 }, async () => {
    const place = await newShop(target);
    const mail = await inbox();
    const server = await startShop(place, { SMTP_URL: mail.url });
    const { id: productId } = await addProductOverHttp(server.url, await signInOverHttp(server.url, mail, ADMIN_EMAIL, '10.77.1.1'), 'Pearl Set');

    const cookies = await Promise.all(
      Array.from({ length: CUSTOMERS }, async (_, index) => {
        const cookie = await signInOverHttp(server.url, mail, `shopper${index}@example.com`, `10.77.0.${index + 1}`);
        await saveAddress(server.url, cookie);
        return cookie;
      }),
    );
    const stream = await openEventStream(`${server.url}/api/events`, cookies[0]!);
    await stream.waitFor('ready');

    const outcomes: Outcome[] = [];
    const acknowledged: Order[] = [];
    const attempt = async (what: string, method: string, pathname: string, cookie: string, body?: object) => {
      const outcome: Outcome = { what, startedAt: Date.now(), endedAt: 0 };
      outcomes.push(outcome);
      try {
        const response = await fetch(`${server.url}${pathname}`, {
          method,
          headers: { cookie, ...(body ? { 'content-type': 'application/json' } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        });
        outcome.status = response.status;
        const answer: unknown = await response.json();
        outcome.endedAt = Date.now();
        return response.ok ? answer : undefined;
      } catch (error) {
        outcome.endedAt = Date.now();
        const cause = (error as { cause?: { code?: string } }).cause;
        outcome.error = cause?.code ?? String(error);
        return undefined;
      }
    };
    // Each customer fills the cart and checks out, again and again, until the server is gone.
    const shopUntilClosed = async (cookie: string) => {
      for (;;) {
        const added = await attempt('add to cart', 'POST', '/api/cart/operations', cookie, { operations: [{ id: operationKey(), type: 'add', productId }] });
        if (!added) return;
        const cart = (await attempt('read the cart', 'GET', '/api/cart', cookie)) as CartResponse | undefined;
        if (!cart) return;
        const placed = (await attempt('check out', 'POST', '/api/orders', cookie, {
          idempotencyKey: operationKey(),
          acceptTerms: true,
          expectedTotalMinor: priceLines(cart.items).total,
        })) as { order: Order } | undefined;
        if (!placed) return;
        acknowledged.push(placed.order);
      }
    };
    const burst = Promise.all(cookies.map(shopUntilClosed));

    // SIGTERM in the middle of the burst, once every customer has ordered about once.
    await eventually(async () => acknowledged.length >= CUSTOMERS, 60_000, 'the first orders');
    const exited = exitOf(server.child);
    const signalledAt = Date.now();
    server.child.kill('SIGTERM');
    const exit = await exited;
    await burst;

    expect(exit).toEqual(EXITED_IN_TIME);
    // No 5xx: every request was answered (2xx, or 4xx for a request a client may get wrong), or found no server.
    const answered = outcomes.filter((outcome) => outcome.status !== undefined);
    expect(answered.filter((outcome) => outcome.status! >= 500)).toEqual([]);
    expect(outcomes.filter((outcome) => outcome.status === undefined && !CONNECTION_ERRORS.has(outcome.error!))).toEqual([]);
    // Requests under way at the signal were finished, not cut.
    const finishedAfterSignal = answered.filter((outcome) => outcome.startedAt <= signalledAt && outcome.endedAt > signalledAt && outcome.status! < 300);
    expect(finishedAfterSignal.length).toBeGreaterThan(0);
    // The open stream was told to come back later, before it ended.
    await stream.waitForEnd(1_000);
    const hint = stream.events.indexOf(RECONNECT_EVENT);
    expect(hint, stream.events.join(', ')).toBeGreaterThanOrEqual(0);
    expect((stream.data[hint] as { retryMs: number }).retryMs).toBeGreaterThanOrEqual(500);
    stream.close();
    // The embedded database was closed, and its lock given back.
    if (target === 'pglite') expect(existsSync(path.join(place.dataDir, 'pglite.lock'))).toBe(false);

    // Every order the server acknowledged is there, with its total, and no other: none was placed without its answer.
    const database = await place.open();
    try {
      const stored = await database.db.select({ id: orders.id, total: orders.totalMinor }).from(orders);
      expect(new Map(stored.map((order) => [order.id, order.total]))).toEqual(new Map(acknowledged.map((order) => [order.orderId, order.pricing.total])));
    } finally {
      await database.close();
    }
  });

  it('lets the e-mail being sent finish before it exits', { timeout: 120_000 }, async () => {
    const place = await newShop(target);
    // A mail server that takes 2 s to accept each message.
    const slow = await inbox({ acceptAfterMs: 2_000 });
    const server = await startShop(place, { SMTP_URL: slow.url });
    const { id: productId } = await addProductOverHttp(server.url, await signInOverHttp(server.url, slow, ADMIN_EMAIL, '10.78.1.1'), 'Pearl Set');
    const cookie = await signInOverHttp(server.url, slow, 'patient@example.com', '10.78.0.1');
    await saveAddress(server.url, cookie);
    await call(server.url, 'POST', '/api/cart/operations', cookie, { operations: [{ id: operationKey(), type: 'add', productId }] });
    const cart = await call<CartResponse>(server.url, 'GET', '/api/cart', cookie);
    const connectionsBefore = slow.connections;
    const { order } = await call<{ order: Order }>(server.url, 'POST', '/api/orders', cookie, { idempotencyKey: operationKey(), acceptTerms: true, expectedTotalMinor: priceLines(cart.items).total });
    await eventually(async () => slow.connections > connectionsBefore, 30_000, 'the confirmation to be on its way');

    server.child.kill('SIGTERM');
    expect(await exitOf(server.child)).toEqual(EXITED_IN_TIME);

    // The order has two messages (the customer's and the admin's notice). The one being sent when the
    // signal came reached the mail server before the process ended, and the queue knows it was sent;
    // the other was given back untried, for the next start.
    const delivered = slow.messages.filter((message) => message.subject.includes(order.orderId));
    expect(delivered).toHaveLength(1);
    const database = await place.open();
    try {
      const rows = await database.db.select({ recipient: mailQueue.recipient, state: mailQueue.state, attempts: mailQueue.attempts }).from(mailQueue).where(eq(mailQueue.orderId, order.orderId));
      expect(rows.filter((row) => row.state === 'sent').map((row) => row.recipient)).toEqual(delivered[0]!.to);
      expect(rows.filter((row) => row.state !== 'sent')).toEqual([expect.objectContaining({ state: 'queued', attempts: 0 })]);
    } finally {
      await database.close();
    }
  });

  it('stops waiting for a mail server that hangs, and still exits 0 within 10 s', { timeout: 120_000 }, async () => {
    const place = await newShop(target);
    const mail = await inbox();
    const hanging = await inbox({ hang: true });
    // Signed in, with a full cart, on a server whose mail works...
    const first = await startShop(place, { SMTP_URL: mail.url });
    const { id: productId } = await addProductOverHttp(first.url, await signInOverHttp(first.url, mail, ADMIN_EMAIL, '10.79.1.1'), 'Pearl Set');
    const cookie = await signInOverHttp(first.url, mail, 'waiting@example.com', '10.79.0.1');
    await saveAddress(first.url, cookie);
    await call(first.url, 'POST', '/api/cart/operations', cookie, { operations: [{ id: operationKey(), type: 'add', productId }] });
    first.child.kill('SIGTERM');
    expect(await exitOf(first.child)).toEqual({ code: 0, signal: null });

    // ...then ordering on one whose mail server never answers.
    const second = await startShop(place, { SMTP_URL: hanging.url });
    const cart = await call<CartResponse>(second.url, 'GET', '/api/cart', cookie);
    await call(second.url, 'POST', '/api/orders', cookie, { idempotencyKey: operationKey(), acceptTerms: true, expectedTotalMinor: priceLines(cart.items).total });
    await eventually(async () => hanging.connections > 0, 30_000, 'the server to start sending');
    const exited = exitOf(second.child);
    const signalledAt = Date.now();
    second.child.kill('SIGTERM');
    expect(await exited).toEqual(EXITED_IN_TIME);
    // It waited for the send (5 s, mail-queue.ts), and no longer than its deadline.
    expect(Date.now() - signalledAt).toBeGreaterThanOrEqual(4_500);
  });
});
