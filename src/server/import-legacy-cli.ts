import { readFile, stat } from 'node:fs/promises';
import { ConfigError, loadConfig } from './config.js';
import { DataDirInUseError, openDatabase } from '#server/db/client.js';
import { productImagesFor } from '#server/images/product-images.js';
import { ImportImages } from '#server/import/import-images.js';
import { printImportReport } from '#server/import/import-report.js';
import { LegacyExportError, readLegacyExport } from '#server/import/legacy-export.js';
import { importLegacyExport } from '#server/import/legacy-import.js';

const usage = `Usage:
  npm run import:legacy -- <file> [--images <folder>] [--dry-run] [--currency BGN|EUR] [--language bg|en]
Imports the original app's data (a JSON export of its collections art-users, products, orders and
admins, as firestore-export-import writes it) into the shop's database (DATABASE_URL, or the embedded
one in DATA_DIR, with the server stopped). Product photos are fetched from their addresses, or read
from the folder given with --images (files named as the addresses end). The export's amounts are
in BGN unless --currency says otherwise; orders keep them, products are priced in the shop's
currency. Imported orders' e-mails will be in Bulgarian unless --language en. --dry-run writes
nothing and prints what would be done. Importing the same file again changes nothing; a newer
export updates what changed.`;

/** The largest export read: far more than a maker's shop holds, and what fits in memory at once. */
const MAX_FILE_BYTES = 200 * 1024 * 1024;

interface Arguments {
  file: string;
  images?: string;
  dryRun: boolean;
  currency: 'BGN' | 'EUR';
  language: 'bg' | 'en';
}

function parseArguments(args: string[]): Arguments | null {
  const parsed: Partial<Arguments> = { dryRun: false, currency: 'BGN', language: 'bg' };
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    const value = () => args[++index];
    if (arg === '--dry-run') parsed.dryRun = true;
    else if (arg === '--images') parsed.images = value();
    else if (arg === '--currency') {
      const currency = value();
      if (currency !== 'BGN' && currency !== 'EUR') return null;
      parsed.currency = currency;
    } else if (arg === '--language') {
      const language = value();
      if (language !== 'bg' && language !== 'en') return null;
      parsed.language = language;
    } else if (!arg.startsWith('-') && !parsed.file) parsed.file = arg;
    else return null;
  }
  if (!parsed.file || ('images' in parsed && !parsed.images)) return null;
  return parsed as Arguments;
}

async function run(args: string[]): Promise<number> {
  const options = parseArguments(args);
  if (!options) {
    console.error(usage);
    return 2;
  }
  const size = await stat(options.file).then(
    (info) => info.size,
    () => undefined,
  );
  if (size === undefined) throw new LegacyExportError(`${options.file} cannot be read.`);
  if (size > MAX_FILE_BYTES) throw new LegacyExportError(`${options.file} is larger than ${MAX_FILE_BYTES / 1024 / 1024} MB; split the export by collection and import each part.`);
  // Read before the database is opened: a file that is no export is refused having touched nothing.
  const data = readLegacyExport(await readFile(options.file, 'utf8'));
  const config = loadConfig();
  const database = await openDatabase(config.databaseUrl ? { databaseUrl: config.databaseUrl } : { dataDir: config.dataDir });
  try {
    const report = await importLegacyExport(database.db, data, {
      dryRun: options.dryRun,
      images: new ImportImages(options.images),
      productImages: productImagesFor(database, config.dataDir),
      shopCurrency: config.pricing.currency,
      exportCurrency: options.currency,
      orderLanguage: options.language,
      publicUrl: config.publicUrl,
    });
    process.stdout.write(printImportReport(report));
    return 0;
  } finally {
    await database.close();
  }
}

try {
  process.exitCode = await run(process.argv.slice(2));
} catch (error) {
  const known = error instanceof ConfigError || error instanceof DataDirInUseError || error instanceof LegacyExportError;
  console.error(known ? error.message : error);
  process.exitCode = 1;
}
