import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { SHELL_REVISION_PLACEHOLDER } from '#shared/service-worker.js';
import { describeEachDatabase } from './test-app.js';

// A stand-in for the worker Workbox builds: only the precache entry of the page matters here.
const BUILT_WORKER = `precacheAndRoute([{url:"assets/index-abc.js",revision:null},{url:"index.html",revision:"${SHELL_REVISION_PLACEHOLDER}"}]);`;
const MANIFEST = JSON.stringify({ name: 'Nail Art Atelier', short_name: 'Nail Art' });

const revisionIn = (script: string) => /\{url:"index\.html",revision:"([^"]+)"\}/.exec(script)?.[1];

describeEachDatabase(
  'the offline worker and the app shell',
  (context) => {
    it('serves the app shell at /index.html with the settings, never cached for long', async () => {
      const response = await context().app.inject({ method: 'GET', url: '/index.html?__WB_REVISION__=x' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toContain('<script id="shop-settings" type="application/json">');
      expect(response.body).toContain('"supportEmail":"help@shop.test"');
    });

    it('serves the worker with the revision of the shell it serves, and so that browsers always look for a new one', async () => {
      const worker = await context().app.inject({ method: 'GET', url: '/sw.js' });
      const shell = await context().app.inject({ method: 'GET', url: '/index.html' });
      expect(worker.statusCode).toBe(200);
      expect(worker.headers['content-type']).toContain('text/javascript');
      expect(worker.headers['cache-control']).toBe('no-cache');
      expect(worker.body).not.toContain(SHELL_REVISION_PLACEHOLDER);
      expect(revisionIn(worker.body)).toBe(createHash('sha256').update(shell.body).digest('hex').slice(0, 32));
      // The rest of the worker is the build's.
      expect(worker.body.replace(revisionIn(worker.body)!, SHELL_REVISION_PLACEHOLDER)).toBe(BUILT_WORKER);
    });

    it('lets the page and the worker be fetched only from the shop itself', async () => {
      const csp = (await context().app.inject({ method: 'GET', url: '/' })).headers['content-security-policy'];
      expect(csp).toContain("worker-src 'self'");
      expect(csp).toContain("manifest-src 'self'");
    });

    it('serves the web app manifest as such, checked again at every use', async () => {
      const response = await context().app.inject({ method: 'GET', url: '/manifest.webmanifest' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('application/manifest+json');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.json()).toEqual(JSON.parse(MANIFEST));
    });

    it('answers paths that are never pages without the app, as the worker lets them through', async () => {
      for (const url of ['/images/nails/missing.webp', '/dev/anything', '/api/nothing', '/favicon.ico']) {
        const response = await context().app.inject({ method: 'GET', url });
        expect(response.statusCode, url).toBe(404);
        expect(response.json(), url).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
      }
    });
  },
  { SUPPORT_EMAIL: 'help@shop.test' },
  { clientFiles: { 'sw.js': BUILT_WORKER, 'manifest.webmanifest': MANIFEST } },
);

describeEachDatabase('without a built worker (development)', (context) => {
  it('serves a worker that removes any earlier one and its caches', async () => {
    const response = await context().app.inject({ method: 'GET', url: '/sw.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toContain('self.registration.unregister()');
    expect(response.body).toContain('caches.delete');
  });
});
