import { cpSync, existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveEmptyDatabase } from './client.js';
import { emptyDatabaseFolder } from './pglite-start.js';
import { optionsForAThread, PgliteWorkerClient } from './pglite-worker-client.js';

describe('The embedded database in its own thread', () => {
  let folder: string;
  let client: PgliteWorkerClient;

  beforeAll(async () => {
    if (!existsSync(emptyDatabaseFolder())) await saveEmptyDatabase();
    folder = await mkdtemp(path.join(tmpdir(), 'shop-pglite-worker-'));
    cpSync(emptyDatabaseFolder(), path.join(folder, 'db'), { recursive: true });
    client = await PgliteWorkerClient.open(path.join(folder, 'db'));
    await client.exec('create table notes (id int primary key, text text not null)');
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('answers queries with their rows, as objects or as arrays', async () => {
    await client.query('insert into notes values ($1, $2), ($3, $4)', [1, 'one', 2, 'two']);
    expect((await client.query('select id, text from notes order by id')).rows).toEqual([
      { id: 1, text: 'one' },
      { id: 2, text: 'two' },
    ]);
    expect((await client.query('select id, text from notes where id = $1', [2], { rowMode: 'array' })).rows).toEqual([[2, 'two']]);
    // Dates stay as PostgreSQL writes them, for Drizzle to read.
    expect((await client.query("select timestamptz '2026-01-02 03:04:05+00' as at")).rows).toEqual([{ at: '2026-01-02 03:04:05+00' }]);
  });

  it("gives PostgreSQL's error fields to the caller, where the shop reads the code and the constraint", async () => {
    const failure = await client.query('insert into notes values (1, $1)', ['again']).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(failure).toMatchObject({ code: '23505', constraint: 'notes_pkey', message: expect.stringContaining('duplicate key') });
    // The database goes on.
    expect((await client.query('select count(*)::int as n from notes')).rows).toEqual([{ n: 2 }]);
  });

  it("runs each transaction's statements in it when they are sent before its begin is answered, many transactions at once", async () => {
    await client.exec('create table tallies (owner int primary key, count int not null)');
    // Each transaction reads, then writes what it read plus one: in a transaction of its own each time,
    // and one after another, the tallies end exact.
    const bump = (owner: number) =>
      client.transaction(async (tx) => {
        const [row] = (await tx.query<{ count: number }>('select count from tallies where owner = $1', [owner])).rows;
        if (row) await tx.query('update tallies set count = $2 where owner = $1', [owner, row.count + 1]);
        else await tx.query('insert into tallies values ($1, 1)', [owner]);
      });
    await Promise.all(Array.from({ length: 40 }, (_, index) => bump(index % 4)));
    expect((await client.query('select owner, count from tallies order by owner')).rows).toEqual([0, 1, 2, 3].map((owner) => ({ owner, count: 10 })));
    // A transaction that writes nothing and one rolled back leave nothing open behind them.
    await client.transaction(async () => {});
    await expect(client.transaction(async () => Promise.reject(new Error('nothing')))).rejects.toThrow('nothing');
    expect((await client.query<{ n: number }>('select count(*)::int as n from tallies')).rows).toEqual([{ n: 4 }]);
  });

  it('commits a transaction whose work resolves, and rolls back one whose work throws, with its own error', async () => {
    const result = await client.transaction(async (tx) => {
      await tx.query('insert into notes values (3, $1)', ['three']);
      return (await tx.query<{ n: number }>('select count(*)::int as n from notes')).rows[0]!.n;
    });
    expect(result).toBe(3);
    const failure = new Error('changed my mind');
    await expect(
      client.transaction(async (tx) => {
        await tx.exec("insert into notes values (4, 'four')");
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect((await client.query('select id from notes order by id')).rows).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
  });

  it('runs a query asked for while a transaction is open after that transaction, as PGlite did on one thread', async () => {
    const order: string[] = [];
    let outside: Promise<unknown> | undefined;
    await client.transaction(async (tx) => {
      outside = client.query('select 1').then(() => order.push('query outside'));
      await new Promise((resolve) => setTimeout(resolve, 50));
      await tx.query('select 1');
      order.push('transaction');
    });
    await outside;
    expect(order).toEqual(['transaction', 'query outside']);
  });

  it("hands on a committed NOTIFY before the commit's answer, so a cache dropped on it is dropped before the writer goes on", async () => {
    const heard: string[] = [];
    const stop = await client.listen('notes_changed', (payload) => heard.push(payload));
    await client.transaction(async (tx) => {
      await tx.query("select pg_notify('notes_changed', 'three')");
      expect(heard).toEqual([]);
    });
    expect(heard).toEqual(['three']);
    await stop();
    await client.query("select pg_notify('notes_changed', 'unheard')");
    await client.query('select 1');
    expect(heard).toEqual(['three']);
  });

  it("leaves this thread's event loop free while the database works", async () => {
    let turns = 0;
    let counting = true;
    const count = () => {
      turns += 1;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const started = performance.now();
    await client.query('select count(*) from generate_series(1, 2000000)');
    const took = performance.now() - started;
    counting = false;
    // On the server's thread, PGlite held the loop for the whole query: one turn.
    expect(took).toBeGreaterThan(50);
    expect(turns).toBeGreaterThan(10);
  });

  it("dumps the database's files as a tarball", async () => {
    const dump = await client.dumpDataDir('none');
    expect(dump.size).toBeGreaterThan(1_000_000);
    // A tar header: the name of the first entry, then, at 257, the format's mark.
    const header = new Uint8Array(await dump.slice(0, 512).arrayBuffer());
    expect(new TextDecoder().decode(header.slice(257, 262))).toBe('ustar');
  });

  it('refuses calls once closed, and its thread has ended', async () => {
    cpSync(emptyDatabaseFolder(), path.join(folder, 'db-other'), { recursive: true });
    const other = await PgliteWorkerClient.open(path.join(folder, 'db-other'));
    await other.close();
    await expect(other.query('select 1')).rejects.toThrow(/stopped/);
  }, 60_000);
});

describe("The options a database's thread inherits", () => {
  it("are the process's own, or none when it runs code given by -e with its type, which a thread started from a file refuses", () => {
    expect(optionsForAThread(['--max-semi-space-size=4', '--cpu-prof'])).toBeUndefined();
    expect(optionsForAThread(['--input-type=module', '-e', 'code'])).toEqual([]);
    expect(optionsForAThread(['--input-type', 'module', '-e', 'code'])).toEqual([]);
  });
});
