import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CartResponse } from '#shared/cart.js';
import { coverUrl, type Product } from '#shared/catalog.js';
import { priceLines } from '#shared/pricing.js';
import type { Order } from '#shared/orders.js';
import { readManifest } from '#server/backup/backup-archive.js';
import { backupAccessFile, readBackupAccess } from '#server/backup/backup-access.js';
import { BACKUP_PATH } from '#server/backup/backup-routes.js';
import { projectPath } from '#server/project-path.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { startSmtpInbox, type SmtpInbox } from '../support/smtp-inbox.js';
import { ADMIN_EMAIL, addProductOverHttp, call, createShopPlace, exitOf, saveAddress, signInOverHttp, type ShopPlace } from './http-shopper.js';
import { operationKey } from './shopper.js';
import { testsEmbeddedDatabase } from './test-app.js';
import { serverCommand } from '../support/server-code.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface CommandResult {
  code: number;
  /** What the command printed, stdout and stderr together. */
  output: string;
}

/** Runs `npm run backup` or `npm run restore` (their scripts, without npm around them) in a process of its own. */
function runCommand(script: 'backup-cli.ts' | 'restore-cli.ts', args: string[], environment: Record<string, string>): Promise<CommandResult> {
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      serverCommand(script, ...args),
      { cwd: projectPath(), env: { ...inherited, NODE_ENV: 'test', ...environment }, timeout: 120_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

async function startShop(place: ShopPlace, environment: Record<string, string>): Promise<ServerProcess> {
  const server = await startServerProcess(place.clientDir, { ...place.environment, TRUST_PROXY: 'true', ADMIN_EMAILS: ADMIN_EMAIL, ...environment });
  cleanups.push(async () => {
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    await exitOf(server.child);
  });
  return server;
}

async function stopShop(server: ServerProcess): Promise<void> {
  server.child.kill('SIGTERM');
  expect(await exitOf(server.child)).toEqual({ code: 0, signal: null });
}

async function placeOrder(url: string, cookie: string, productId: string, quantity: number): Promise<Order> {
  const operations = Array.from({ length: quantity }, () => ({ id: operationKey(), type: 'add', productId }));
  await call(url, 'POST', '/api/cart/operations', cookie, { operations });
  const cart = await call<CartResponse>(url, 'GET', '/api/cart', cookie);
  return (await call<{ order: Order }>(url, 'POST', '/api/orders', cookie, { idempotencyKey: operationKey(), acceptTerms: true, expectedTotalMinor: priceLines(cart.items).total })).order;
}

/** What a restored order must keep: its id, lines and amounts. */
const essentials = (order: Order) => ({
  orderId: order.orderId,
  total: order.pricing.total,
  currency: order.currency,
  items: order.items.map(({ productId, name, priceMinor, quantity }) => ({ productId, name, priceMinor, quantity })),
});

const imageBytes = async (url: string) => {
  const response = await fetch(url);
  expect(response.status, url).toBe(200);
  return Buffer.from(await response.arrayBuffer());
};

describe.skipIf(!testsEmbeddedDatabase)('backups of a shop on the embedded database', () => {
  it('are taken while the server runs, and restored into a new DATA_DIR hold the same orders and photos', { timeout: 300_000 }, async () => {
    const place = await createShopPlace('pglite', 'shop-backup-');
    cleanups.push(() => place.remove());
    const inbox: SmtpInbox = await startSmtpInbox();
    cleanups.push(() => inbox.close());
    const environment = { SMTP_URL: inbox.url };
    const server = await startShop(place, environment);

    // A product with an uploaded photo, and orders from two customers.
    const admin = await signInOverHttp(server.url, inbox, ADMIN_EMAIL, '10.80.0.1');
    const product: Product = await addProductOverHttp(server.url, admin, 'Pearl Set', '19.99');
    const other: Product = await addProductOverHttp(server.url, admin, 'Glitter Tips', '7.50');
    const customers = await Promise.all(
      ['ana@example.com', 'boris@example.com'].map(async (email, index) => {
        const cookie = await signInOverHttp(server.url, inbox, email, `10.80.1.${index + 1}`);
        await saveAddress(server.url, cookie);
        return cookie;
      }),
    );
    const placed = [
      await placeOrder(server.url, customers[0]!, product.id, 2),
      await placeOrder(server.url, customers[0]!, other.id, 1),
      await placeOrder(server.url, customers[1]!, product.id, 1),
    ];

    // The backup is asked of the running server (the embedded database serves it alone), through a
    // file only the server's user can read, while a customer keeps checking out.
    expect((await stat(backupAccessFile(place.dataDir))).mode & 0o777).toBe(0o600);
    // Nobody else gets one: not without the key, nor with it through a reverse proxy.
    const { key } = await readBackupAccess(place.dataDir);
    const attempts: Record<string, string>[] = [{}, { authorization: 'Bearer not-the-key' }, { authorization: `Bearer ${key}`, 'x-forwarded-for': '203.0.113.9' }];
    for (const headers of attempts) {
      const refused = await fetch(`${server.url}${BACKUP_PATH}`, { method: 'POST', headers });
      expect(refused.status).toBe(403);
    }
    const backupFolder = await mkdtemp(path.join(tmpdir(), 'shop-backups-'));
    cleanups.push(() => rm(backupFolder, { recursive: true, force: true }));
    const backupFile = path.join(backupFolder, 'shop.tar.gz');
    let backingUp = true;
    const duringBackup: Order[] = [];
    const checkingOut = (async () => {
      while (backingUp) duringBackup.push(await placeOrder(server.url, customers[1]!, other.id, 1));
    })();
    const backup = await runCommand('backup-cli.ts', [backupFile], place.environment);
    backingUp = false;
    await checkingOut;
    expect(backup, backup.output).toMatchObject({ code: 0 });
    expect(backup.output).toContain(`Backup written to ${backupFile}`);
    expect((await stat(backupFile)).mode & 0o777).toBe(0o600);
    const manifest = await readManifest(backupFile);
    expect(manifest).toMatchObject({ format: 1, currency: 'BGN', counts: { products: 2, productPhotos: 2 } });
    // Every width of both photos.
    expect(manifest.counts.imageFiles).toBe((await readdir(path.join(place.dataDir, 'images', 'nails'))).length);
    // The orders before it, and some of those placed meanwhile, whole: a copy of one moment.
    expect(manifest.counts.orders).toBeGreaterThanOrEqual(placed.length);
    expect(manifest.counts.orders).toBeLessThanOrEqual(placed.length + duringBackup.length);
    // No work folder is left in DATA_DIR.
    expect((await readdir(place.dataDir)).filter((name) => name.startsWith('.backup-'))).toEqual([]);
    const ordersThen = [...placed, ...duringBackup].slice(0, manifest.counts.orders);
    const photoThen = await imageBytes(`${server.url}${coverUrl(product)}`);

    // A restore refuses the DATA_DIR of a running server, and a folder that holds anything.
    const intoRunning = await runCommand('restore-cli.ts', [backupFile], place.environment);
    expect(intoRunning.code).toBe(1);
    expect(intoRunning.output).toMatch(/Cannot restore into .*: The embedded database in .* is in use by process \d+/);
    const occupied = await mkdtemp(path.join(tmpdir(), 'shop-occupied-'));
    cleanups.push(() => rm(occupied, { recursive: true, force: true }));
    await writeFile(path.join(occupied, 'notes.txt'), 'mine');
    const intoOccupied = await runCommand('restore-cli.ts', [backupFile], { DATA_DIR: occupied });
    expect(intoOccupied.code).toBe(1);
    expect(intoOccupied.output).toContain(`Cannot restore into ${occupied}: it is not empty (it holds notes.txt)`);
    expect(await readdir(occupied)).toEqual(['notes.txt']);

    // Restored into a DATA_DIR that does not exist yet, on another machine as it were.
    const restoredPlace = await createShopPlace('pglite', 'shop-restored-');
    cleanups.push(() => restoredPlace.remove());
    const restore = await runCommand('restore-cli.ts', [backupFile], restoredPlace.environment);
    expect(restore, restore.output).toMatchObject({ code: 0 });
    expect(restore.output).toContain(`${manifest.counts.orders} orders, 2 products with 2 photos`);

    // A server on it shows each customer the same orders (their sessions came along), and the photo.
    const restored = await startShop(restoredPlace, environment);
    const [anaOrders, borisOrders] = await Promise.all(customers.map((cookie) => call<{ orders: Order[] }>(restored.url, 'GET', '/api/orders', cookie)));
    const restoredOrders = [...anaOrders!.orders, ...borisOrders!.orders].map(essentials);
    expect(restoredOrders.sort((a, b) => a.orderId.localeCompare(b.orderId))).toEqual(ordersThen.map(essentials).sort((a, b) => a.orderId.localeCompare(b.orderId)));
    const [restoredProduct] = (await call<{ products: Product[] }>(restored.url, 'GET', '/api/admin/products', admin)).products.filter((found) => found.id === product.id);
    expect(coverUrl(restoredProduct!)).toBe(coverUrl(product));
    expect((await imageBytes(`${restored.url}${coverUrl(product)}`)).equals(photoThen)).toBe(true);
    await stopShop(restored);

    // With no server running, the command opens the database itself.
    await stopShop(server);
    expect(existsSync(backupAccessFile(place.dataDir))).toBe(false);
    const offlineFile = path.join(backupFolder, 'offline.tar.gz');
    const offline = await runCommand('backup-cli.ts', [offlineFile], place.environment);
    expect(offline, offline.output).toMatchObject({ code: 0 });
    expect(offline.output).toContain('No server runs on');
    expect((await readManifest(offlineFile)).counts).toEqual({ ...manifest.counts, orders: placed.length + duringBackup.length });
    // A backup never overwrites a file.
    const again = await runCommand('backup-cli.ts', [offlineFile], place.environment);
    expect(again.code).toBe(1);
    expect(again.output).toContain('exists already');
  });

  it('are refused clearly where they cannot be made', { timeout: 120_000 }, async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'shop-backup-refusals-'));
    cleanups.push(() => rm(folder, { recursive: true, force: true }));

    // On PostgreSQL, pg_dump takes the backup, photos included; the password is not printed.
    const onPostgres = await runCommand('backup-cli.ts', [], { DATA_DIR: folder, DATABASE_URL: 'postgres://shop:secret@db.example:5432/shop' });
    expect(onPostgres.code).toBe(1);
    expect(onPostgres.output).toContain('pg_dump -Fc -f shop.dump "postgres://shop:****@db.example:5432/shop"');
    expect(onPostgres.output).toContain('pg_restore');
    expect(onPostgres.output).not.toContain('secret');
    const restoreOnPostgres = await runCommand('restore-cli.ts', [path.join(folder, 'any.tar.gz')], { DATA_DIR: folder, DATABASE_URL: 'postgres://shop@db.example/shop' });
    expect(restoreOnPostgres.code).toBe(1);
    expect(restoreOnPostgres.output).toContain('pg_restore');

    // Nothing to back up in an empty DATA_DIR.
    const empty = await runCommand('backup-cli.ts', [path.join(folder, 'b.tar.gz')], { DATA_DIR: path.join(folder, 'nothing') });
    expect(empty.code).toBe(1);
    expect(empty.output).toContain('There is no embedded database in');

    // A file that is not a backup is refused before anything is written.
    const notBackup = path.join(folder, 'photo.tar.gz');
    await writeFile(notBackup, 'not a tar file');
    const target = path.join(folder, 'target');
    const wrongFile = await runCommand('restore-cli.ts', [notBackup], { DATA_DIR: target });
    expect(wrongFile.code).toBe(1);
    expect(wrongFile.output).toContain('is not a readable shop backup');
    expect(existsSync(target)).toBe(false);

    // A server whose access file cannot be read cannot be asked for a backup.
    const locked = path.join(folder, 'locked');
    await mkdir(path.join(locked, 'db'), { recursive: true });
    await writeFile(path.join(locked, 'pglite.lock'), JSON.stringify({ pid: process.pid }));
    const noAccess = await runCommand('backup-cli.ts', [path.join(folder, 'c.tar.gz')], { DATA_DIR: locked });
    expect(noAccess.code).toBe(1);
    expect(noAccess.output).toContain('A server is running on');
    expect(noAccess.output).toContain('backup-access.json could not be read');
  });
});
