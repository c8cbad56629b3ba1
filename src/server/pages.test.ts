import { describe, expect, it } from 'vitest';
import { SHELL_REVISION_PLACEHOLDER } from '#shared/service-worker.js';
import { serviceWorkerWithShell } from './pages.js';

const worker = `precacheAndRoute([{url:"index.html",revision:"${SHELL_REVISION_PLACEHOLDER}"}]);`;
const revision = (script: string) => /revision:"([^"]+)"/.exec(script)?.[1];

describe('the worker served with its shell', () => {
  it('carries a revision that follows the page it precaches, and nothing else', () => {
    const page = '<html><script id="shop-settings">{"supportEmail":"a@shop.test"}</script></html>';
    expect(revision(serviceWorkerWithShell(worker, page))).toMatch(/^[0-9a-f]{32}$/);
    expect(serviceWorkerWithShell(worker, page)).toBe(serviceWorkerWithShell(worker, page));
    // A changed setting, or a new build of the page, makes a new worker that browsers install.
    expect(serviceWorkerWithShell(worker, page.replace('a@', 'b@'))).not.toBe(serviceWorkerWithShell(worker, page));
    expect(serviceWorkerWithShell(worker, page).replace(revision(serviceWorkerWithShell(worker, page))!, SHELL_REVISION_PLACEHOLDER)).toBe(worker);
  });
});
