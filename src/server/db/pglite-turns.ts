import type { PGlite } from '@electric-sql/pglite';

type TurnTaker = Pick<PGlite, 'query' | 'exec' | 'transaction'>;

/**
 * PGlite runs each query on this process's event loop, and when one ends the next one waiting starts
 * at once, in the same turn of the loop. Under load the loop then went back to the network only once
 * every waiting query had run. Node accepts one new connection per turn (libuv), so at 50 connections
 * the last ones waited seconds to be accepted, some past a client's 10 s timeout, while the ones
 * already accepted were served again and again (docs/benchmarks/2026-11-30-pglite-turns.md).
 *
 * Here each query, exec or transaction of the database itself (not the statements inside a
 * transaction) starts in a turn of its own, in the order asked for, which is the order PGlite runs
 * them in anyway: between two of them the loop accepts a connection and reads what has arrived.
 */
export function yieldingToTheNetwork<Client extends TurnTaker>(client: Client): Client {
  let previous: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const run = previous.then(nextTurn).then(work);
    previous = run.catch(() => {});
    return run;
  };
  return new Proxy(client, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      if (property === 'query' || property === 'exec' || property === 'transaction') {
        return (...args: unknown[]) => inTurn(() => (value as (...args: unknown[]) => Promise<unknown>).apply(target, args));
      }
      return value.bind(target);
    },
  });
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
