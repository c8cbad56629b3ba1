/**
 * What the build, the server and the browser agree on about the service worker (the offline shell).
 */

/** Where the worker is served from; its scope is the whole shop. */
export const SERVICE_WORKER_PATH = '/sw.js';

/**
 * Stands in the built worker for the revision of index.html. The server replaces it with a hash of the
 * page it actually serves, settings included, so that a new build or a changed setting both make a new
 * worker, which installs beside the old one and takes over only when the visitor reloads.
 */
export const SHELL_REVISION_PLACEHOLDER = '__SHOP_SHELL_REVISION__';

/**
 * Paths that are never pages of the app: the API, the development mailbox, product images and files
 * (anything with an extension). Offline, the worker answers every other navigation with the app.
 */
export const NOT_PAGE_PATHS: readonly RegExp[] = [/^\/api(\/|$)/, /^\/dev\//, /^\/images\//, /\.[a-z0-9]+$/i];

export const isNotPagePath = (pathname: string): boolean => NOT_PAGE_PATHS.some((pattern) => pattern.test(pathname));

/** The worker's caches of data it has seen (the app shell itself is precached under Workbox's own name). */
export const RUNTIME_CACHES = { products: 'shop-products', images: 'shop-images' } as const;

/** Product images kept for offline use: the most recently used ones, and none older than this. */
export const IMAGE_CACHE_LIMITS = { maxEntries: 120, maxAgeSeconds: 30 * 24 * 60 * 60 } as const;
