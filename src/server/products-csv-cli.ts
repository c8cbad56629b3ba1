import { createWriteStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ConfigError, loadConfig } from './config.js';
import { productsCsv } from '#server/catalog/product-export.js';
import { DataDirInUseError, openDatabase } from '#server/db/client.js';
import { productImagesFor } from '#server/images/product-images.js';
import { ImportImages } from '#server/import/import-images.js';
import { printImportReport } from '#server/import/import-report.js';
import { ProductCsvError, readProductCsv, type ProductCsvFormat } from '#server/import/product-csv.js';
import { importProductCsv } from '#server/import/product-import.js';

const usage = `Usage:
  npm run products:export [-- --out <file>]   the catalogue as Shopify's product CSV (standard output, or the file)
  npm run products:import -- <file> [--format shopify|woocommerce] [--images <folder>] [--dry-run]
The import reads Shopify's or WooCommerce's product CSV (told apart by its columns unless --format
says) into the shop's database (DATABASE_URL, or the embedded one in DATA_DIR, with the server
stopped). Photos are fetched from their addresses, or read from --images (files named as the
addresses end). --dry-run writes nothing and prints what would be done. Importing the same file
again changes nothing; a newer one updates what changed.`;

const MAX_FILE_BYTES = 50 * 1024 * 1024;

async function run([command, ...args]: string[]): Promise<number> {
  const config = loadConfig();
  const open = () => openDatabase(config.databaseUrl ? { databaseUrl: config.databaseUrl } : { dataDir: config.dataDir });
  if (command === 'export') {
    if (args.length !== 0 && (args.length !== 2 || args[0] !== '--out')) return usageError();
    const database = await open();
    try {
      const csv = Readable.from(productsCsv(database.db, config.publicUrl));
      if (args[1]) await pipeline(csv, createWriteStream(args[1]));
      else await pipeline(csv, process.stdout);
      return 0;
    } finally {
      await database.close();
    }
  }
  if (command !== 'import') return usageError();
  let file: string | undefined;
  let format: ProductCsvFormat | undefined;
  let images: string | undefined;
  let dryRun = false;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === '--dry-run') dryRun = true;
    else if (arg === '--images' && args[index + 1]) images = args[++index];
    else if (arg === '--format' && (args[index + 1] === 'shopify' || args[index + 1] === 'woocommerce')) format = args[++index] as ProductCsvFormat;
    else if (!arg.startsWith('-') && !file) file = arg;
    else return usageError();
  }
  if (!file) return usageError();
  const size = await stat(file).then(
    (info) => info.size,
    () => undefined,
  );
  if (size === undefined) throw new ProductCsvError(`${file} cannot be read.`);
  if (size > MAX_FILE_BYTES) throw new ProductCsvError(`${file} is larger than ${MAX_FILE_BYTES / 1024 / 1024} MB; split it and import each part.`);
  const csv = readProductCsv(await readFile(file, 'utf8'), format);
  const database = await open();
  try {
    const report = await importProductCsv(database.db, csv, { dryRun, images: new ImportImages(images), productImages: productImagesFor(database, config.dataDir), importedBy: 'import' });
    process.stdout.write(printImportReport(report));
    return 0;
  } finally {
    await database.close();
  }
}

function usageError(): number {
  console.error(usage);
  return 2;
}

try {
  process.exitCode = await run(process.argv.slice(2));
} catch (error) {
  const known = error instanceof ConfigError || error instanceof DataDirInUseError || error instanceof ProductCsvError;
  console.error(known ? error.message : error);
  process.exitCode = 1;
}
