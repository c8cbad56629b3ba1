import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { yieldingToTheNetwork } from './pglite-turns.js';

describe('PGlite yielding to the network', () => {
  let raw: PGlite;
  let client: PGlite;
  beforeAll(async () => {
    raw = new PGlite();
    await raw.exec('create table calls (n integer)');
    client = yieldingToTheNetwork(raw);
  });
  afterAll(async () => {
    await raw?.close();
  });

  /** Counts the event loop's turns (each of its check phases) until stopped. */
  function countTurns() {
    let turns = 0;
    let counting = true;
    const tick = () => {
      turns++;
      if (counting) setImmediate(tick);
    };
    setImmediate(tick);
    return {
      now: () => turns,
      stop: () => {
        counting = false;
      },
    };
  }

  it('starts each query, exec and transaction asked for at once in a turn of the loop of its own, in the order asked', async () => {
    const turns = countTurns();
    const startedIn: Array<[string, number]> = [];
    const started = (name: string) => startedIn.push([name, turns.now()]);
    await Promise.all([
      client.transaction(async (tx) => {
        started('transaction 1');
        await tx.query('insert into calls values (1)');
        await tx.query('insert into calls values (2)');
      }),
      client.query('insert into calls values (3)').then(() => started('query 3 ended')),
      client.exec('insert into calls values (4)').then(() => started('exec 4 ended')),
      client.transaction(async (tx) => {
        started('transaction 5');
        await tx.query('insert into calls values (5)');
      }),
    ]);
    turns.stop();
    expect(startedIn.map(([name]) => name)).toEqual(['transaction 1', 'query 3 ended', 'exec 4 ended', 'transaction 5']);
    const turnNumbers = startedIn.map(([, turn]) => turn);
    expect(new Set(turnNumbers).size).toBe(turnNumbers.length);
    expect((await client.query<{ n: number }>('select n from calls order by n')).rows.map((row) => row.n)).toEqual([1, 2, 3, 4, 5]);
  });

  it('passes a failure on to its caller alone, and runs what was asked after it', async () => {
    const failing = client.query('select * from no_such_table');
    const after = client.query<{ one: number }>('select 1 as one');
    await expect(failing).rejects.toThrow(/no_such_table/);
    expect((await after).rows).toEqual([{ one: 1 }]);
    await expect(
      client.transaction(async (tx) => {
        await tx.query('insert into calls values (6)');
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect((await client.query('select 1 from calls where n = 6')).rows).toEqual([]);
  });
});
