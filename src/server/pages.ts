import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { PUBLIC_SETTINGS_ELEMENT_ID, type PublicSettings } from '../shared/settings.js';
import { isPageRoute } from '../shared/routes.js';
import { isNotPagePath, SERVICE_WORKER_PATH, SHELL_REVISION_PLACEHOLDER } from '../shared/service-worker.js';
import { errorBody } from './http/errors.js';

/** Where the single-page app comes from: the production build, or Vite during development. */
export interface PageSource {
  /** Vite's development client injects inline scripts, so the content security policy must allow them. */
  needsInlineScripts: boolean;
  register(app: FastifyInstance): Promise<void>;
  indexHtml(url: string): Promise<string>;
  /** The built service worker's script, or null where there is none (development, a build without one). */
  serviceWorkerScript(): Promise<string | null>;
}

/** Files the server serves itself rather than as they lie in the build: the page gets the settings, the worker the page's revision. */
const SHELL_FILES = ['index.html', SERVICE_WORKER_PATH.slice(1)];

export function builtPages(clientDir: string): PageSource {
  let template: Promise<string> | undefined;
  let worker: Promise<string | null> | undefined;
  return {
    needsInlineScripts: false,
    async register(app) {
      await app.register(fastifyStatic, {
        root: clientDir,
        prefix: '/',
        wildcard: false,
        index: false,
        globIgnore: SHELL_FILES,
        setHeaders(response, filePath) {
          // Vite puts a content hash in every file name under assets/, so they never change.
          const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
          // An installed app reads its manifest again from time to time; a changed icon or colour should reach it.
          const manifest = filePath.endsWith('.webmanifest');
          response.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : manifest ? 'no-cache' : 'public, max-age=3600');
        },
      });
    },
    indexHtml() {
      template ??= readFile(path.join(clientDir, 'index.html'), 'utf8');
      return template;
    },
    serviceWorkerScript() {
      worker ??= readFile(path.join(clientDir, SERVICE_WORKER_PATH), 'utf8').then(
        (script) => {
          if (!script.includes(SHELL_REVISION_PLACEHOLDER)) {
            throw new Error(`${SERVICE_WORKER_PATH} in ${clientDir} has no ${SHELL_REVISION_PLACEHOLDER}: it was not built by this project's vite.config.ts; run npm run build`);
          }
          return script;
        },
        (error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOENT') return null;
          throw error;
        },
      );
      return worker;
    },
  };
}

/**
 * Served where a build has no worker (development): it removes whatever worker a production build left
 * at this address, with its caches, and reloads the pages it held, so that they get the server's files.
 */
const REMOVING_WORKER = `// No service worker here: this one removes an earlier one and its caches.
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    await self.registration.unregister();
    await Promise.all((await caches.keys()).map((key) => caches.delete(key)));
    for (const client of await self.clients.matchAll({ type: 'window' })) client.navigate(client.url);
  })());
});
`;

/** The worker with the revision of the page it precaches: a hash of that page as served, settings included. */
export function serviceWorkerWithShell(script: string, shellHtml: string): string {
  const revision = createHash('sha256').update(shellHtml).digest('hex').slice(0, 32);
  return script.replaceAll(SHELL_REVISION_PLACEHOLDER, revision);
}

const PLACEHOLDER = '<!--shop-settings-->';

export function injectSettings(html: string, settings: PublicSettings): string {
  const json = JSON.stringify(settings).replace(/</g, '\\u003c');
  return html.replace(PLACEHOLDER, `<script id="${PUBLIC_SETTINGS_ELEMENT_ID}" type="application/json">${json}</script>`);
}

/**
 * Page paths load the app: 200 for the app's routes, 404 (still with the app) for others; unknown API
 * paths get JSON. /index.html is the app shell the service worker keeps for offline use, and /sw.js
 * that worker, which browsers must be able to fetch anew at any time (never cached for long).
 */
export function registerPageFallback(app: FastifyInstance, pages: PageSource, settings: PublicSettings): void {
  const shell = async () => injectSettings(await pages.indexHtml('/'), settings);

  app.get('/index.html', async (_request, reply) => reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(await shell()));

  app.get(SERVICE_WORKER_PATH, async (_request, reply) => {
    const script = await pages.serviceWorkerScript();
    return reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(script === null ? REMOVING_WORKER : serviceWorkerWithShell(script, await shell()));
  });

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const wantsPage = (request.method === 'GET' || request.method === 'HEAD') && !isNotPagePath(pathname);
    if (!wantsPage) return reply.status(404).send(errorBody('not_found', `No route for ${request.method} ${pathname}`));
    const html = injectSettings(await pages.indexHtml(request.url), settings);
    return reply
      .status(isPageRoute(pathname) ? 200 : 404)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(html);
  });
}
