import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, saveEmptyDatabase, type DatabaseHandle } from '#server/db/client.js';
import { emptyDatabaseFolder } from '#server/db/pglite-start.js';
import { testsEmbeddedDatabase } from './test-app.js';

// The embedded database's memory (src/server/db/client.ts): PostgreSQL's settings inside PGlite, and a
// new DATA_DIR copied from the build's saved empty database rather than loaded through memory.

describe.skipIf(!testsEmbeddedDatabase)('The embedded database on a new DATA_DIR', () => {
  let dataDir: string;
  let database: DatabaseHandle;
  let opened: number;

  beforeAll(async () => {
    // The build saves it (npm run build:server); a run of the tests without a build saves it here.
    if (!existsSync(emptyDatabaseFolder())) await saveEmptyDatabase();
    // Whole seconds: the files keep the times tar gave them, to the second.
    opened = Math.floor(Date.now() / 1000) * 1000;
    dataDir = await mkdtemp(path.join(tmpdir(), 'shop-pglite-memory-'));
    database = await openDatabase({ dataDir });
  }, 120_000);

  // The database type is common to both drivers and leaves execute's result untyped; PGlite's has rows.
  const rows = async (query: SQL) => ((await database.db.execute(query)) as unknown as { rows: unknown[] }).rows;

  afterAll(async () => {
    await database?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("starts from the build's saved empty database, migrated, with nothing left of the copying", async () => {
    // Its files keep the times they had when the build saved them; initdb would have written them now.
    expect((await stat(path.join(dataDir, 'db', 'PG_VERSION'))).mtimeMs).toBeLessThan(opened);
    expect((await readdir(dataDir)).filter((name) => name.startsWith('db.'))).toEqual([]);
    const [row] = await rows(sql`select count(*)::int as products from products`);
    expect(row).toEqual({ products: 0 });
  });

  it('is saved closed, so that a start from it has no crash recovery to run', async () => {
    // PostgreSQL's control file: the system identifier (8 bytes) and two version numbers (4 each), then
    // the cluster's state: 1 once shut down, 6 while in production (as in a copy of a running one's files).
    const controlFile = await readFile(path.join(emptyDatabaseFolder(), 'global', 'pg_control'));
    expect(controlFile.readUInt32LE(16)).toBe(1);
  });

  it("holds the shop's database alone, without initdb's templates, which each new folder would copy", async () => {
    expect(await rows(sql`select datname from pg_database order by datname`)).toEqual([{ datname: 'postgres' }]);
    expect((await readdir(path.join(dataDir, 'db', 'base'))).length).toBe(1);
  });

  it('runs PostgreSQL with the small memory settings, not those initdb wrote', async () => {
    const [settings] = await rows(
      sql`select current_setting('shared_buffers') as shared_buffers, current_setting('max_connections') as max_connections, current_setting('maintenance_work_mem') as maintenance_work_mem`,
    );
    expect(settings).toEqual({ shared_buffers: '8MB', max_connections: '10', maintenance_work_mem: '16MB' });
  });
});
