import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { matchPageRoute, type PageName } from '#shared/routes.js';

/** What the build's `.vite/manifest.json` says of each module: its file, and the chunks it imports. */
export type ViteManifest = Record<string, { file: string; imports?: string[] }>;

/**
 * Pages whose first paint waits for their own code, a chunk the app loads only when its router meets
 * the address: their module in Vite's manifest. A product page's largest paint is its photo, which
 * waited for the app's code, then this chunk.
 */
const PAGE_MODULES: Partial<Record<PageName, string>> = { product: 'features/catalog/product-page.tsx' };

/** The files of the chunks a module needs that the app's entry (index.html) does not load already. */
export function chunksBeyondEntry(manifest: ViteManifest, module: string): string[] {
  const closure = (start: string) => {
    const found = new Set<string>();
    const visit = (key: string) => {
      if (found.has(key) || !manifest[key]) return;
      found.add(key);
      for (const imported of manifest[key].imports ?? []) visit(imported);
    };
    visit(start);
    return found;
  };
  const loaded = closure('index.html');
  return [...closure(module)].filter((key) => !loaded.has(key)).map((key) => manifest[key]!.file);
}

/**
 * For a built app: the page's HTML with `modulepreload` links for its own chunks, so that they are
 * asked for with the page, beside the app's; the HTML as it is for other pages.
 */
export function withPageChunks(clientDir: string): (html: string, url: string) => Promise<string> {
  // Read once, and each page's links worked out once: every product's page is prepared with the same.
  let linksByModule: Promise<Map<string, string> | undefined> | undefined;
  return async (html, url) => {
    const page = matchPageRoute(url.split('?')[0] ?? '/')?.page;
    const module = page && PAGE_MODULES[page];
    if (!module) return html;
    // A build without a manifest (an older one) only loses the head start.
    linksByModule ??= readFile(path.join(clientDir, '.vite', 'manifest.json'), 'utf8').then(
      (text) => {
        const manifest = JSON.parse(text) as ViteManifest;
        const preloadTags = (chunks: string[]) => chunks.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`).join('');
        return new Map(Object.values(PAGE_MODULES).map((pageModule) => [pageModule, preloadTags(chunksBeyondEntry(manifest, pageModule))]));
      },
      () => undefined,
    );
    const links = (await linksByModule)?.get(module);
    return links ? html.replace('</head>', `${links}</head>`) : html;
  };
}
