import { mkdir, rename, rm } from 'node:fs/promises';
import { PGlite, type Transaction as PgliteTransaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { SHOP_PGLITE_OPTIONS } from './pglite-options.js';
import { emptyDatabaseFolder, migrationsFolder, startPglite, type StartingPglite } from './pglite-start.js';
import type { PgliteWorkerClient } from './pglite-worker-client.js';
import * as schema from './schema.js';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** Where a query can run: the database itself, or a transaction in progress. */
export type Executor = Database | Transaction;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  /**
   * Receives NOTIFY messages on a channel until the returned function is called. When the connection
   * is lost, onLost runs at once; once it is restored, onReconnect runs, since messages sent meanwhile are gone.
   */
  listen(channel: string, onMessage: (payload: string) => void, onReconnect?: () => void, onLost?: () => void): Promise<() => Promise<void>>;
  /** How the connections are used at this moment, for monitoring. */
  poolStats?(): PoolStats;
  close(): Promise<void>;
}

export interface PoolStats {
  /** The most connections the server process opens. */
  max: number;
  /** The connections open now, busy or idle (LISTEN's own connections apart). */
  total: number;
  /** Open connections no query is using; absent where the driver cannot tell. */
  idle?: number;
  /** Queries waiting for a connection; absent where the driver cannot tell. */
  waiting?: number;
}

// openDatabase throws it, so its callers find it here.
export { DataDirInUseError } from './data-dir-lock.js';

export type DatabaseLocation =
  | { databaseUrl: string }
  | { dataDir: string }
  /** snapshot: a tarball of a data directory (PGlite's loadDataDir) to start from (tests start from a migrated one); the migrations still run. */
  | { inMemory: true; snapshot?: Blob }
  /** A DATA_DIR's database whose thread startPglite has started (pglite-start.ts). */
  | { starting: StartingPglite };

/** An advisory lock key, arbitrary but fixed, that serialises migrations across server processes. */
const MIGRATION_LOCK = 7_260_001;
const VACUUM_INTERVAL_MS = 24 * 60 * 60 * 1000;

/** Opens the database and brings its schema up to date. */
export async function openDatabase(location: DatabaseLocation): Promise<DatabaseHandle> {
  const handle =
    'databaseUrl' in location
      ? await openPostgres(location.databaseUrl)
      : await openPglite('dataDir' in location ? await startPglite(location.dataDir) : 'starting' in location ? location.starting : { inMemory: location.snapshot });
  // Closing twice (a shutdown racing a failure, say) closes once.
  let closed: Promise<void> | undefined;
  return { ...handle, close: () => (closed ??= handle.close()) };
}

const POSTGRES_POOL_SIZE = 10;

