import type { ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CartResponse } from '#shared/cart.js';
import { priceLines } from '#shared/pricing.js';
import type { Order } from '#shared/orders.js';
import { openDatabase } from '#server/db/client.js';
import { products } from '#server/db/schema.js';
import { seedDataDir, startServerProcess, type ServerProcess } from '../support/server-process.js';
import { signInLinkIn, startSmtpInbox, type SmtpInbox } from '../support/smtp-inbox.js';
import { sofia } from './sample-data.js';
import { tokenOf } from './sign-in.js';
import { eventually, operationKey } from './shopper.js';
import { createPostgresDatabase, databaseTargets, TEST_INDEX_HTML } from './test-app.js';
import { testProduct } from './test-products.js';

const running: ChildProcess[] = [];
const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const child of running.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A real server process, started from the sources, on the given database and mail server. */
async function startShop({ TEST_CLIENT_DIR: clientDir, ...environment }: Record<string, string>): Promise<ServerProcess> {
  const shop = await startServerProcess(clientDir!, environment, 30_000);
  running.push(shop.child);
  return shop;
}

const stopped = (child: ChildProcess) => new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));

async function call<T>(shop: ServerProcess, method: string, url: string, cookie: string, body?: object): Promise<T> {
  const response = await fetch(`${shop.url}${url}`, {
    method,
    headers: { cookie, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
  return (response.status === 204 ? undefined : await response.json()) as T;
}

describe.each(databaseTargets)('an order e-mail when the server is killed before sending it [%s]', (target) => {
  it('is sent after the restart, once', { timeout: 120_000 }, async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'shop-restart-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const clientDir = path.join(dataDir, 'client');
    await mkdir(clientDir);
    await writeFile(path.join(clientDir, 'index.html'), TEST_INDEX_HTML);
    const postgres = target === 'postgres' ? await createPostgresDatabase() : undefined;
    if (postgres) cleanups.push(() => postgres.drop());
    const location = { TEST_CLIENT_DIR: clientDir, ...(postgres ? { DATABASE_URL: postgres.url } : {}) };

    // The catalogue holds one product (and the embedded database's files exist) before the server starts.
    if (!postgres) await seedDataDir(dataDir);
    const database = await openDatabase(postgres ? { databaseUrl: postgres.url } : { dataDir });
    const [product] = await database.db.insert(products).values(testProduct({ name: 'Pearl Set', priceMinor: 1999 })).returning({ id: products.id });
    await database.close();

    const inbox: SmtpInbox = await startSmtpInbox();
    cleanups.push(() => inbox.close());
    const hanging: SmtpInbox = await startSmtpInbox({ hang: true });
    cleanups.push(() => hanging.close());

    // A customer signs in and fills the cart on a server whose mail works.
    const first = await startShop({ DATA_DIR: dataDir, SMTP_URL: inbox.url, ...location });
    await call(first, 'POST', '/api/auth/sign-in-links', '', { email: 'kept@example.com', language: 'en' });
    const token = tokenOf(signInLinkIn(await inbox.waitForMail('kept@example.com')));
    const session = await fetch(`${first.url}/api/auth/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token, email: 'kept@example.com' }) });
    const cookie = session.headers.getSetCookie().map((header) => header.split(';')[0]).join('; ');
    await call(first, 'POST', '/api/addresses', cookie, sofia);
    await call(first, 'POST', '/api/cart/operations', cookie, { operations: [{ id: operationKey(), type: 'add', productId: product!.id }] });
    first.child.kill('SIGTERM');
    await stopped(first.child);

    // The next server's mail server hangs: the order is committed, its confirmation claimed and being sent...
    const second = await startShop({ DATA_DIR: dataDir, SMTP_URL: hanging.url, ...(postgres ? { MAIL_CLAIM_SECONDS: '2' } : {}), ...location });
    const cart = await call<CartResponse>(second, 'GET', '/api/cart', cookie);
    const { order } = await call<{ order: Order }>(second, 'POST', '/api/orders', cookie, { idempotencyKey: operationKey(), acceptTerms: true, expectedTotalMinor: priceLines(cart.items).total });
    await eventually(async () => hanging.connections > 0, 30_000, 'the server to start sending');
    // ...when the process is killed.
    second.child.kill('SIGKILL');
    await stopped(second.child);
    expect(inbox.messages.filter((mail) => mail.subject.includes(order.orderId))).toHaveLength(0);

    // On PostgreSQL another process takes the message over when the claim runs out (2 s here, 5 minutes by
    // default); the embedded database has one process, which sends it again as soon as it starts.
    const third = await startShop({ DATA_DIR: dataDir, SMTP_URL: inbox.url, ...(postgres ? { MAIL_CLAIM_SECONDS: '2' } : {}), ...location });
    const confirmation = await inbox.waitForMail('kept@example.com', 20_000);
    expect(confirmation.subject).toBe(`We received your order #${order.orderId}`);
    // Nothing more arrives: a second order, queued after the first one's message was sent, is confirmed
    // through the same queue and worker, one message at a time, so a second copy would have come before it.
    await call(third, 'POST', '/api/cart/operations', cookie, { operations: [{ id: operationKey(), type: 'add', productId: product!.id }] });
    const markerCart = await call<CartResponse>(third, 'GET', '/api/cart', cookie);
    const { order: marker } = await call<{ order: Order }>(third, 'POST', '/api/orders', cookie, { idempotencyKey: operationKey(), acceptTerms: true, expectedTotalMinor: priceLines(markerCart.items).total });
    const markerMail = await inbox.waitForMail('kept@example.com', 20_000);
    expect(markerMail.subject).toBe(`We received your order #${marker.orderId}`);
    expect(inbox.messages.filter((mail) => mail.subject.includes(order.orderId))).toHaveLength(1);
    third.child.kill('SIGTERM');
    await stopped(third.child);
  });
});
