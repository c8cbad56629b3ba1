import { expect, it, vi } from 'vitest';
import type { Product } from '#shared/catalog.js';
import { admins } from '#server/db/schema.js';
import { pngImage, productForm } from './product-form.js';
import { signIn } from './sign-in.js';
import { describeEachDatabase, type TestApp } from './test-app.js';

// The short path (src/server/http/short-path.ts) sends answers ready in memory before Fastify routes
// them. These tests hold it to the bytes and headers Fastify's own routes send for the same request,
// and to leaving to Fastify what it cannot answer from memory.

/** The headers that say something about the answer (not the connection or the clock). */
function answerHeaders(headers: Headers | Record<string, unknown>): Record<string, string> {
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers).map(([name, value]) => [name, String(value)] as const);
  return Object.fromEntries(entries.filter(([name]) => !['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(name)).sort(([a], [b]) => a.localeCompare(b)));
}

/** Counts the requests the short path answered. */
function countShortAnswers(testApp: TestApp): () => number {
  const { shortPath } = testApp.app;
  const answer = shortPath.answer.bind(shortPath);
  let answered = 0;
  shortPath.answer = (request, response) => {
    const done = answer(request, response);
    if (done) answered++;
    return done;
  };
  return () => answered;
}

const ASSET = 'assets/app-3f2a1b.js';

describeEachDatabase(
  'the short path',
  (context) => {
    it('sends the prepared catalogue, pages, built files and photos as Fastify’s routes send them, in every encoding and as 304', async () => {
      const testApp = context();
      await testApp.database.db.insert(admins).values({ id: 'short@example.com' }).onConflictDoNothing();
      const admin = await signIn(testApp, 'short@example.com');
      const created = await testApp.app.inject({
        method: 'POST',
        url: '/api/admin/products',
        ...productForm({ nameEn: 'Short Path Shells', descriptionEn: 'Painted by hand.', price: '12.00', category: 'nails' }, await pngImage(700), admin),
      });
      expect(created.statusCode, created.body).toBe(201);
      const photo = created.json<{ product: Product }>().product.photos[0]!.url;
      const address = await testApp.app.listen({ port: 0, host: '127.0.0.1' });
      const shortAnswers = countShortAnswers(testApp);
      // On PostgreSQL the new product's change notice arrives on another connection, and on a busy
      // machine it can arrive after the next request prepared an answer, dropping that answer. Once two
      // requests in a row take the short path, the notice has come.
      await vi.waitFor(
        async () => {
          await fetch(`${address}/api/products`).then((response) => response.arrayBuffer());
          const before = shortAnswers();
          await fetch(`${address}/api/products`).then((response) => response.arrayBuffer());
          expect(shortAnswers()).toBe(before + 1);
        },
        { timeout: 10_000, interval: 50 },
      );
      const urls = ['/api/products', '/api/products?sort=price&page=1', '/api/products?category=nails&lang=bg&sort=name', '/', '/?lang=bg', '/no/such/page', `/${ASSET}`, photo, `${photo}?w=320`];
      for (const url of urls) {
        for (const encoding of ['br, gzip', 'gzip', '']) {
          // The first request prepares the answer (through Fastify); the next takes the short path.
          await fetch(`${address}${url}`, { headers: { 'accept-encoding': encoding } }).then((response) => response.arrayBuffer());
          const before = shortAnswers();
          const short = await fetch(`${address}${url}`, { headers: { 'accept-encoding': encoding } });
          const shortBody = Buffer.from(await short.arrayBuffer());
          expect(shortAnswers(), `${url} (${encoding}) on the short path`).toBe(before + 1);
          const routed = await testApp.app.inject({ method: 'GET', url, headers: { 'accept-encoding': encoding } });
          expect(short.status, url).toBe(routed.statusCode);
          expect(answerHeaders(short.headers), `${url} (${encoding})`).toEqual(answerHeaders(routed.headers));
          // fetch undoes the encoding; inject does not.
          if (!short.headers.get('content-encoding')) expect(shortBody.equals(routed.rawPayload), url).toBe(true);

          const etag = short.headers.get('etag')!;
          const notModified = await fetch(`${address}${url}`, { headers: { 'accept-encoding': encoding, 'if-none-match': etag } });
          const routedNotModified = await testApp.app.inject({ method: 'GET', url, headers: { 'accept-encoding': encoding, 'if-none-match': etag } });
          expect([notModified.status, routedNotModified.statusCode], url).toEqual([url === '/no/such/page' ? 404 : 304, url === '/no/such/page' ? 404 : 304]);
          expect(answerHeaders(notModified.headers)).toEqual(answerHeaders(routedNotModified.headers));
        }
      }
    });

    it('leaves to Fastify what it cannot answer from memory, and counts what it answers in the metrics', async () => {
      const testApp = context();
      const address = testApp.app.server.listening ? `http://127.0.0.1:${(testApp.app.server.address() as { port: number }).port}` : await testApp.app.listen({ port: 0, host: '127.0.0.1' });
      const shortAnswers = countShortAnswers(testApp);
      const metricCount = async () => {
        const metrics = await (await fetch(`${address}/metrics`)).text();
        return Number(/http_requests_total\{method="GET",route="\/api\/products",status="200"\} (\d+)/.exec(metrics)?.[1] ?? 0);
      };
      await fetch(`${address}/api/products?sort=newest`).then((response) => response.arrayBuffer());
      const before = { short: shortAnswers(), counted: await metricCount() };
      await fetch(`${address}/api/products?sort=newest`).then((response) => response.arrayBuffer());
      expect(shortAnswers()).toBe(before.short + 1);
      expect(await metricCount()).toBe(before.counted + 1);

      for (const [method, url] of [
        ['HEAD', '/api/products'],
        ['GET', '/api/products?sort=price&sort=name'],
        ['GET', '/api/products?q=%E0%A4%A'],
        ['GET', '/api/auth/me'],
        ['GET', '/assets/missing.js'],
        ['GET', '/sw.js'],
        ['POST', '/api/products'],
      ] as const) {
        const count = shortAnswers();
        const response = await fetch(`${address}${url}`, { method, headers: method === 'POST' ? { origin: 'http://shop.test' } : {} });
        await response.arrayBuffer();
        expect(shortAnswers(), `${method} ${url}`).toBe(count);
      }
    });
  },
  {},
  {
    clientFiles: { [ASSET]: `console.log(${JSON.stringify('x'.repeat(4000))});` },
    // On PostgreSQL the short path sends the catalogue's answers only within 1 s of the state's last
    // read (catalogue-cache.test.ts tests that bound). A busy machine can stretch a request pair past
    // it; these tests are about the answers' bytes, so the state stays current until a notice.
    catalogueMaxStalenessMs: 60_000,
  },
);