// PostgreSQL's autovacuum keeps its planner statistics and visibility map current, so only PGlite needs the daily vacuum below.
async function openPostgres(databaseUrl: string): Promise<DatabaseHandle> {
  // JIT compilation pays off for long analytical queries; the shop's are short, and compiling took
  // longer than running them (136 ms of one dashboard query's 444 ms on 1,000,000 orders), so every
  // connection starts with it off (docs/operations/postgresql.md says what a pooler needs for this).
  const pool = new pg.Pool({ connectionString: databaseUrl, max: POSTGRES_POOL_SIZE, options: '-c jit=off' });
  let closing = false;
  // An idle connection can drop (database restart, network fault); the pool replaces it on next use.
  // Without a handler, the error would end the process.
  pool.on('error', (error) => {
    if (!closing) console.warn(`A PostgreSQL connection was lost: ${error.message}`);
  });
  try {
    const db = drizzlePostgres({ client: pool, schema });
    // Several processes may start at once on a new database; one migrates while the others wait.
    const lock = await pool.connect();
    try {
      await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
      await migratePostgres(db, { migrationsFolder });
    } finally {
      await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
      lock.release();
    }
    const listeners = new Set<() => Promise<void>>();
    return {
      db: db as unknown as Database,
      kind: 'postgres',
      async listen(channel, onMessage, onReconnect, onLost) {
        const stop = await listenOnPostgres(databaseUrl, channel, onMessage, onReconnect, onLost);
        listeners.add(stop);
        return async () => {
          listeners.delete(stop);
          await stop();
        };
      },
      poolStats: () => ({ max: POSTGRES_POOL_SIZE, total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      async close() {
        closing = true;
        await Promise.all([...listeners].map((stop) => stop()));
        await pool.end();
      },
    };
  } catch (error) {
    await pool.end();
    throw error;
  }
}

/**
 * The PGlite client Drizzle is given in this thread: its queries without the parsers Drizzle passes
 * with each, which the database has already (SHOP_PGLITE_OPTIONS). PGlite merges a query's parsers
 * into a copy of all of its own (318 of them) at every query: a small query took 147 µs of the event
 * loop with them, 62 without. The database's own thread gets no parsers either: functions cannot
 * cross to it (pglite-worker-client.ts sends the row mode alone).
 */
function withoutQueryParsers<Client extends Pick<PGlite, 'query'>>(client: Client): Client {
  return new Proxy(client, {
    get(target, property) {
      if (property === 'query') {
        return (query: string, params?: unknown[], options?: Parameters<PGlite['query']>[2]) =>
          target.query(query, params, options?.parsers ? { ...options, parsers: undefined } : options);
      }
      if (property === 'transaction') {
        return <T>(work: (tx: PgliteTransaction) => Promise<T>) => (target as unknown as PGlite).transaction((tx) => work(withoutQueryParsers(tx)));
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * A DATA_DIR's database runs in a thread of its own (pglite-worker-client.ts, started by
 * pglite-start.ts), so that PostgreSQL's work leaves the server's event loop free; a database in
 * memory (the tests') runs on this thread.
 */
async function openPglite(source: StartingPglite | { inMemory: Blob | undefined }): Promise<DatabaseHandle> {
  const starting = 'client' in source ? source : undefined;
  const releaseLock = starting ? starting.releaseLock : () => {};
  let client: PgliteWorkerClient | PGlite | undefined;
  try {
    const isNew = !starting || starting.isNew;
    client = starting ? await starting.client : new PGlite({ ...SHOP_PGLITE_OPTIONS, loadDataDir: 'inMemory' in source ? source.inMemory : undefined });
    const db = drizzlePglite({ client: (client instanceof PGlite ? withoutQueryParsers(client) : client) as PGlite, schema });
    await migratePglite(db, { migrationsFolder });
    // PGlite has no autovacuum. Without planner statistics a search for a rare e-mail walks the whole
    // orders table instead of using its index: they are gathered at start (a new database has none to
    // gather) and daily. Without vacuuming, the visibility map stays empty and every index-only scan
    // reads the table too (the dashboard at 1,000,000 orders: 1.2 s, against 0.34 s vacuumed): the
    // daily run vacuums as well, which at that size holds the one connection for about 3 s.
    if (!isNew) await client.exec('analyze');
    const opened = client;
    const vacuumDaily = setInterval(() => void opened.exec('vacuum analyze').catch(() => {}), VACUUM_INTERVAL_MS);
    vacuumDaily.unref();
    return {
      db: db as unknown as Database,
      kind: 'pglite',
      async listen(channel, onMessage) {
        const stop = await opened.listen(channel, onMessage);
        // PGlite's stop takes an optional transaction to UNLISTEN in; a hook that passes its own argument (Fastify's onClose passes the app) must not reach it.
        return () => stop();
      },
      // One connection in the process, running one query at a time; it does not say how many wait their turn.
      poolStats: () => ({ max: 1, total: 1 }),
      close: async () => {
        clearInterval(vacuumDaily);
        await opened.close();
        releaseLock();
      },
    };
  } catch (error) {
    await client?.close().catch(() => {});
    releaseLock();
    throw error;
  }
}

/**
 * Writes a migrated, empty embedded database folder: by default where a new DATA_DIR starts from
 * (the build calls it through scripts/save-empty-database.mjs); the tests' databases start from one
 * too. It is written beside the folder and renamed, so that a folder of that name is always a whole
 * database, and closed, so that a start from it has no crash recovery to run (a copy of a running
 * database's files, as PGlite's dumpDataDir takes, has). Without initdb's template databases: the
 * shop has one database and never creates another, and they were half the folder's files, each of
 * which every new DATA_DIR copied.
 */
export async function saveEmptyDatabase(folder = emptyDatabaseFolder()): Promise<string> {
  const creating = `${folder}.creating`;
  await rm(creating, { recursive: true, force: true });
  await mkdir(creating, { recursive: true, mode: 0o700 });
  const client = new PGlite(creating, { extensions: { pg_trgm } });
  try {
    await migratePglite(drizzlePglite({ client, schema }), { migrationsFolder });
    for (const template of ['template0', 'template1']) {
      await client.exec(`alter database ${template} is_template false`);
      await client.exec(`drop database ${template}`);
    }
  } finally {
    await client.close();
  }
  await rm(folder, { recursive: true, force: true });
  await rename(creating, folder);
  return folder;
}

const CHANNEL_NAME = /^[a-z_][a-z0-9_]*$/;

/**
 * LISTEN needs a connection of its own, outside the pool. When it drops (a restart of the
 * database, a network fault) it is opened again, with growing pauses, for as long as it is wanted.
 */
async function listenOnPostgres(
  databaseUrl: string,
  channel: string,
  onMessage: (payload: string) => void,
  onReconnect?: () => void,
  onLost?: () => void,
): Promise<() => Promise<void>> {
  if (!CHANNEL_NAME.test(channel)) throw new Error(`Invalid channel name ${channel}`);
  let stopped = false;
  let client: pg.Client | undefined;
  let retryTimer: NodeJS.Timeout | undefined;

  const connect = async (attempt: number): Promise<void> => {
    const next = new pg.Client({ connectionString: databaseUrl });
    next.on('notification', (message) => {
      if (message.channel === channel) onMessage(message.payload ?? '');
    });
    const reconnect = () => {
      if (stopped || client !== next) return;
      client = undefined;
      onLost?.();
      next.end().catch(() => {});
      retryTimer = setTimeout(() => void connect(1).then(() => onReconnect?.()).catch(() => {}), 1000);
    };
    next.on('error', reconnect);
    next.on('end', reconnect);
    try {
      await next.connect();
      await next.query(`LISTEN ${channel}`);
      client = next;
      if (stopped) await next.end();
    } catch (error) {
      await next.end().catch(() => {});
      if (stopped) return;
      if (attempt === 0) throw error;
      await new Promise((resolve) => (retryTimer = setTimeout(resolve, Math.min(30_000, 1000 * 2 ** attempt))));
      return connect(attempt + 1);
    }
  };

  await connect(0);
  return async () => {
    stopped = true;
    clearTimeout(retryTimer);
    const current = client;
    client = undefined;
    await current?.end().catch(() => {});
  };
}
