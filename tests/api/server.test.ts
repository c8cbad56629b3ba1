import { describe, expect, it } from 'vitest';
import { PAGE_ROUTES } from '#shared/routes.js';
import { createTestApp, databaseTargets, describeEachDatabase } from './test-app.js';

describeEachDatabase('server basics', (context) => {
  it('answers the health check', async () => {
    const response = await context().app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true });
  });

  it('answers the load balancer’s probes without a session: up, and ready while the database answers', async () => {
    const health = await context().app.inject({ method: 'GET', url: '/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'up' });
    expect(health.headers['cache-control']).toBe('no-store');
    const ready = await context().app.inject({ method: 'GET', url: '/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready' });
  });

  it('loads the app with status 200 on every page route, with the public settings in the page', async () => {
    const paths = [
      PAGE_ROUTES.home,
      '/profile?tab=addresses',
      PAGE_ROUTES.cart,
      PAGE_ROUTES.checkout,
      '/checkout/payment/ORDER123',
      '/checkout/payment/ORDER123?completed=true',
      '/mock-payment/ORDER123?method=card',
      PAGE_ROUTES.admin,
      '/withdrawal?order=ORDER123',
    ];
    for (const url of paths) {
      const response = await context().app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.body).toContain('<div id="root">');
      expect(response.body).toContain('<script id="shop-settings" type="application/json">');
      expect(response.body).toContain('"supportEmail":"support@nail-art.example"');
    }
  });

  it('loads the app with status 404 on unknown page paths', async () => {
    const response = await context().app.inject({ method: 'GET', url: '/no/such/page' });
    expect(response.statusCode).toBe(404);
    expect(response.body).toContain('<div id="root">');
  });

  it('answers unknown API paths and missing files with JSON 404s', async () => {
    for (const [method, url] of [
      ['GET', '/api/nothing-here'],
      ['POST', '/api/products'],
      ['DELETE', '/api'],
      ['GET', '/assets/missing.js'],
    ] as const) {
      const response = await context().app.inject({ method, url });
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
    }
  });

  it('sends the security headers by kind of answer: the page headers on pages and documents, the rest on every answer', async () => {
    const pageHeaders = ['content-security-policy', 'cross-origin-opener-policy', 'referrer-policy', 'x-frame-options', 'origin-agent-cluster'];
    const answers = [
      { url: '/', page: true },
      { url: '/no/such/page', page: true },
      { url: '/sitemap.xml', page: true },
      { url: '/api/products', page: false },
      { url: '/api/nothing-here', page: false },
      { url: '/sw.js', page: false },
      { url: '/robots.txt', page: false },
    ];
    for (const { url, page } of answers) {
      const response = await context().app.inject({ method: 'GET', url });
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
      expect(response.headers['cross-origin-resource-policy'], url).toBe('same-origin');
      for (const name of pageHeaders) expect(response.headers[name], `${name} on ${url}`).toEqual(page ? expect.any(String) : undefined);
    }
    const home = await context().app.inject({ method: 'GET', url: '/' });
    expect(home.headers['content-security-policy']).toBe(
      "default-src 'self'; base-uri 'self'; font-src 'self' https: data:; form-action 'self'; frame-ancestors 'self'; img-src 'self' data: blob:; object-src 'none'; script-src 'self'; script-src-attr 'none'; style-src 'self' 'unsafe-inline'; connect-src 'self'; worker-src 'self'; manifest-src 'self'",
    );
    expect(home.headers['x-frame-options']).toBe('SAMEORIGIN');
    // The test shop's address is http:, so browsers are not told to insist on HTTPS.
    expect(home.headers['strict-transport-security']).toBeUndefined();
  });

  it('reports a visitor without a session as signed out', async () => {
    for (const cookie of [undefined, 'session=not-a-real-session']) {
      const response = await context().app.inject({ method: 'GET', url: '/api/auth/me', headers: cookie ? { cookie } : {} });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ user: null });
      expect(response.headers['cache-control']).toBe('no-store');
    }
  });

  it('serves robots.txt pointing at the sitemap', async () => {
    const response = await context().app.inject({ method: 'GET', url: '/robots.txt' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('Sitemap: http://shop.test/sitemap.xml');
    expect(response.body).toContain('Disallow: /api/');
  });
});

// An embedded database cannot go away while its process runs; a PostgreSQL server can.
describe.runIf(databaseTargets.includes('postgres'))('probes when the PostgreSQL database is gone', () => {
  it('stay up but are not ready', async () => {
    const testApp = await createTestApp('postgres');
    try {
      await testApp.app.mailWorker.stop();
      await testApp.database.close();
      const ready = await testApp.app.inject({ method: 'GET', url: '/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'unavailable', reason: 'database' });
      expect((await testApp.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    } finally {
      await testApp.close();
    }
  });
});
