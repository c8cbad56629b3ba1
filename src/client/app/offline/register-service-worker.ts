import { messageSW, Workbox } from 'workbox-window';
import { SERVICE_WORKER_PATH } from '#shared/service-worker.js';
import { setAppUpdate } from './app-update.js';

/** A tab left open for days still learns of a new version; navigations check by themselves too. */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

/**
 * What this page loaded before the worker could see it (the first visit): the catalogue, the views
 * of it and the product pages shown, and the product images, handed to the worker to keep, as later pages' requests are kept. Images are
 * taken from the page as well as from the resource timings, which omit those the browser had in memory.
 */
function seenBeforeTheWorker(): string[] {
  const shown = Array.from(document.images, (image) => (image.complete && image.naturalWidth > 0 ? image.currentSrc : ''));
  const loaded = performance.getEntriesByType('resource').map((entry) => entry.name);
  const addresses = [...shown, ...loaded]
    .filter(Boolean)
    .map((address) => new URL(address, window.location.href))
    .filter((url) => url.origin === window.location.origin && (url.pathname.startsWith('/images/') || url.pathname.startsWith('/api/products')))
    .map((url) => url.pathname + url.search);
  // The whole catalogue's first page always, and the views of it this page showed.
  return [...new Set(['/api/products', ...addresses])];
}

/**
 * Registers the offline worker (vite-plugin-pwa's Workbox build, `prompt` style): a new version
 * installs in the background and waits; the visitor is told, and it takes over when they reload.
 */
export async function registerServiceWorker(): Promise<void> {
  const workbox = new Workbox(SERVICE_WORKER_PATH, { scope: '/' });
  const firstVisit = !navigator.serviceWorker.controller;
  let controlled = !firstVisit;
  let reloadRequested = false;

  workbox.addEventListener('waiting', () => {
    setAppUpdate({
      kind: 'available',
      reload: () => {
        reloadRequested = true;
        setAppUpdate({ kind: 'switching' });
        void navigator.serviceWorker.getRegistration().then((registration) => {
          // Another tab may have switched already: then there is nothing left to wait for but this reload.
          if (registration?.waiting) workbox.messageSkipWaiting();
          else window.location.reload();
        });
      },
      dismiss: () => setAppUpdate({ kind: 'none' }),
    });
  });
  workbox.addEventListener('controlling', () => {
    if (reloadRequested) window.location.reload();
    // The first worker taking an uncontrolled page changes nothing the page runs.
    else if (controlled) setAppUpdate({ kind: 'required' });
    controlled = true;
  });

  const registration = await workbox.register();
  if (!registration) return;
  setInterval(() => {
    if (navigator.onLine) registration.update().catch(() => undefined);
  }, UPDATE_CHECK_MS);
  if (firstVisit) {
    // The worker may have been installed by an earlier page still installing it, so wait for the
    // registration's active worker rather than for this page's own.
    const { active } = await navigator.serviceWorker.ready;
    // Workbox's router keeps each URL as its route says (CACHE_URLS), and answers once it has.
    if (active) void messageSW(active, { type: 'CACHE_URLS', payload: { urlsToCache: seenBeforeTheWorker() } });
  }
}
