import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#server/app.js';
import { loadConfig } from '#server/config.js';
import type { DatabaseHandle } from '#server/db/client.js';
import { productImagesFor } from '#server/images/product-images.js';
import { builtPages } from '#server/pages.js';
import { sofia } from './sample-data.js';
import { latestOutboxLink, tokenOf } from './sign-in.js';
import { openMigratedDatabase, TEST_INDEX_HTML, type TestApp, testsEmbeddedDatabase } from './test-app.js';

// What reaches the log does not depend on the database, so this runs on the embedded one only.

interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  err?: { type: string; message: string; stack: string; code?: string; cause?: unknown };
}

async function shopWithLog(environment: Record<string, string>, level = 'info') {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'shop-log-'));
  await mkdir(path.join(dataDir, 'client'));
  await writeFile(path.join(dataDir, 'client', 'index.html'), TEST_INDEX_HTML);
  const lines: string[] = [];
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, PUBLIC_URL: 'http://shop.test', ...environment });
  const database = await openMigratedDatabase();
  const images = productImagesFor(database, dataDir);
  const app = await buildApp({
    config,
    database,
    images,
    pages: builtPages(path.join(dataDir, 'client')),
    logger: { level, stream: { write: (line) => void lines.push(line) } },
  });
  await app.ready();
  return {
    app,
    database,
    dataDir,
    lines,
    parsed: () => lines.map((line) => JSON.parse(line) as LogLine),
    async close() {
      await app.close();
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function signInWithOutbox(shop: { app: FastifyInstance; dataDir: string }, email: string): Promise<string> {
  await shop.app.inject({ method: 'POST', url: '/api/auth/sign-in-links', payload: { email } });
  const link = await latestOutboxLink({ dataDir: shop.dataDir } as TestApp, email);
  const response = await shop.app.inject({ method: 'GET', url: `/?signInToken=${tokenOf(link)}` });
  expect(response.statusCode).toBe(200);
  const session = await shop.app.inject({ method: 'POST', url: '/api/auth/sessions', payload: { token: tokenOf(link), email } });
  const cookie = session.cookies.find((candidate) => candidate.name === 'session')!;
  return `session=${cookie.value}`;
}

describe.skipIf(!testsEmbeddedDatabase)('the server log', () => {
  let shop: Awaited<ReturnType<typeof shopWithLog>>;
  let database: DatabaseHandle;
  beforeAll(async () => {
    // Debug, so that every request is logged: the request lines are what the last test reads.
    shop = await shopWithLog({}, 'debug');
    database = shop.database;
  });
  afterAll(() => shop.close());

  it('logs a failed query once, with its request id and cause, and none of the customer’s data', async () => {
    const cookie = await signInWithOutbox(shop, 'maria@example.com');
    // A rule the shop does not know of makes the insert fail, as a broken database would.
    await database.db.execute(sql`alter table addresses add constraint no_vitosha check (street_address not like '%Vitosha%')`);
    const before = shop.lines.length;
    const response = await shop.app.inject({ method: 'POST', url: '/api/addresses', headers: { cookie }, payload: sofia });
    expect(response.statusCode).toBe(500);
    expect(response.json().error.code).toBe('internal');

    const written = shop.lines.slice(before).join('\n');
    const errors = shop.parsed().filter((line) => line.level >= 50);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.reqId).toEqual(expect.any(String));
    expect(errors[0]!.err?.message).toContain('insert into "addresses"');
    expect(JSON.stringify(errors[0]!.err)).toContain('23514');
    for (const personal of [sofia.fullName, sofia.streetAddress, '+359 88 812 3456', '888123456', 'maria@example.com']) {
      expect(written, personal).not.toContain(personal);
    }
  });

  it('logs each request in one line once answered: at info when refused, at debug when answered as asked', async () => {
    const before = shop.lines.length;
    expect((await shop.app.inject({ method: 'GET', url: '/api/products' })).statusCode).toBe(200);
    expect((await shop.app.inject({ method: 'GET', url: '/api/no-such-thing?email=maria@example.com' })).statusCode).toBe(404);
    const requests = shop.lines
      .slice(before)
      .map((line) => JSON.parse(line) as LogLine & { req?: { url: string }; res?: { statusCode: number } })
      .filter((line) => line.req);
    expect(requests.map((line) => [line.level, line.req?.url, line.res?.statusCode])).toEqual([
      [20, '/api/products', 200],
      [30, '/api/no-such-thing', 404],
    ]);
  });

  it('keeps sign-in tokens, e-mail addresses and client addresses out of request lines', () => {
    const requests = shop.lines.filter((line) => line.includes('"req":'));
    expect(requests.some((line) => line.includes('"url":"/"'))).toBe(true);
    const all = requests.join('\n');
    expect(all).not.toMatch(/signInToken/);
    expect(all).not.toContain('127.0.0.1');
    // The development outbox prints its links by design; nothing else names the customer.
    expect(shop.lines.filter((line) => !line.includes('outbox') && !line.includes('Link in that e-mail')).join('\n')).not.toContain('maria@example.com');
  });
});

describe.skipIf(!testsEmbeddedDatabase)('the server log when mail fails', () => {
  it('logs a sign-in e-mail that could not be sent, once, with the reason', async () => {
    const shop = await shopWithLog({ SMTP_URL: 'smtp://127.0.0.1:9' });
    try {
      const email = `${randomUUID()}@example.com`;
      const response = await shop.app.inject({ method: 'POST', url: '/api/auth/sign-in-links', payload: { email } });
      expect(response.statusCode).toBe(502);
      const errors = shop.parsed().filter((line) => line.level >= 50);
      expect(errors).toHaveLength(1);
      expect(errors[0]!.reqId).toEqual(expect.any(String));
      expect(errors[0]!.err?.message).toBe('The sign-in e-mail could not be sent.');
      expect(JSON.stringify(errors[0]!.err?.cause)).toMatch(/ECONNREFUSED/);
      expect(shop.lines.join('\n')).not.toContain(email);
    } finally {
      await shop.close();
    }
  });
});
