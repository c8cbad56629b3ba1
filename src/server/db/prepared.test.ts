import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './client.js';
import { PreparedStatement } from './prepared.js';

// PGlite is where the statement's values are written into EXECUTE as literals; the cart's API tests
// run the prepared statements on PostgreSQL as well. The statements need no schema of the shop's,
// so the database is a bare one, with a table to find gone: migrating one from nothing took most of
// a minute on a busy machine.
describe('PreparedStatement on PGlite', () => {
  let client: PGlite;
  let database: { db: Database };
  beforeAll(async () => {
    client = new PGlite();
    await client.exec('create table users (id integer)');
    database = { db: drizzle({ client }) as unknown as Database };
  });
  afterAll(async () => {
    await client?.close();
  });

  it('hands every value over unchanged, quotes and backslashes included', async () => {
    const echo = new PreparedStatement<{ text: string; number: number; nothing: string | null; flag: boolean }>(
      'test_echo',
      'select $1::text as text, $2::integer as number, $3::text as nothing, $4::boolean as flag',
    );
    const tricky = `it's a \\'quoted'\\ value'); drop table users; --`;
    expect(await echo.run(database.db, database.db, [tricky, -7, null, true])).toEqual([{ text: tricky, number: -7, nothing: null, flag: true }]);
    expect(await echo.run(database.db, database.db, ['again', 0, 'x', false])).toEqual([{ text: 'again', number: 0, nothing: 'x', flag: false }]);
    // Had the value escaped its quotes, the table it names would be gone.
    await expect(database.db.execute(sql`select 1 from users limit 1`)).resolves.toBeDefined();
  });

  it('stays prepared after the transaction that prepared it rolled back', async () => {
    const one = new PreparedStatement<{ one: number }>('test_one', 'select 1 as one');
    await expect(
      database.db.transaction(async (tx) => {
        expect(await one.run(database.db, tx, [])).toEqual([{ one: 1 }]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await one.run(database.db, database.db, [])).toEqual([{ one: 1 }]);
  });

  it('is prepared once when many requests and a transaction use it first at the same time', async () => {
    const square = new PreparedStatement<{ square: number }>('test_square', 'select $1::integer * $1::integer as square');
    const outside = Array.from({ length: 20 }, (_, index) => square.run(database.db, database.db, [index]));
    // Inside a transaction it cannot wait for the PREPARE sent outside it (PGlite would run that
    // only after the transaction), so it must answer without it rather than never.
    const inside = database.db.transaction(async (tx) => [await square.run(database.db, tx, [7]), await square.run(database.db, tx, [8])]);
    const [rows, transactionRows] = await Promise.all([Promise.all(outside), inside]);
    expect(rows.map(([row]) => row!.square)).toEqual(Array.from({ length: 20 }, (_, index) => index * index));
    expect(transactionRows.map(([row]) => row!.square)).toEqual([49, 64]);
    const prepared = (await database.db.execute(sql`select count(*)::int as count from pg_prepared_statements where name = 'test_square'`)) as unknown as { rows: unknown[] };
    expect(prepared.rows).toEqual([{ count: 1 }]);
  });

  it('refuses a value it cannot write as a literal', async () => {
    const echo = new PreparedStatement<{ number: number }>('test_number', 'select $1::integer as number');
    await expect(echo.run(database.db, database.db, [Number.NaN])).rejects.toThrow('Cannot pass NaN');
  });
});
