import type pg from 'pg';
import { eventually } from './shopper.js';

/**
 * Resolves once PostgreSQL has another connection waiting for a lock that `holder` holds (of
 * `lockType`, pg_locks' locktype, when given): the event a test of a blocked statement waits for,
 * where a pause could end before the statement got there. pg_locks is read anew at each call
 * (pg_stat_activity would be read once per transaction).
 */
export async function someoneWaitsFor(holder: pg.Client, what: string, lockType?: string): Promise<void> {
  const { pid } = (await holder.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!;
  await eventually(
    async () =>
      (
        await holder.query<{ waiting: boolean }>(
          'select exists (select 1 from pg_locks where not granted and ($2::text is null or locktype = $2) and $1 = any(pg_blocking_pids(pid))) as waiting',
          [pid, lockType ?? null],
        )
      ).rows[0]!.waiting,
    10_000,
    what,
  );
}
