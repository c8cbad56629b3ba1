import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { expect } from 'vitest';
import * as schema from '#server/db/schema.js';
import { projectPath } from '#server/project-path.js';
import { createPostgresDatabase } from './test-app.js';

// A migration is tested on a database that has the migrations before it and data of that time.

const migrations = projectPath('src/server/db/migrations');

/** A copy of the migrations folder that ends just before the named migration. */
async function migrationsBefore(tag: string): Promise<{ folder: string; remove(): Promise<void> }> {
  const folder = await mkdtemp(path.join(tmpdir(), 'shop-migrations-'));
  await cp(migrations, folder, { recursive: true });
  const journalPath = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalPath, 'utf8')) as { entries: { tag: string }[] };
  const cut = journal.entries.findIndex((entry) => entry.tag === tag);
  expect(cut).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, cut);
  await writeFile(journalPath, JSON.stringify(journal));
  return { folder, remove: () => rm(folder, { recursive: true, force: true }) };
}

type Db = ReturnType<typeof drizzlePglite<typeof schema>> | ReturnType<typeof drizzlePostgres<typeof schema>>;

export interface Target {
  db: Db;
  migrate(folder: string): Promise<void>;
  close(): Promise<void>;
}

/** A fresh, empty database of the kind. */
async function openTarget(kind: 'pglite' | 'postgres'): Promise<Target> {
  if (kind === 'pglite') {
    const client = new PGlite({ extensions: { pg_trgm } });
    const db = drizzlePglite({ client, schema });
    return { db, migrate: (folder) => migratePglite(db, { migrationsFolder: folder }), close: () => client.close() };
  }
  const database = await createPostgresDatabase();
  const pool = new pg.Pool({ connectionString: database.url });
  // pg-pool's end() resolves once it has told its connections to close, not once they have; a drop
  // (with force) made meanwhile ended one, which the pool, having no handler, threw out of the run.
  const connectionsClosed: Promise<void>[] = [];
  pool.on('connect', (client) => connectionsClosed.push(new Promise((resolve) => client.once('end', () => resolve()))));
  const db = drizzlePostgres({ client: pool, schema });
  return {
    db,
    migrate: (folder) => migratePostgres(db, { migrationsFolder: folder }),
    close: async () => {
      await pool.end();
      await Promise.all(connectionsClosed);
      await database.drop();
    },
  };
}

/** A database with the migrations before the named one, then `fill` run on it, then the rest. */
export async function migratedWith(kind: 'pglite' | 'postgres', tag: string, fill: (db: Db) => Promise<void>): Promise<Target> {
  const target = await openTarget(kind);
  const before = await migrationsBefore(tag);
  try {
    await target.migrate(before.folder);
  } finally {
    await before.remove();
  }
  await fill(target.db);
  await target.migrate(migrations);
  return target;
}
