import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chunksBeyondEntry, withPageChunks, type ViteManifest } from './page-chunks.js';

const manifest: ViteManifest = {
  'index.html': { file: 'assets/index-1.js', imports: ['_react-2.js'] },
  '_react-2.js': { file: 'assets/react-2.js' },
  '_stars-3.js': { file: 'assets/stars-3.js', imports: ['_react-2.js', '_format-4.js'] },
  '_format-4.js': { file: 'assets/format-4.js' },
  'features/catalog/product-page.tsx': { file: 'assets/product-page-5.js', imports: ['index.html', '_react-2.js', '_stars-3.js'] },
};

describe("a page's own chunks", () => {
  const folders: string[] = [];
  afterAll(() => Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true }))));

  it('are the chunks its module needs, through their imports, beyond what the entry loads', () => {
    expect(chunksBeyondEntry(manifest, 'features/catalog/product-page.tsx').sort()).toEqual(['assets/format-4.js', 'assets/product-page-5.js', 'assets/stars-3.js']);
    expect(chunksBeyondEntry(manifest, 'features/unknown.tsx')).toEqual([]);
  });

  it("are asked for in a product page's HTML, and in no other page's", async () => {
    const clientDir = await mkdtemp(path.join(tmpdir(), 'page-chunks-'));
    folders.push(clientDir);
    await mkdir(path.join(clientDir, '.vite'));
    await writeFile(path.join(clientDir, '.vite', 'manifest.json'), JSON.stringify(manifest));
    const addChunks = withPageChunks(clientDir);
    const html = '<html><head><title>x</title></head><body></body></html>';
    const productPage = await addChunks(html, '/product/pearl-set?lang=bg');
    expect(productPage).toContain('<link rel="modulepreload" crossorigin href="/assets/product-page-5.js"><link rel="modulepreload" crossorigin href="/assets/stars-3.js"><link rel="modulepreload" crossorigin href="/assets/format-4.js"></head>');
    for (const url of ['/', '/cart', '/products/pearl-set']) expect(await addChunks(html, url)).toBe(html);
    // A build without a manifest only loses the head start.
    expect(await withPageChunks(path.join(clientDir, 'missing'))(html, '/product/pearl-set')).toBe(html);
  });
});
