import { createHash } from 'node:crypto';
import path from 'node:path';
import preact from '@preact/preset-vite';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA, type ManifestOptions } from 'vite-plugin-pwa';
import { IMAGE_CACHE_LIMITS, NOT_PAGE_PATHS, RUNTIME_CACHES, SHELL_REVISION_PLACEHOLDER } from './src/shared/service-worker.js';

const THEME_COLOUR = '#9d2b6b';

/** The installable app (web app manifest). The brand name is the same in both languages, and fits a phone's home screen. */
const manifest: Partial<ManifestOptions> = {
  id: '/',
  name: 'Nail Art Atelier',
  short_name: 'Nail Art',
  description: 'Handmade press-on nails, nail art, accessories and kits, made to order and shipped from Bulgaria.',
  lang: 'en',
  dir: 'ltr',
  start_url: '/',
  scope: '/',
  display: 'standalone',
  orientation: 'any',
  theme_color: THEME_COLOUR,
  background_color: '#fdf7fa',
  categories: ['shopping'],
  icons: [
    { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
    { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
    { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
  ],
};

/** The same manifest in Bulgarian; the app links it while the page is in Bulgarian. */
function bulgarianManifest(): Plugin {
  return {
    name: 'shop-bulgarian-manifest',
    apply: 'build',
    generateBundle() {
      this.emitFile({
        type: 'asset',
        fileName: 'manifest.bg.webmanifest',
        source: JSON.stringify({
          ...manifest,
          lang: 'bg',
          description: 'Ръчно изработени изкуствени нокти, нейл арт, аксесоари и комплекти, изработени по поръчка и изпратени от България.',
        }),
      });
    },
  };
}

/**
 * The worker's static routes (Chrome's service worker static routing): the API, but for the catalogue
 * the worker keeps for offline use, goes straight to the network without the worker, as it would after
 * the worker had looked at it. Besides sparing each request the worker's start, this keeps the old
 * worker idle while a new version takes over: Chrome stops the old one first, and a request that
 * starts it again in that moment (a live stream reopening) cancels the stop, and the new version would wait
 * for the old one's idle timeout (30 s) after the visitor asked to reload. Browsers without static
 * routing ignore it.
 */
const WORKER_ROUTES_SCRIPT = `self.addEventListener('install', (event) => {
  if (!event.addRoutes) return;
  event.addRoutes(${JSON.stringify([
    { condition: { urlPattern: { pathname: '/api/products' } }, source: 'fetch-event' },
    { condition: { urlPattern: { pathname: '/api/products/*' } }, source: 'fetch-event' },
    { condition: { urlPattern: { pathname: '/api/*' } }, source: 'network' },
  ])}).catch((error) => console.warn("The worker's static routes were refused", error));
});
`;
/** Named by its content, so that a changed script makes a changed worker, which fetches it anew. */
const WORKER_ROUTES_FILE = `assets/worker-routes-${createHash('sha256').update(WORKER_ROUTES_SCRIPT).digest('hex').slice(0, 8)}.js`;

function workerRoutes(): Plugin {
  return {
    name: 'shop-worker-routes',
    apply: 'build',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: WORKER_ROUTES_FILE, source: WORKER_ROUTES_SCRIPT });
    },
  };
}

/** The small entry that starts the requests the first render waits for (src/client/early-requests.ts). */
const EARLY_REQUESTS_ENTRY = 'early-requests';

/**
 * Builds early-requests.ts as a second entry and loads it `async` ahead of the app's script, so that the
 * texts and the session, without which the app shows nothing, download beside the app's code instead of after it.
 * (Vite would bundle a second script tag of index.html into the app's entry, and the page's security
 * policy allows no inline script.)
 */
function earlyRequestsEntry(): Plugin {
  return {
    name: 'shop-early-requests-entry',
    apply: 'build',
    config: () => ({
      build: {
        rolldownOptions: {
          input: {
            index: path.resolve('src/client/index.html'),
            [EARLY_REQUESTS_ENTRY]: path.resolve('src/client/early-requests.ts'),
          },
        },
      },
    }),
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        const entry = Object.values(bundle ?? {}).find((file) => file.type === 'chunk' && file.isEntry && file.name === EARLY_REQUESTS_ENTRY);
        if (!entry) throw new Error(`The ${EARLY_REQUESTS_ENTRY} entry is missing from the build`);
        const appScript = /<script type="module" crossorigin src="[^"]+"><\/script>/;
        if (!appScript.test(html)) throw new Error('index.html has no app script to load the early requests before');
        const tag = `<script type="module" async crossorigin src="/${entry.fileName}"></script>`;
        return html.replace(appScript, (script) => `${tag}\n    ${script}`);
      },
    },
  };
}

