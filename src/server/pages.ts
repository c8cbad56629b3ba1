import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { PUBLIC_SETTINGS_ELEMENT_ID, type PublicSettings } from '#shared/settings.js';
import { UNMATCHED_ROUTE } from '#server/http/metrics.js';
import { isNotPagePath, SERVICE_WORKER_PATH, SHELL_REVISION_PLACEHOLDER } from '#shared/service-worker.js';
import { CatalogueCache, followCatalogueChanges, preparedAnswer, sendPrepared, type ResponseContent } from '#server/catalog/catalogue-cache.js';
import type { DatabaseHandle, Executor } from '#server/db/client.js';
import { errorBody } from '#server/http/errors.js';
import { registerHashedAssets } from '#server/http/hashed-assets.js';
import { withPageChunks } from './page-chunks.js';
import { answerPage, injectPageHead, pageWithoutData, shellHead, type PageAnswer, type PageRequest } from '#server/seo/page-head.js';

/** Where the single-page app comes from: the production build, or Vite during development. */
export interface PageSource {
  /** Vite's development client injects inline scripts, so the content security policy must allow them. */
  needsInlineScripts: boolean;
  /** Whether index.html stays the same while the server runs (a build), so that finished pages may be kept. */
  fixedHtml: boolean;
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
  const addPageChunks = withPageChunks(clientDir);
  return {
    needsInlineScripts: false,
    fixedHtml: true,
    async register(app) {
      registerHashedAssets(app, path.join(clientDir, 'assets'));
      await app.register(fastifyStatic, {
        root: clientDir,
        prefix: '/',
        wildcard: false,
        index: false,
        // scripts/compress-build.mjs writes .br and .gz copies of the text files beside them.
        preCompressed: true,
        // The hashed files are answered from memory (http/hashed-assets.ts).
        globIgnore: [...SHELL_FILES, 'assets/**'],
        setHeaders(response, filePath) {
          // An installed app reads its manifest again from time to time; a changed icon or colour should reach it.
          response.header('cache-control', filePath.endsWith('.webmanifest') ? 'no-cache' : 'public, max-age=3600');
        },
      });
    },
    async indexHtml(url) {
      template ??= readFile(path.join(clientDir, 'index.html'), 'utf8');
      return addPageChunks(await template, url);
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

/** What every page's head takes from the settings: the shop's address and how it shows prices. */
const shopOf = (settings: PublicSettings) => ({ siteUrl: settings.publicUrl, currency: settings.pricing.currency, showBgnEquivalent: settings.showBgnEquivalent });

function injectSettings(html: string, settings: PublicSettings): string {
  const json = JSON.stringify(settings).replace(/</g, '\\u003c');
  return html.replace(PLACEHOLDER, () => `<script id="${PUBLIC_SETTINGS_ELEMENT_ID}" type="application/json">${json}</script>`);
}

/**
 * Page paths load the app with the page's head (title, description, canonical address, sharing tags,
 * hreflang alternates, JSON-LD) in the language its address names, for crawlers and link previews
 * that run no JavaScript: 200 for the app's pages, 404 (still with the app) for others and for unknown
 * products, 301 from a product's old slug to its new one. Unknown API paths get JSON. /index.html is
 * the app shell the service worker keeps for offline use, with a generic head, and /sw.js that worker,
 * which browsers must be able to fetch anew at any time (never cached for long).
 *
 * Without a database (a caller that gives none) every page gets the head that needs no data. With one,
 * a page is built once per address and sent prepared and compressed (catalog/catalogue-cache.ts) until
 * the catalogue changes; the pages have a cache of their own, so that crawlers' many addresses never
 * push the catalogue's answers out.
 */
export async function registerPageFallback(app: FastifyInstance, pages: PageSource, settings: PublicSettings, database?: DatabaseHandle): Promise<void> {
  const shell = async () => injectPageHead(injectSettings(await pages.indexHtml('/'), settings), shellHead(shopOf(settings)));
  const pageCache = database && pages.fixedHtml ? new CatalogueCache(database.db) : undefined;
  if (database && pageCache) await followCatalogueChanges(app, database, pageCache);
  if (pageCache) {
    app.shortPath.addFallback(UNMATCHED_ROUTE, ({ pathname, url, headers }) => {
      if (isNotPagePath(pathname)) return undefined;
      const prepared = pageCache.peek(url);
      return prepared && preparedAnswer(headers, prepared);
    });
  }

  app.get('/index.html', async (_request, reply) => reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(await shell()));

  app.get(SERVICE_WORKER_PATH, async (_request, reply) => {
    const script = await pages.serviceWorkerScript();
    return reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(script === null ? REMOVING_WORKER : serviceWorkerWithShell(script, await shell()));
  });

  /** The page with its head, as an answer to prepare: the app for 200 and 404, a bare redirect for 301. */
  const pageContent = async (answer: PageAnswer, url: string): Promise<ResponseContent> => {
    // Not cached for long: a product renamed back takes its old slug again.
    if (answer.status === 301) return { status: 301, headers: { location: answer.location }, body: '' };
    const html = injectPageHead(injectSettings(await pages.indexHtml(url), settings), answer.head);
    return { status: answer.status, headers: { 'content-type': 'text/html; charset=utf-8' }, body: html };
  };

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const wantsPage = (request.method === 'GET' || request.method === 'HEAD') && !isNotPagePath(pathname);
    if (!wantsPage) return reply.status(404).send(errorBody('not_found', `No route for ${request.method} ${pathname}`));
    const page: PageRequest = { ...shopOf(settings), pathname, search: request.url.slice(pathname.length) };
    if (database) {
      try {
        const read = async (db: Executor) => pageContent(await answerPage(db, page), request.url);
        const prepared = pageCache ? await pageCache.answerContent(request.url, read) : undefined;
        if (prepared) return sendPrepared(request, reply, prepared);
        if (!pageCache) return sendContent(reply, await read(database.db));
      } catch (error) {
        // The app itself can still load (and say what it cannot reach); only the head is generic.
        request.log.error({ err: error }, 'The page head could not be built from the database');
      }
    }
    return sendContent(reply, await pageContent(pageWithoutData(page), request.url));
  });
}

const sendContent = (reply: FastifyReply, content: ResponseContent) => reply.status(content.status).headers(content.headers).header('cache-control', 'no-cache').send(content.body);
