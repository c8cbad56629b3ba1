import type { ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Product } from '#shared/catalog.js';
import { openDatabase, type DatabaseHandle } from '#server/db/client.js';
import type { SmtpInbox } from '../support/smtp-inbox.js';
import { pngImage, productForm } from './product-form.js';
import { sofia } from './sample-data.js';
import { tokenOf } from './sign-in.js';
import { createPostgresDatabase, TEST_INDEX_HTML } from './test-app.js';

// Shopping over real HTTP, against a server in a process of its own (tests/support/server-process.ts).

/** Where a shop's server processes keep their data: a DATA_DIR, and a PostgreSQL database on that target. */
export interface ShopPlace {
  dataDir: string;
  /** The single-page app the processes serve. */
  clientDir: string;
  databaseUrl?: string;
  /** DATA_DIR, and DATABASE_URL on PostgreSQL, for a server process. */
  environment: Record<string, string>;
  /** Opens the shop's database in the test (no server may hold the embedded one). */
  open(): Promise<DatabaseHandle>;
  remove(): Promise<void>;
}

export async function createShopPlace(target: 'pglite' | 'postgres', prefix = 'shop-process-'): Promise<ShopPlace> {
  const root = await mkdtemp(path.join(tmpdir(), prefix));
  const dataDir = path.join(root, 'data');
  const clientDir = path.join(root, 'client');
  await mkdir(clientDir);
  await writeFile(path.join(clientDir, 'index.html'), TEST_INDEX_HTML);
  const postgres = target === 'postgres' ? await createPostgresDatabase() : undefined;
  return {
    dataDir,
    clientDir,
    databaseUrl: postgres?.url,
    environment: { DATA_DIR: dataDir, ...(postgres ? { DATABASE_URL: postgres.url } : {}) },
    open: () => openDatabase(postgres ? { databaseUrl: postgres.url } : { dataDir }),
    async remove() {
      await postgres?.drop();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** A JSON call that must succeed. */
export async function call<T>(url: string, method: string, pathname: string, cookie: string, body?: object, headers: Record<string, string> = {}): Promise<T> {
  const response = await fetch(`${url}${pathname}`, {
    method,
    headers: { cookie, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!response.ok) throw new Error(`${method} ${pathname}: ${response.status} ${await response.text()}`);
  return (response.status === 204 ? undefined : await response.json()) as T;
}

/**
 * Signs in through the link e-mailed to the SMTP inbox, as a customer does, and returns the session
 * cookie. Each customer comes from an address of their own (the server trusts X-Forwarded-For in
 * these tests), so that the limit on sign-in links per client stays out of the way.
 */
export async function signInOverHttp(url: string, inbox: SmtpInbox, email: string, clientAddress: string): Promise<string> {
  await call(url, 'POST', '/api/auth/sign-in-links', '', { email, language: 'en' }, { 'x-forwarded-for': clientAddress });
  const token = tokenOf(await inbox.waitForSignInLink(email, 20_000));
  const response = await fetch(`${url}/api/auth/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token, email }) });
  if (!response.ok) throw new Error(`Sign-in of ${email} failed: ${response.status} ${await response.text()}`);
  return response.headers
    .getSetCookie()
    .map((header) => header.split(';')[0])
    .join('; ');
}

/** Saves the Sofia address, which checkout uses as the default. */
export const saveAddress = (url: string, cookie: string) => call(url, 'POST', '/api/addresses', cookie, sofia);

/** Resolves with the exit code (or signal) once the process has ended. */
export const exitOf = (child: ChildProcess) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.exitCode !== null || child.signalCode !== null ? resolve({ code: child.exitCode, signal: child.signalCode }) : child.once('exit', (code, signal) => resolve({ code, signal })),
  );

/** The admin every shop of these tests has (ADMIN_EMAILS). */
export const ADMIN_EMAIL = 'boss@example.com';

/**
 * Adds a product with a photo through the admin's form, made to order unless a stock is given. Going
 * through the server spares the test opening the database before the server does, which on the
 * embedded database means creating it twice over.
 */
export async function addProductOverHttp(url: string, adminCookie: string, name: string, price = '19.99', stock?: number): Promise<Product> {
  const fields = { nameEn: name, nameBg: name, descriptionEn: 'Handmade.', descriptionBg: 'Ръчна изработка.', price, category: 'nails', ...(stock === undefined ? {} : { stock: String(stock) }) };
  const form = productForm(fields, await pngImage(), adminCookie);
  const response = await fetch(`${url}/api/admin/products`, { method: 'POST', headers: form.headers, body: form.payload });
  if (response.status !== 201) throw new Error(`Adding ${name} failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { product: Product }).product;
}
