import { PGlite, types, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

/**
 * PGlite runs PostgreSQL inside WebAssembly, whose memory grows and never shrinks, and it starts with
 * the settings initdb writes for a dedicated database server. Its shared buffers alone were 128 MB,
 * all touched at start, so the process never held less (`npm run bench` measured peaks of 500-570 MB).
 * An embedded shop's working set is a few MB, and a page that misses the buffers is read from the
 * operating system's file cache, which the process does not pay for.
 * - shared_buffers 8 MB: 1,024 pages, more than a shop of a few hundred pieces reads (measured with
 *   `npm run bench` against 16 MB: about 12 MB less at peak under reads, cart and orders, no CPU cost
 *   seen, and a search over 1,000 pieces no slower; over 20,000 it reads more from the file cache);
 * - max_connections 10: PGlite serves one session, and the lock table and the per-backend arrays are
 *   sized by this (100 cost 9 MB);
 * - maintenance_work_mem 16 MB: a migration that builds an index on a large table sorts on disk
 *   beyond this, instead of growing the WebAssembly memory by 64 MB for good.
 * They are given on the command line, which overrides the data folder's postgresql.conf without
 * writing it (PGlite's postgresqlconf option would replace the whole file).
 */
const PGLITE_MEMORY_SETTINGS = { shared_buffers: '8MB', max_connections: '10', maintenance_work_mem: '16MB' };
const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, ...Object.entries(PGLITE_MEMORY_SETTINGS).flatMap(([name, value]) => ['-c', `${name}=${value}`])];

/**
 * The types whose text Drizzle reads itself, and so has PGlite leave as PostgreSQL writes it: dates,
 * times, intervals, and arrays of those and of numerics (drizzle-orm/pglite/session.js).
 */
const TYPES_DRIZZLE_READS = [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182];
const AS_WRITTEN = Object.fromEntries(TYPES_DRIZZLE_READS.map((type) => [type, (value: string) => value]));

/**
 * How the shop's embedded database is opened, in this thread or in its own (pglite-worker.ts).
 * PGlite bundles contrib extensions apart; the orders' e-mail search index needs pg_trgm. Drizzle
 * passes its own parsers with every query; the database has them already (AS_WRITTEN), so the
 * clients leave them out (client.ts, pglite-worker-client.ts).
 */
export const SHOP_PGLITE_OPTIONS = { extensions: { pg_trgm }, startParams: PGLITE_START_PARAMS, parsers: AS_WRITTEN } satisfies PGliteOptions;
