import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 4180);
export const baseURL = `http://127.0.0.1:${port}`;

/**
 * Debian's old headless shell (package chromium-headless-shell) where it is installed, as Playwright's
 * own downloads use for headless runs: the same engine without the browser's window machinery, which
 * took a fifth less time than the full browser on the tests measured. Otherwise the full browser, or
 * CHROMIUM_PATH.
 */
const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';
const chromium = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  // On two cores, two workers left the CPU partly idle while tests waited for timers and answers
  // (the suite alone: 11.4 min), four kept it busy (9.6 min); three, because the browser tests start
  // beside the last Vitest pass (scripts/test-unit.mjs).
  workers: 3,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  use: {
    baseURL,
    locale: 'en-US',
    // The trace of a failed test keeps its DOM snapshots; its screencast, encoded for every test that
    // passes too, cost a tenth of the suite's CPU. CI keeps only its log, so there the trace, recorded
    // for every test in case it fails, is not recorded at all: a sixth of the suite's time, measured.
    trace: process.env.CI ? 'off' : { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    // The offline worker answers requests before page.route() can see them, so tests that fake
    // responses would test the worker's cache instead. It is tested on its own in offline.spec.ts.
    serviceWorkers: 'block',
    launchOptions: {
      executablePath: chromium,
      // This machine has no network beyond the registries; these keep Chromium from trying.
      args: ['--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic', '--no-first-run'],
    },
  },
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } } },
    {
      name: 'phone',
      use: { ...devices['Desktop Chrome'], viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
    },
  ],
  webServer: {
    command: 'node tests/e2e/serve.mjs',
    url: `${baseURL}/api/health`,
    env: { PORT: String(port) },
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
