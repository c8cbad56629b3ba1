import { addAdmin, listAdmins, removeAdmin } from '#server/auth/roles.js';
import { ConfigError, loadConfig } from './config.js';
import { DataDirInUseError, openDatabase } from '#server/db/client.js';

const usage = `Usage:
  npm run admin -- add <email>      make the e-mail an admin
  npm run admin -- remove <email>   take the admin role away
  npm run admin -- list             list the admins
It uses the same database as the server (DATABASE_URL, or the embedded one in DATA_DIR).`;

async function run(command: string | undefined, typedEmail: string | undefined): Promise<number> {
  const email = typedEmail?.trim().toLowerCase();
  if (command !== 'list' && (command !== 'add' && command !== 'remove')) {
    console.error(usage);
    return 2;
  }
  if (command !== 'list' && !email?.includes('@')) {
    console.error(`An e-mail address is needed.\n\n${usage}`);
    return 2;
  }
  const config = loadConfig();
  const database = await openDatabase(config.databaseUrl ? { databaseUrl: config.databaseUrl } : { dataDir: config.dataDir });
  try {
    if (command === 'list') {
      const admins = await listAdmins(database.db);
      console.warn(admins.length ? admins.join('\n') : 'No admins yet.');
    } else if (command === 'add') {
      console.warn((await addAdmin(database.db, email!)) ? `${email} is now an admin.` : `${email} was already an admin.`);
    } else {
      console.warn((await removeAdmin(database.db, email!)) ? `${email} is no longer an admin.` : `${email} was not an admin.`);
    }
    return 0;
  } finally {
    await database.close();
  }
}

try {
  process.exitCode = await run(process.argv[2], process.argv[3]);
} catch (error) {
  console.error(error instanceof ConfigError || error instanceof DataDirInUseError ? error.message : error);
  process.exitCode = 1;
}
