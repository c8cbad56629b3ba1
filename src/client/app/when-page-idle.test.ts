import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { whenPageIdle } from './when-page-idle.js';

/** A page in the node test environment: its load event, its downloads and its idle callbacks, each fired by the test. */
function fakePage(readyState: DocumentReadyState, { idleCallbacks = true } = {}) {
  const loadListeners = new Set<() => void>();
  const downloadWatchers = new Set<() => void>();
  const idle: IdleRequestCallback[] = [];
  vi.stubGlobal('document', { readyState });
  vi.stubGlobal('window', {
    addEventListener: (_type: 'load', listener: () => void) => loadListeners.add(listener),
    removeEventListener: (_type: 'load', listener: () => void) => loadListeners.delete(listener),
    requestIdleCallback: idleCallbacks ? (callback: IdleRequestCallback) => idle.push(callback) : undefined,
    cancelIdleCallback: (handle: number) => idle.splice(handle - 1, 1),
  });
  vi.stubGlobal(
    'PerformanceObserver',
    class {
      constructor(private readonly onEntries: () => void) {}
      observe() {
        downloadWatchers.add(this.onEntries);
      }
      disconnect() {
        downloadWatchers.delete(this.onEntries);
      }
    },
  );
  return {
    load: () => loadListeners.forEach((listener) => listener()),
    finishDownload: () => downloadWatchers.forEach((watcher) => watcher()),
    idle: () => idle.splice(0).forEach((callback) => callback({ didTimeout: false, timeRemaining: () => 50 })),
    watchingDownloads: () => downloadWatchers.size > 0,
  };
}

describe('whenPageIdle', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('waits for the load, then for downloads to pause, then for an idle moment', () => {
    const page = fakePage('interactive');
    const task = vi.fn();
    whenPageIdle(task);

    vi.advanceTimersByTime(1_000);
    page.idle();
    expect(task).not.toHaveBeenCalled();

    page.load();
    vi.advanceTimersByTime(200);
    page.finishDownload(); // the catalogue arrives: the quiet starts again
    vi.advanceTimersByTime(200);
    page.idle();
    expect(task).not.toHaveBeenCalled();

    vi.advanceTimersByTime(100);
    expect(task).not.toHaveBeenCalled(); // quiet now, but the main thread has not been idle yet
    page.idle();
    expect(task).toHaveBeenCalledOnce();
    expect(page.watchingDownloads()).toBe(false);
  });

  it('does not wait for a load that has already happened', () => {
    const page = fakePage('complete');
    const task = vi.fn();
    whenPageIdle(task);
    vi.advanceTimersByTime(300);
    page.idle();
    expect(task).toHaveBeenCalledOnce();
  });

  it('runs the task after at most five seconds of downloads that never pause', () => {
    const page = fakePage('complete');
    const task = vi.fn();
    whenPageIdle(task);
    for (let elapsed = 0; elapsed < 5_000; elapsed += 100) {
      vi.advanceTimersByTime(100);
      page.finishDownload();
    }
    page.idle();
    expect(task).toHaveBeenCalledOnce();
  });

  it('without requestIdleCallback (Safari), runs the task in the next task after the quiet', () => {
    fakePage('complete', { idleCallbacks: false });
    const task = vi.fn();
    whenPageIdle(task);
    vi.advanceTimersByTime(299);
    expect(task).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1); // the quiet ends, and the task is put in the next task
    expect(task).not.toHaveBeenCalled();
    vi.runOnlyPendingTimers();
    expect(task).toHaveBeenCalledOnce();
  });

  it('runs nothing once cancelled', () => {
    const page = fakePage('interactive');
    const task = vi.fn();
    const cancel = whenPageIdle(task);
    page.load();
    vi.advanceTimersByTime(300);
    cancel();
    page.idle();
    vi.advanceTimersByTime(10_000);
    page.idle();
    expect(task).not.toHaveBeenCalled();
  });
});