export default defineConfig({
  root: 'src/client',
  publicDir: 'public',
  resolve: {
    alias: [
      // wouter supports React before 18 through this shim; React 19 has the hook itself, and the shim's
      // fallback code would only weigh on the first page.
      { find: /^use-sync-external-store\/shim(\/index\.js)?$/, replacement: path.resolve('src/client/app/use-sync-external-store.ts') },
    ],
  },
  plugins: [
    preact(),
    VitePWA({
      // The app registers the worker itself, after the page has loaded (src/client/app/offline/register-service-worker.ts).
      injectRegister: false,
      // A new version waits until the visitor agrees to reload, so a page never runs old and new code at once.
      registerType: 'prompt',
      strategies: 'generateSW',
      filename: 'sw.js',
      manifestFilename: 'manifest.webmanifest',
      manifest,
      includeAssets: ['favicon.svg', 'icons/apple-touch-icon-180.png'],
      workbox: {
        // Every chunk of every page, the texts of both languages and the styles, so that any page opens offline.
        globPatterns: ['**/*.{js,css,html}'],
        // The worker keeps the scripts it imports itself.
        globIgnores: ['**/node_modules/**/*', WORKER_ROUTES_FILE],
        importScripts: [`/${WORKER_ROUTES_FILE}`],
        // The server writes a hash of the page it serves (with its settings) here: see SHELL_REVISION_PLACEHOLDER.
        manifestTransforms: [
          async (entries) => ({
            manifest: entries.map((entry) => (entry.url === 'index.html' ? { ...entry, revision: SHELL_REVISION_PLACEHOLDER } : entry)),
            warnings: [],
          }),
        ],
        navigateFallback: 'index.html',
        navigateFallbackDenylist: [...NOT_PAGE_PATHS],
        cleanupOutdatedCaches: true,
        // The first worker takes the page that installed it at once, so that what it shows next is cached too;
        // later versions wait (skipWaiting stays off) until the visitor reloads.
        clientsClaim: true,
        skipWaiting: false,
        inlineWorkboxRuntime: true,
        sourcemap: false,
        runtimeCaching: [
          {
            // The catalogue, its filtered views, product pages and the favourites' page: always asked of the server first, so
            // they are never staler than the network allows; the views last seen are kept for offline use.
            // Workbox copies this function into the worker as text, so it names the paths itself: an API path
            // added here must be let through WORKER_ROUTES_SCRIPT's static routes too, which send the rest of
            // /api/ past the worker.
            urlPattern: ({ url, sameOrigin }) =>
              sameOrigin && (url.pathname === '/api/products' || url.pathname === '/api/products/by-ids' || url.pathname.startsWith('/api/products/by-slug/')),
            handler: 'NetworkFirst',
            method: 'GET',
            options: { cacheName: RUNTIME_CACHES.products, cacheableResponse: { statuses: [200] }, expiration: { maxEntries: 40 } },
          },
          {
            // Product images never change under one address (a new image gets a new file name).
            urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith('/images/'),
            handler: 'CacheFirst',
            method: 'GET',
            options: {
              cacheName: RUNTIME_CACHES.images,
              cacheableResponse: { statuses: [200] },
              expiration: { ...IMAGE_CACHE_LIMITS, purgeOnQuotaError: true },
            },
          },
        ],
      },
    }),
    bulgarianManifest(),
    earlyRequestsEntry(),
    workerRoutes(),
  ],
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    reportCompressedSize: true,
    manifest: true,
    // Every browser since Safari 17 and Firefox 115 preloads modules itself. The polyfill ran from the app's
    // entry, after its static imports had arrived, so it only fetched the later chunks' imports ahead in
    // older browsers, for 0.3 KB on every first visit.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        codeSplitting: {
          // The validation library in a chunk of its own, named, so that a test can see that the home page
          // does not load it before it is idle (tests/e2e/home.spec.ts): only forms use it.
          groups: [{ name: 'validation', test: /[\\/]node_modules[\\/]zod[\\/]/ }],
        },
      },
    },
  },
});
