import path from 'node:path';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from '#server/db/client.js';
import { copyImagesToDatabase } from '#server/images/copy-images-to-database.js';
import { DatabaseImageStore } from '#server/images/database-image-store.js';
import { FileImageStore } from '#server/images/file-image-store.js';

const noDatabase = `DATABASE_URL is not set, so there is no PostgreSQL to move the photos into.
With the embedded database the photos stay files under DATA_DIR/images, and nothing needs to move.
To move a shop's photos into PostgreSQL, name both places:
  DATABASE_URL=postgres://user:password@host:5432/shop DATA_DIR=/path/to/data npm run photos:to-database`;

/**
 * Copies the product photos under DATA_DIR/images into the PostgreSQL database named by
 * DATABASE_URL, where a shop on PostgreSQL keeps them. It may run while servers run, and again:
 * photos already in the database are skipped. The files are left in place.
 */
async function run(): Promise<number> {
  const config = loadConfig();
  if (!config.databaseUrl) {
    console.error(noDatabase);
    return 2;
  }
  const files = new FileImageStore(config.dataDir);
  const database = await openDatabase({ databaseUrl: config.databaseUrl });
  try {
    console.warn(`Copying the photos in ${files.root} into PostgreSQL...`);
    const report = await copyImagesToDatabase(files, new DatabaseImageStore(database.db));
    if (!report.found) {
      console.warn(`No photos found in ${files.root}: nothing to copy. (Is DATA_DIR=${path.resolve(config.dataDir)} the shop's folder?)`);
      return 0;
    }
    console.warn(`${report.found} photo(s) found: ${report.copied} copied, ${report.alreadyThere} already in the database.`);
    if (report.incomplete.length) {
      console.warn(`${report.incomplete.length} photo(s) lack a width in the files and were copied as they are:\n  ${report.incomplete.join('\n  ')}`);
    }
    console.warn(`The servers now serve them from PostgreSQL; ${files.root} may be archived and removed once the shop shows its photos.`);
    return 0;
  } finally {
    await database.close();
  }
}

try {
  process.exitCode = await run();
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exitCode = 1;
}
