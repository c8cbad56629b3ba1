import { execFile } from 'node:child_process';
import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { asc, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseLocation } from '#server/db/client.js';
import { orders, productPhotos, products } from '#server/db/schema.js';
import { legacyExport } from '../support/legacy-sample.js';
import { createPostgresDatabase, databaseTargets } from './test-app.js';
import { serverCommand } from '../support/server-code.js';

/** A command, on the database the environment names: PostgreSQL by DATABASE_URL, else the embedded one in DATA_DIR. */
const script = (file: string) => (args: string[], environment: Record<string, string>) => {
  const { DATABASE_URL: inherited, ...base } = process.env;
  void inherited;
  return promisify(execFile)(process.execPath, serverCommand(file, ...args), {
    env: { ...base, PUBLIC_URL: 'http://shop.test', SEED_DEMO: 'false', ...environment },
  });
};
const command = script('import-legacy-cli.ts');
const productsCommand = script('products-csv-cli.ts');

describe('npm run import:legacy', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'legacy-import-'));
    await writeFile(path.join(folder, 'export.json'), JSON.stringify(legacyExport('https://old-shop.example/photos')));
    await writeFile(path.join(folder, 'broken.json'), '{"orders": {');
    // A file too large to read at once, made sparse: it takes no room on the disk.
    await truncate(path.join(folder, 'huge.json'), 201 * 1024 * 1024).catch(async () => {
      await writeFile(path.join(folder, 'huge.json'), '');
      await truncate(path.join(folder, 'huge.json'), 201 * 1024 * 1024);
    });
    // The photos in a folder, named as their addresses end: the import reads them instead of fetching.
    const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#c98aa5' } }).png().toBuffer();
    for (const name of ['almond.png', 'coffin.png']) await writeFile(path.join(folder, name), png);
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  for (const target of databaseTargets) {
    it(`refuses a bad call and a broken file, reports a dry run, then imports with the photos of a folder [${target}]`, async () => {
      const database = target === 'postgres' ? await createPostgresDatabase() : undefined;
      const dataDir = await mkdtemp(path.join(tmpdir(), 'legacy-import-data-'));
      const environment: Record<string, string> = database ? { DATABASE_URL: database.url, DATA_DIR: dataDir } : { DATA_DIR: dataDir };
      const location: DatabaseLocation = database ? { databaseUrl: database.url } : { dataDir };
      try {
        await expect(command([], environment)).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('Usage:') });
        await expect(command([path.join(folder, 'broken.json')], environment)).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('The file is not valid JSON') });
        await expect(command([path.join(folder, 'huge.json')], environment)).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('is larger than 200 MB; split the export by collection') });

        const file = path.join(folder, 'export.json');
        const dryRun = await command([file, '--images', folder, '--dry-run'], environment);
        expect(dryRun.stdout).toContain('Dry run: nothing was written.');
        expect(dryRun.stdout).toContain('orders     4 create, 0 update, 0 leave unchanged, 2 skip');
        expect(dryRun.stdout).toContain('products / prod-glue / imageUrl: missing.png was not found in');

        const imported = await command([file, '--images', folder], environment);
        expect(imported.stdout).toMatch(/^Imported:\n/);
        expect(imported.stdout).toContain('products   4 created, 0 updated, 0 unchanged, 1 skipped');

        // The catalogue out as Shopify's CSV and checked back in by the product import's dry run: the
        // shop's own file updates the products it names rather than copying them.
        const csvFile = path.join(dataDir, 'products.csv');
        await productsCommand(['export', '--out', csvFile], environment);
        const checked = await productsCommand(['import', csvFile, '--dry-run'], environment);
        expect(checked.stdout).toContain('products  0 create, 4 update, 0 leave unchanged, 0 skip');

        const opened = await openDatabase(location);
        try {
          expect((await opened.db.select({ id: orders.id }).from(orders).orderBy(asc(orders.id))).map((order) => order.id)).toEqual(['ORD-1001', 'ORD-1002', 'ORD-1003', 'ORD-1004']);
          const photographed = await opened.db.select({ name: products.nameEn }).from(productPhotos).innerJoin(products, eq(products.id, productPhotos.productId)).orderBy(asc(products.nameEn));
          expect(photographed.map((row) => row.name)).toEqual(['Almond Pearl Set', 'Coffin Nude']);
        } finally {
          await opened.close();
        }
      } finally {
        await database?.drop();
        await rm(dataDir, { recursive: true, force: true });
      }
    }, 120_000);
  }
});
