// Plain JavaScript, for the browser tests' server script (tests/e2e/serve.mjs) as well as the Vitest
// run's global setup (database-templates.ts).
import pg from 'pg';

/**
 * Drops the databases of test runs that were killed before they could drop them: their names
 * (shop_template_<pid>_… and shop_test_<pid>_…) carry the pid of the process that made them, which
 * is gone. So they do not pile up on the server.
 */
export async function dropLeftoverDatabases(serverUrl) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const { rows } = await client.query(`select datname from pg_database where datname ~ '^shop_(template|test)_[0-9]+_'`);
    for (const { datname } of rows) {
      const pid = Number(datname.split('_')[2]);
      if (isRunning(pid)) continue;
      await client.query(`drop database if exists ${datname} with (force)`).catch(() => {});
    }
  } finally {
    await client.end();
  }
}

function isRunning(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return error.code === 'EPERM';
  }
}
