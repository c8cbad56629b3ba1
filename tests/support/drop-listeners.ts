import pg from 'pg';

/**
 * Ends the database's connections that LISTEN (on the channel, or on any), as a restart of PostgreSQL
 * or a network fault would, and says how many it ended.
 */
export async function dropListeners(databaseUrl: string, channel?: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ ended: boolean }>(
      `select pg_terminate_backend(pid) as ended from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and query like $1`,
      [channel ? `LISTEN ${channel}` : 'LISTEN%'],
    );
    return rows.filter((row) => row.ended).length;
  } finally {
    await client.end();
  }
}
