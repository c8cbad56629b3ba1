import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { SHOP_PGLITE_OPTIONS } from './pglite-options.js';

/*
 * The embedded database in a thread of its own (pglite-worker-client.ts starts it and speaks for it):
 * PostgreSQL's work, most of an order's CPU on PGlite, runs beside the server's event loop instead of
 * on it. Requests are taken in the order they arrive and handed to PGlite at once, as the server's
 * own calls were when the database ran on its thread, so PGlite orders them as it did: a query asked
 * for while a transaction is open waits for it.
 */

export type WorkerRequest = { id: number } & (
  | { op: 'query'; sql: string; params?: unknown[]; rowMode?: 'array' | 'object'; tx?: number }
  | { op: 'exec'; sql: string; tx?: number }
  /**
   * Opens a transaction, whose id is the request's, and answers once it is open. The statements and
   * the end sent after it with that id wait for it to open, so the caller need not wait for the answer.
   */
  | { op: 'begin' }
  | { op: 'end'; tx: number; commit: boolean }
  /** Starts forwarding a channel's notifications, as WorkerNotification with the request's id. */
  | { op: 'listen'; channel: string }
  | { op: 'unlisten'; listener: number }
  | { op: 'dump' }
  | { op: 'close' }
);

export type WorkerReply = { id: number; value?: unknown; error?: SerialisedError };
export type WorkerNotification = { listener: number; payload: string };
export type WorkerStarted = { started: true } | { startFailed: SerialisedError };

/** An error as a message carries it: structured cloning keeps an Error's message but not PostgreSQL's fields (code, constraint…). */
export type SerialisedError = { message: string; name: string; stack?: string; fields: Record<string, string | number | boolean> };

interface OpenTransaction {
  tx: Transaction;
  finish(commit: boolean): void;
  ended: Promise<unknown>;
}

/** Thrown inside PGlite's transaction to have it rolled back; never leaves this thread. */
const ROLLBACK = Symbol('rollback');

const port = parentPort!;
const { dataDir } = workerData as { dataDir: string };
const client = new PGlite(dataDir, SHOP_PGLITE_OPTIONS);
/** Each transaction from its begin's arrival to its end's: it resolves once PGlite has opened it. */
const transactions = new Map<number, Promise<OpenTransaction>>();
const listeners = new Map<number, () => Promise<void>>();

client.waitReady.then(
  () => port.postMessage({ started: true } satisfies WorkerStarted),
  (error: unknown) => port.postMessage({ startFailed: serialised(error) } satisfies WorkerStarted),
);

port.on('message', (request: WorkerRequest) => {
  perform(request).then(
    (value) => reply({ id: request.id, value }),
    (error: unknown) => reply({ id: request.id, error: serialised(error) }),
  );
});

/** Sends an answer. One that cannot be copied to the server's thread fails its own call, not the thread. */
function reply(message: WorkerReply): void {
  try {
    port.postMessage(message);
  } catch (error) {
    port.postMessage({ id: message.id, error: serialised(error) } satisfies WorkerReply);
  }
}

async function perform(request: WorkerRequest): Promise<unknown> {
  switch (request.op) {
    case 'query':
      return (await executor(request.tx)).query(request.sql, request.params, request.rowMode ? { rowMode: request.rowMode } : undefined);
    case 'exec':
      return (await executor(request.tx)).exec(request.sql);
    case 'begin':
      return begin(request.id);
    case 'end': {
      try {
        const open = await openTransaction(request.tx);
        open.finish(request.commit);
        await open.ended;
      } finally {
        // Kept until here when it failed to open, so that its statements fail with the reason.
        transactions.delete(request.tx);
      }
      return undefined;
    }
    case 'listen': {
      const { id, channel } = request;
      listeners.set(id, await client.listen(channel, (payload) => port.postMessage({ listener: id, payload } satisfies WorkerNotification)));
      return undefined;
    }
    case 'unlisten': {
      const stop = listeners.get(request.listener);
      listeners.delete(request.listener);
      await stop?.();
      return undefined;
    }
    case 'dump':
      return client.dumpDataDir('none');
    case 'close':
      await client.close();
      // Nothing more will come: the thread ends once this answer is sent.
      port.unref();
      return undefined;
  }
}

async function executor(tx: number | undefined): Promise<PGlite | Transaction> {
  return tx === undefined ? client : (await openTransaction(tx)).tx;
}

/** The transaction once open; it fails as its begin did. */
function openTransaction(tx: number): Promise<OpenTransaction> {
  return transactions.get(tx) ?? Promise.reject(new Error(`No open transaction ${tx}`));
}

/** Answers once PGlite has begun the transaction; it stays open until its `end` request. */
function begin(id: number): Promise<number> {
  let finish!: (commit: boolean) => void;
  const decided = new Promise<void>((commit, rollBack) => (finish = (commit_) => (commit_ ? commit() : rollBack(ROLLBACK))));
  let opened = false;
  const open = new Promise<OpenTransaction>((resolve, failedToOpen) => {
    const ended = client
      .transaction(async (tx) => {
        opened = true;
        resolve({ tx, finish, ended });
        await decided;
      })
      .catch((error: unknown) => {
        if (!opened) failedToOpen(error);
        else if (error !== ROLLBACK) throw error;
      });
  });
  transactions.set(id, open);
  return open.then(() => id);
}

function serialised(error: unknown): SerialisedError {
  if (!(error instanceof Error)) return { message: String(error), name: 'Error', fields: {} };
  // PostgreSQL's fields are strings and numbers; PGlite adds the query's parameters and options, which need not cross.
  const fields: SerialisedError['fields'] = {};
  for (const [key, value] of Object.entries(error)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') fields[key] = value;
  }
  return { message: error.message, name: error.name, stack: error.stack, fields };
}
