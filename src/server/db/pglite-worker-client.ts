import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { QueryOptions, Results } from '@electric-sql/pglite';
import type { SerialisedError, WorkerNotification, WorkerReply, WorkerRequest, WorkerStarted } from './pglite-worker.js';

/** Omit applied to each member of a union, so that each request keeps its own fields. */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
type Request = DistributiveOmit<WorkerRequest, 'id'>;

/** What the shop asks of the embedded database, here or in a transaction of it. */
export interface PgliteExecutor {
  query<T>(query: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(query: string): Promise<Results[]>;
}

/**
 * The embedded database, run in a worker thread (pglite-worker.ts), behind the part of PGlite's
 * interface the shop and Drizzle use. On the server's own thread PostgreSQL's work held the event
 * loop: a checkout's statements left no turn for the sockets, and reads waited behind orders
 * (docs/benchmarks/2026-12-07-pglite-worker.md). Here the loop only sends and receives messages.
 *
 * Each call is a message, answered in turn; the thread hands them to PGlite in the order they were
 * sent, which is the order PGlite ran them in on this thread, so a call made while a transaction is
 * open waits for it as before.
 */
export class PgliteWorkerClient implements PgliteExecutor {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private readonly listeners = new Map<number, (payload: string) => void>();
  /** Set once the thread has ended: every call from then on fails with it. */
  private stopped: Error | undefined;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (message: WorkerReply | WorkerNotification) => {
      if ('listener' in message) {
        this.listeners.get(message.listener)?.(message.payload);
        return;
      }
      const waiting = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.error) waiting?.reject(revived(message.error));
      else waiting?.resolve(message.value);
    });
    // An error PGlite's requests do not catch (the WebAssembly aborting, say) ends the thread.
    worker.on('error', (error) => this.stop(new Error(`The embedded database stopped: ${error.message}`, { cause: error })));
    worker.on('exit', (code) => this.stop(new Error(`The embedded database stopped (its thread exited with ${code})`)));
  }

  /** Starts the thread and opens the database in the folder; resolves once PostgreSQL is ready. */
  static async open(dataDir: string): Promise<PgliteWorkerClient> {
    const worker = here.endsWith('.ts')
      ? new Worker(throughTsx(), { eval: true, workerData: { dataDir } })
      : new Worker(WORKER_FILE, { workerData: { dataDir }, execArgv: optionsForAThread(process.execArgv) });
    const started = await new Promise<WorkerStarted>((resolve, reject) => {
      const exited = (code: number) => reject(new Error(`The embedded database's thread exited with ${code} before it started`));
      worker.once('error', reject);
      worker.once('exit', exited);
      worker.once('message', (message: WorkerStarted) => {
        worker.off('error', reject);
        worker.off('exit', exited);
        resolve(message);
      });
    });
    if ('startFailed' in started) {
      await worker.terminate();
      throw revived(started.startFailed);
    }
    return new PgliteWorkerClient(worker);
  }

  query<T>(query: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.call({ op: 'query', sql: query, params, rowMode: options?.rowMode }) as Promise<Results<T>>;
  }

  exec(query: string): Promise<Results[]> {
    return this.call({ op: 'exec', sql: query }) as Promise<Results[]>;
  }

  /** Runs the work in a transaction, committed when it resolves and rolled back when it throws. */
  async transaction<T>(work: (tx: PgliteExecutor) => Promise<T>): Promise<T> {
    // Not waited for: the thread opens the transaction before it runs the statements sent after it
    // (a round trip less while PGlite's one session is held), and they fail as the begin did.
    const tx = this.nextId++;
    this.call({ op: 'begin' }, tx).catch(() => {});
    let result: T;
    try {
      result = await work({
        query: <R>(query: string, params?: unknown[], options?: QueryOptions) =>
          this.call({ op: 'query', sql: query, params, rowMode: options?.rowMode, tx }) as Promise<Results<R>>,
        exec: (query: string) => this.call({ op: 'exec', sql: query, tx }) as Promise<Results[]>,
      });
    } catch (error) {
      // The work's own error is the one to report; a failed rollback would only hide it.
      await this.call({ op: 'end', tx, commit: false }).catch(() => {});
      throw error;
    }
    await this.call({ op: 'end', tx, commit: true });
    return result;
  }

  /** Receives NOTIFY messages on the channel until the returned function is called. */
  async listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>> {
    const listener = this.nextId++;
    this.listeners.set(listener, onMessage);
    try {
      await this.call({ op: 'listen', channel }, listener);
    } catch (error) {
      this.listeners.delete(listener);
      throw error;
    }
    return async () => {
      this.listeners.delete(listener);
      await this.call({ op: 'unlisten', listener });
    };
  }

  /** The database's files as a tarball, as PGlite's dumpDataDir writes them. */
  dumpDataDir(_compression: 'none'): Promise<File> {
    return this.call({ op: 'dump' }) as Promise<File>;
  }

  async close(): Promise<void> {
    if (this.stopped) return;
    const exited = new Promise((resolve) => this.worker.once('exit', resolve));
    await this.call({ op: 'close' });
    await exited;
  }

  /** Sends a request and waits for its answer; a listen's id names its notifications too. */
  private call(request: Request, id = this.nextId++): Promise<unknown> {
    if (this.stopped) return Promise.reject(this.stopped);
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...request, id });
    });
  }

  private stop(reason: Error): void {
    this.stopped ??= reason;
    for (const waiting of this.pending.values()) waiting.reject(this.stopped);
    this.pending.clear();
  }
}

/**
 * The thread's module beside this one: compiled JavaScript when the server runs, TypeScript in the
 * tests and the command-line tools, which a thread loads once tsx's loader is registered in it.
 */
const here = fileURLToPath(import.meta.url);
const WORKER_FILE = path.join(path.dirname(here), `pglite-worker${path.extname(here)}`);
const throughTsx = () =>
  `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then(({ register }) => { register(); return import(${JSON.stringify(pathToFileURL(WORKER_FILE).href)}); })`;

/**
 * The thread inherits the process's options (a CPU profile's, say), unless the process runs code
 * given by -e with its type named (`--input-type`, as the tests' server processes do): a thread
 * started from a file refuses that option, and one given options of its own refuses V8's, so it
 * then gets none.
 */
export function optionsForAThread(options: readonly string[]): string[] | undefined {
  return options.some((option) => option.startsWith('--input-type')) ? [] : undefined;
}

/** A database error as the thread sent it, with PostgreSQL's fields (code, constraint…) where the shop looks for them. */
function revived(error: SerialisedError): Error {
  const revivedError = Object.assign(new Error(error.message), error.fields);
  revivedError.name = error.name;
  if (error.stack) revivedError.stack = error.stack;
  return revivedError;
}
