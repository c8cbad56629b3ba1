import { existsSync } from 'node:fs';
import path from 'node:path';
import { BackupError } from '#server/backup/backup-archive.js';
import { restoreBackup } from '#server/backup/restore.js';
import { ConfigError, loadConfig } from './config.js';
import { DataDirInUseError } from '#server/db/data-dir-lock.js';

const usage = `Usage:
  npm run restore -- <file>      restore a backup made by "npm run backup" into DATA_DIR
DATA_DIR must be empty or not exist yet, and no server may run on it. Start the shop on it afterwards.`;

async function run(args: string[]): Promise<number> {
  const [file] = args;
  if (args.length !== 1 || !file || file.startsWith('-')) {
    console.error(usage);
    return 2;
  }
  const config = loadConfig();
  if (config.databaseUrl) {
    console.error('DATABASE_URL is set: a shop on PostgreSQL is restored with pg_restore from a pg_dump file (see docs/operations/backups.md), not with this command.');
    return 1;
  }
  if (!existsSync(file)) throw new BackupError(`${path.resolve(file)} does not exist.`);
  const dataDir = path.resolve(config.dataDir);
  const { manifest, counts } = await restoreBackup(file, dataDir);
  console.warn(
    `Restored the backup of ${manifest.createdAt} (shop version ${manifest.appVersion}) into ${dataDir}: ` +
      `${counts.orders} orders, ${counts.products} products with ${counts.productPhotos} photos, currency ${manifest.currency ?? 'not recorded'}.` +
      (manifest.currency ? ` Start the shop with SHOP_CURRENCY=${manifest.currency}.` : ''),
  );
  return 0;
}

try {
  process.exitCode = await run(process.argv.slice(2));
} catch (error) {
  console.error(error instanceof ConfigError || error instanceof BackupError || error instanceof DataDirInUseError ? error.message : error);
  process.exitCode = 1;
}
