import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import * as tar from 'tar';
import type { TestProject } from 'vitest/node';
import { openDatabase, saveEmptyDatabase } from '#server/db/client.js';
import { dropLeftoverDatabases } from './leftover-databases.mjs';

/*
 * Vitest global setup. Creating a database and running every migration on it costs far more than the
 * test bodies of most API blocks (PGlite's initdb alone takes seconds), so the run migrates one
 * database of each kind here and every test database starts as a copy of it. openDatabase still
 * migrates each copy, which finds nothing to do, so tests open databases the way the server does.
 */

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated, closed PGlite data directory, for a server process's new DATA_DIR to copy. */
    pgliteSnapshotFolder: string;
    /** The same data directory as a tarball, for loadDataDir. */
    pgliteSnapshot: string;
    /** A migrated database on TEST_DATABASE_URL's server, for CREATE DATABASE ... TEMPLATE; absent without that server. */
    postgresTemplate?: string;
  }
}

export default async function setupDatabaseTemplates(project: TestProject): Promise<() => Promise<void>> {
  const folder = await mkdtemp(path.join(tmpdir(), 'shop-test-templates-'));
  const serverUrl = process.env.TEST_DATABASE_URL;
  // Named after the run, so that runs at the same time on one server (other checkouts, CI jobs) keep apart.
  const templateName = serverUrl ? `shop_template_${process.pid}_${randomBytes(4).toString('hex')}` : undefined;
  const teardown = async () => {
    if (serverUrl && templateName) await dropPostgresTemplate(serverUrl, templateName);
    await rm(folder, { recursive: true, force: true });
  };
  try {
    if (serverUrl) await dropLeftoverDatabases(serverUrl);
    const snapshotFile = path.join(folder, 'migrated-pglite.tar');
    const snapshotFolder = path.join(folder, 'migrated-pglite');
    const savePgliteSnapshot = async () => {
      await saveEmptyDatabase(snapshotFolder);
      // Entries named from the folder's root, as PGlite's loadDataDir unpacks them (under its data directory).
      await tar.create({ cwd: snapshotFolder, file: snapshotFile, portable: true }, await readdir(snapshotFolder));
    };
    // PGlite's work is in this process, PostgreSQL's on its server: they can go on at once.
    await Promise.all([savePgliteSnapshot(), serverUrl && templateName ? createPostgresTemplate(serverUrl, templateName) : undefined]);
    project.provide('pgliteSnapshot', snapshotFile);
    project.provide('pgliteSnapshotFolder', snapshotFolder);
    if (templateName) project.provide('postgresTemplate', templateName);
    return teardown;
  } catch (error) {
    await teardown();
    throw error;
  }
}

async function createPostgresTemplate(serverUrl: string, name: string): Promise<void> {
  await onServer(serverUrl, `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString() });
  await database.close();
  // PostgreSQL copies a template only while nobody is connected to it; refusing connections keeps it so.
  await onServer(serverUrl, `alter database ${name} allow_connections false`);
}

async function dropPostgresTemplate(serverUrl: string, name: string): Promise<void> {
  await onServer(serverUrl, `drop database if exists ${name} with (force)`);
}

async function onServer(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
