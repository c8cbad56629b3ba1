/**
 * The network counts as quiet once no download has finished for this long. The first page's own
 * downloads (texts, catalogue, first images) follow one another closely; the pause after them is what
 * is waited for. Shorter than the 500 ms that Playwright's "networkidle" waits, so that a test that
 * waits for it finds these downloads done too.
 */
const QUIET_MS = 300;
/** A page that is never quiet (a stream of images, a busy CPU) still gets the task after this long past its load. */
const IDLE_TIMEOUT_MS = 5_000;

/**
 * Runs `task` once the page is idle: loaded, the network quiet and then the main thread idle. For code
 * and downloads the first page does not need (the sign-in dialog with the validation library), so that they take neither the network nor the main thread from what the visitor is
 * waiting for. Returns a function that cancels the task if it has not run yet.
 */
export function whenPageIdle(task: () => void): () => void {
  let quietTimer: ReturnType<typeof setTimeout> | undefined;
  let deadlineTimer: ReturnType<typeof setTimeout> | undefined;
  let cancelIdle = () => {};
  let downloads: PerformanceObserver | undefined;
  let started = false;

  const stopWatching = () => {
    clearTimeout(quietTimer);
    clearTimeout(deadlineTimer);
    downloads?.disconnect();
  };
  const runWhenMainThreadIdle = () => {
    if (started) return;
    started = true;
    stopWatching();
    if (typeof window.requestIdleCallback === 'function') {
      const handle = window.requestIdleCallback(task, { timeout: IDLE_TIMEOUT_MS });
      cancelIdle = () => window.cancelIdleCallback(handle);
    } else {
      // Safari has no requestIdleCallback: the next task after the quiet is the best it offers.
      const handle = setTimeout(task, 0);
      cancelIdle = () => clearTimeout(handle);
    }
  };
  const waitForQuiet = () => {
    clearTimeout(quietTimer);
    quietTimer = setTimeout(runWhenMainThreadIdle, QUIET_MS);
  };
  const afterLoad = () => {
    // Every finished download starts the wait for quiet again.
    downloads = new PerformanceObserver(waitForQuiet);
    downloads.observe({ type: 'resource' });
    waitForQuiet();
    deadlineTimer = setTimeout(runWhenMainThreadIdle, IDLE_TIMEOUT_MS);
  };

  if (document.readyState === 'complete') afterLoad();
  else window.addEventListener('load', afterLoad, { once: true });
  return () => {
    window.removeEventListener('load', afterLoad);
    stopWatching();
    cancelIdle();
  };
}
