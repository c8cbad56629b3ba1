import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { projectPath } from '../../src/server/project-path.js';

/** Lints one import as if it were written in the given file, with the project's own eslint.config.js. */
const eslint = new ESLint({ cwd: projectPath() });
async function layerErrors(filePath: string, importPath: string): Promise<string[]> {
  const [result] = await eslint.lintText(`import { probe } from '${importPath}';\nexport const used = probe;\n`, { filePath });
  return result!.messages.filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message);
}

describe('the client imports one way', () => {
  it.each([
    ['src/client/ui/probe.tsx', '../features/catalog/product-card.js'],
    ['src/client/ui/modal/probe.tsx', '../../features/catalog/product-card.js'],
    ['src/client/cart/probe.ts', '../app/router.js'],
    ['src/client/session/probe.tsx', '../app/layout/header.js'],
    ['src/client/live/probe.tsx', '../features/admin/admin-api.js'],
    ['src/client/settings.ts', './features/checkout/checkout-page.js'],
    ['src/client/early-requests.ts', './app/app.js'],
  ])('the shared client (%s) may not import %s', async (file, imported) => {
    expect(await layerErrors(file, imported)).toEqual([expect.stringContaining('imports neither the features nor the app shell')]);
  });

  it.each([
    ['src/client/features/checkout/probe.tsx', '../cart/cart-page.js'],
    ['src/client/features/checkout/probe.tsx', '../../features/cart/cart-page.js'],
  ])('a feature (%s) may not import another feature: %s', async (file, imported) => {
    expect(await layerErrors(file, imported)).toEqual([expect.stringContaining('Features do not import each other')]);
  });

  it.each([
    ['src/client/features/checkout/probe.tsx', '../../app/router.js'],
    ['src/client/features/admin/panels/probe.tsx', '../../../app/router.js'],
  ])('a feature (%s) may not import the app shell: %s', async (file, imported) => {
    expect(await layerErrors(file, imported)).toEqual([expect.stringContaining('Features do not import the app shell')]);
  });

  it.each([
    ['src/client/ui/probe.tsx', '../i18n/i18n.js'],
    ['src/client/cart/probe.ts', '../api/http.js'],
    ['src/client/features/checkout/probe.tsx', '../../cart/cart-context.js'],
    ['src/client/features/checkout/probe.tsx', './checkout-form.js'],
    ['src/client/app/probe.tsx', '../features/cart/cart-page.js'],
    ['src/client/main.tsx', './app/app.js'],
  ])('%s may import %s', async (file, imported) => {
    expect(await layerErrors(file, imported)).toEqual([]);
  });
});

describe('the server imports one way', () => {
  it.each([
    ['src/server/notices/probe.ts', '../live/routes.js'],
    ['src/server/notices/probe.ts', '../cart/service.js'],
    ['src/server/http/probe.ts', '../live/probe.js'],
  ])('the infrastructure (%s) may not import a feature module: %s', async (file, imported) => {
    expect(await layerErrors(file, imported)).not.toEqual([]);
  });

  it.each([
    ['src/server/cart/probe.ts', '../notices/live-hub.js'],
    ['src/server/live/routes.ts', '../notices/live-hub.js'],
    ['src/server/http/probe.ts', '../notices/live-hub.js'],
  ])('%s may import %s', async (file, imported) => {
    expect(await layerErrors(file, imported)).toEqual([]);
  });
});
