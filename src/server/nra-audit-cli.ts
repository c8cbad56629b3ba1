import { writeFile } from 'node:fs/promises';
import { ConfigError, loadConfig } from './config.js';
import { DataDirInUseError, openDatabase } from '#server/db/client.js';
import { AuditFileError, auditFileXml, parseTaxMonth, windows1251 } from '#server/invoices/audit-file.js';
import { documentSettingsOf } from '#server/invoices/issue-documents.js';

const usage = `Usage:
  npm run nra:audit -- <month>               write the month's audit file (such as 2026-11) to standard output
  npm run nra:audit -- <month> --out <file>  write it to the file
It is the standardised audit file of Наредба Н-18 (Приложение № 38) for the revenue agency, in
windows-1251, made from the same database as the server (DATABASE_URL, or the embedded one in DATA_DIR).`;

async function run(args: string[]): Promise<number> {
  const [month, flag, file, ...rest] = args;
  if (!month || month.startsWith('-') || (flag !== undefined && (flag !== '--out' || !file)) || rest.length > 0) {
    console.error(usage);
    return 2;
  }
  parseTaxMonth(month);
  const config = loadConfig();
  const database = await openDatabase(config.databaseUrl ? { databaseUrl: config.databaseUrl } : { dataDir: config.dataDir });
  try {
    const audit = await auditFileXml(database.db, month, { ...documentSettingsOf(config), publicUrl: config.publicUrl });
    const bytes = windows1251(audit.xml);
    if (file) await writeFile(file, bytes);
    else process.stdout.write(bytes);
    console.warn(`The audit file of ${month}: ${audit.orders} orders paid, ${audit.returns} with money returned${file ? `, written to ${file}` : ''}.`);
    return 0;
  } finally {
    await database.close();
  }
}

try {
  process.exitCode = await run(process.argv.slice(2));
} catch (error) {
  const known = error instanceof ConfigError || error instanceof DataDirInUseError || error instanceof AuditFileError;
  console.error(known ? error.message : error);
  process.exitCode = 1;
}
