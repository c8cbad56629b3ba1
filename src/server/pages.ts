import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { PUBLIC_SETTINGS_ELEMENT_ID, type PublicSettings } from '../shared/settings.js';
import { isPageRoute } from '../shared/routes.js';
import { errorBody } from './http/errors.js';

/** Where the single-page app comes from: the production build, or Vite during development. */
export interface PageSource {
  /** Vite's development client injects inline scripts, so the content security policy must allow them. */
  needsInlineScripts: boolean;
  register(app: FastifyInstance): Promise<void>;
  indexHtml(url: string): Promise<string>;
}

export function builtPages(clientDir: string): PageSource {
  let template: Promise<string> | undefined;
  return {
    needsInlineScripts: false,
    async register(app) {
      await app.register(fastifyStatic, {
        root: clientDir,
        prefix: '/',
        wildcard: false,
        index: false,
        setHeaders(response, filePath) {
          // Vite puts a content hash in every file name under assets/, so they never change.
          const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
          response.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
        },
      });
    },
    indexHtml() {
      template ??= readFile(path.join(clientDir, 'index.html'), 'utf8');
      return template;
    },
  };
}

const PLACEHOLDER = '<!--shop-settings-->';

export function injectSettings(html: string, settings: PublicSettings): string {
  const json = JSON.stringify(settings).replace(/</g, '\\u003c');
  return html.replace(PLACEHOLDER, `<script id="${PUBLIC_SETTINGS_ELEMENT_ID}" type="application/json">${json}</script>`);
}

/** Page paths load the app: 200 for the app's routes, 404 (still with the app) for others; unknown API paths get JSON. */
export function registerPageFallback(app: FastifyInstance, pages: PageSource, settings: PublicSettings): void {
  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !pathname.startsWith('/api/') &&
      pathname !== '/api' &&
      !/\.[a-z0-9]+$/i.test(pathname);
    if (!wantsPage) return reply.status(404).send(errorBody('not_found', `No route for ${request.method} ${pathname}`));
    const html = injectSettings(await pages.indexHtml(request.url), settings);
    return reply
      .status(isPageRoute(pathname) ? 200 : 404)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(html);
  });
}
