import { describe, expect, it } from 'vitest';
import { ruleMessages } from './lint-probe.js';

/** Lints one import as if it were written in the given file. */
const importErrors = (filePath: string, importPath: string, ruleId: string) => ruleMessages(filePath, `import { probe } from '${importPath}';\nexport const used = probe;\n`, ruleId);
/** The layer rules (no-restricted-imports). */
const layerErrors = (filePath: string, importPath: string) => importErrors(filePath, importPath, 'no-restricted-imports');
/** The module boundaries (typescript-eslint's copy of the rule). */
const boundaryErrors = (filePath: string, importPath: string) => importErrors(filePath, importPath, '@typescript-eslint/no-restricted-imports');

describe('the client imports one way', () => {
  it.each([
    ['src/client/ui/probe.tsx', '#client/features/catalog/product-card.js'],
    ['src/client/ui/modal/probe.tsx', '#client/features/catalog/product-card.js'],
    ['src/client/cart/probe.ts', '#client/app/router.js'],
    ['src/client/session/probe.tsx', '#client/app/layout/header.js'],
    ['src/client/live/probe.tsx', '#client/features/admin/admin-api.js'],
    ['src/client/settings.ts', '#client/features/checkout/checkout-page.js'],
    ['src/client/early-requests.ts', '#client/app/app.js'],
  ])('the shared client (%s) may not import %s', async (file, imported) => {
    expect(await layerErrors(file, imported)).toEqual([expect.stringContaining('imports neither the features nor the app shell')]);
  });

  it.each([
    ['src/client/features/checkout/probe.tsx', '#client/features/cart/cart-page.js'],
    ['src/client/features/admin/panels/probe.tsx', '#client/features/cart/cart-page.js'],
  ])('a feature (%s) may not import another feature: %s', async (file, imported) => {
    expect(await layerErrors(file, imported)).toEqual([expect.stringContaining('Features do not import each other')]);
  });

  it.each([
    ['src/client/features/checkout/probe.tsx', '#client/app/router.js'],
    ['src/client/features/admin/panels/probe.tsx', '#client/app/router.js'],
  ])('a feature (%s) may not import the app shell: %s', async (file, imported) => {
    expect(await layerErrors(file, imported)).toEqual([expect.stringContaining('Features do not import the app shell')]);
  });

  it.each([
    ['src/client/ui/probe.tsx', '#server/config.js'],
    ['src/client/features/cart/probe.tsx', '#server/cart/service.js'],
    ['src/client/ui/probe.tsx', 'node:fs'],
    ['src/shared/probe.ts', '#server/config.js'],
    ['src/shared/probe.ts', '#client/ui/button.js'],
  ])('%s may not import %s', async (file, imported) => {
    expect(await layerErrors(file, imported)).not.toEqual([]);
  });

  it.each([
    ['src/client/ui/probe.tsx', '#client/i18n/i18n.js'],
    ['src/client/cart/probe.ts', '#client/api/http.js'],
    ['src/client/features/checkout/probe.tsx', '#client/cart/cart-context.js'],
    ['src/client/features/checkout/probe.tsx', './checkout-form.js'],
    ['src/client/features/admin/panels/probe.tsx', '../admin-api.js'],
    ['src/client/app/probe.tsx', '#client/features/cart/cart-page.js'],
    ['src/client/main.tsx', '#client/app/app.js'],
    ['src/client/ui/probe.tsx', '#shared/money.js'],
  ])('%s may import %s', async (file, imported) => {
    expect(await layerErrors(file, imported)).toEqual([]);
    expect(await boundaryErrors(file, imported)).toEqual([]);
  });
});

describe('the server imports one way', () => {
  it.each([
    ['src/server/notices/probe.ts', '#server/live/routes.js'],
    ['src/server/notices/probe.ts', '#server/cart/service.js'],
    ['src/server/http/probe.ts', '#server/live/probe.js'],
    ['src/server/mail/probe.ts', '#server/invoices/service.js'],
    ['src/server/db/probe.ts', '#server/returns/service.js'],
    ['src/server/images/probe.ts', '#server/reviews/service.js'],
    ['src/server/metrics/probe.ts', '#server/couriers/service.js'],
  ])('the infrastructure (%s) may not import a feature module: %s', async (file, imported) => {
    expect(await layerErrors(file, imported)).toContainEqual(expect.stringContaining('sits below the feature modules'));
  });

  it.each([
    ['src/server/cart/probe.ts', '#server/main.js', 'Entry points are run'],
    ['src/server/cart/probe.ts', '#server/app.js', 'app.ts is built by start-server.ts'],
    ['src/server/pages.ts', './app.js', 'app.ts is built by start-server.ts'],
    ['src/server/cart/probe.ts', '#server/orders/routes.js', 'Routes sit on top of the services'],
    ['src/server/cart/probe.ts', './routes.js', 'Routes sit on top of the services'],
    ['src/server/cart/probe.ts', '#client/ui/button.js', 'The server never imports client code'],
    ['src/server/returns/probe.ts', '#server/pages.js', 'pages.ts is part of the app shell'],
    ['src/server/similar-pieces/probe.ts', '#server/reviews/routes.js', 'Routes sit on top of the services'],
    ['src/server/config.ts', '#server/db/client.js', 'the bottom of the server'],
  ])('%s may not import %s', async (file, imported, message) => {
    expect(await layerErrors(file, imported)).toEqual([expect.stringContaining(message)]);
  });

  it.each([
    ['src/server/cart/probe.ts', '#server/notices/live-hub.js'],
    ['src/server/live/routes.ts', '#server/notices/live-hub.js'],
    ['src/server/http/probe.ts', '#server/notices/live-hub.js'],
    ['src/server/cart/probe.ts', '#shared/routes.js'],
    ['src/server/start-server.ts', './app.js'],
  ])('%s may import %s', async (file, imported) => {
    expect(await layerErrors(file, imported)).toEqual([]);
    expect(await boundaryErrors(file, imported)).toEqual([]);
  });
});

describe('a module imports another by its name, not by a relative path out of itself', () => {
  it.each([
    ['src/server/cart/probe.ts', '../db/client.js'],
    ['src/server/catalog/deep/probe.ts', '../../db/client.js'],
    ['src/server/cart/probe.ts', '../../shared/money.js'],
    ['src/server/app.ts', './catalog/routes.js'],
    ['src/server/app.ts', '../shared/money.js'],
    ['src/client/ui/probe.tsx', '../features/catalog/product-card.js'],
    ['src/client/ui/modal/probe.tsx', '../../i18n/i18n.js'],
    ['src/client/features/checkout/probe.tsx', '../cart/cart-page.js'],
    ['src/client/features/admin/panels/probe.tsx', '../../cart/cart-page.js'],
    ['src/client/main.tsx', './app/app.js'],
    ['src/shared/probe.ts', '../server/config.js'],
  ])('%s may not import %s', async (file, imported) => {
    expect(await boundaryErrors(file, imported)).toEqual([expect.stringContaining('imported by its name')]);
  });

  it.each([
    ['src/server/catalog/probe.ts', './product-queries.js'],
    ['src/server/catalog/deep/probe.ts', '../product-queries.js'],
    ['src/client/ui/modal/probe.tsx', '../button.js'],
    ['src/client/features/admin/panels/probe.tsx', '../admin-api.js'],
    ['src/shared/probe.ts', './money.js'],
  ])('%s may import %s', async (file, imported) => {
    expect(await boundaryErrors(file, imported)).toEqual([]);
  });
});
