import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database, DatabaseHandle, Transaction } from '#server/db/client.js';
import { encodedAnswers, pickAnswer, type EncodedAnswers } from '#server/http/content-encoding.js';
import type { ReadyAnswer } from '#server/http/short-path.js';
import { catalogueState, preparedCatalogueState } from './catalogue-state.js';

const compressWithBrotli = promisify(brotliCompress);
const compressWithGzip = promisify(gzip);


/** An answer serialised and compressed once, then sent as it is for as long as the catalogue stays the same. */
export interface PreparedResponse {
  /** The body as read, before it was compressed. */
  body: Buffer;
  /** Its answers in each encoding, with their 304s. */
  answers: EncodedAnswers;
}

/** What a read found to answer, before it is compressed. */
export interface ResponseContent {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const JSON_CONTENT = 'application/json; charset=utf-8';
const asJson = (value: object): ResponseContent => ({ status: 200, headers: { 'content-type': JSON_CONTENT }, body: JSON.stringify(value) });

/** The channel of migration 0010's triggers: a product, its stock or shop_state was written. */
export const CHANGE_CHANNEL = 'catalogue_touched';

/** Enough for every page, category, sort and product of a handmade shop; searches are what push the oldest out. */
const MAX_PREPARED_RESPONSES = 200;

/** Compressing happens while a visitor waits for the rebuilt answer, so speed matters more than the last few bytes. */
const BROTLI_QUALITY = 5;

/** The answers read in one snapshot together with the state they are tagged with; repeatable read makes the snapshot last the whole transaction. */
const SNAPSHOT = { isolationLevel: 'repeatable read', accessMode: 'read only' } as const;

/**
 * Keeps the cache following the catalogue's changes for as long as the app runs: it trusts the change
 * notices, and distrusts its state after each request of this process that may have written.
 */
export async function followCatalogueChanges(app: FastifyInstance, database: DatabaseHandle, cache: CatalogueCache, maxStalenessMs = MAX_STALENESS_MS): Promise<void> {
  app.addHook('onClose', await cache.trustChangeNotices(database, maxStalenessMs));
  if (database.kind !== 'postgres') return;
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') cache.distrust();
    done(null, payload);
  });
}

/** A read of the catalogue's state: its value, the tick at which it began, and when (performance.now()). */
interface StateRead {
  value: string;
  readAt: number;
  startedMs: number;
}

interface Built {
  /** The catalogue state read in the same snapshot as the answer. */
  state: string;
  /** The tick at which the snapshot was about to begin. */
  startedAt: number;
  /** Undefined when there is nothing to answer (no such product). */
  response: PreparedResponse | undefined;
}

/**
 * The most a catalogue answer may lag a committed change on PostgreSQL when the change's notice is
 * lost (docs/decisions/0023-bounded-catalogue-staleness.md).
 */
export const MAX_STALENESS_MS = 1000;

/**
 * The catalogue's answers, prepared once per query (serialised, compressed, given an ETag) and
 * served until the catalogue changes. A request is answered from the catalogue's state as this
 * process knows it: the state read last, for as long as it is known to be current, else a new read
 * of the state (a cheap read that requests arriving together share). A change notice (migration
 * 0010's triggers, on any write to the products, their stock or shop_state) drops every answer.
 *
 * - On the embedded database, which serves one process and delivers a change's notice before its
 *   commit returns, a state is current until the next notice: no request reads it.
 * - On PostgreSQL a notice reaches the other processes a little after the commit, on another
 *   connection. A state is current until the next notice, for at most MAX_STALENESS_MS after its read
 *   began (which covers a lost notice), and never after a request of this process that may have
 *   written (any but GET and HEAD: `distrust`), so that a writer reads its own writes. While the
 *   notices' connection is down, every request reads the state, as without notices.
 * - Placing an order reads current prices and stock whatever the catalogue showed (409 on a change).
 *
 * Times are compared as ticks of one counter, taken when a request arrives, a state read starts
 * and a snapshot starts. An answer may serve a request if its snapshot started after the request
 * arrived, or if it was read at a state equal to one read after the request arrived.
 */
export class CatalogueCache {
  private ticks = 0;
  /** The state of the latest state read, at which every stored answer was read, and that read's tick. */
  private state: StateRead | undefined;
  /** In the order of last use, so that the first is the one to drop. */
  private readonly entries = new Map<string, PreparedResponse>();
  private readonly building = new Map<string, Promise<Built>>();
  private readonly latestState: SharedRead<StateRead>;
  /** Set while the change notices are trusted: the tick of the latest notice, or of `distrust` (0 before any). */
  private noticeAt: number | undefined;
  /** How long a state read stays current without a notice, once notices are trusted. */
  private trustedForMs = Number.POSITIVE_INFINITY;

  constructor(
    private readonly db: Database,
    private readonly maxEntries = MAX_PREPARED_RESPONSES,
  ) {
    const readState = preparedCatalogueState(db);
    this.latestState = new SharedRead(async () => {
      const readAt = this.tick();
      const startedMs = performance.now();
      return { value: await readState(), readAt, startedMs };
    });
  }

  /**
   * Answers without reading the state while it is known to be current (see the class): until the next
   * notice on the embedded database, and for at most `maxStalenessMs` on PostgreSQL.
   */
  async trustChangeNotices(database: Pick<DatabaseHandle, 'kind' | 'listen'>, maxStalenessMs = MAX_STALENESS_MS): Promise<() => Promise<void>> {
    const changed = () => {
      this.noticeAt = this.tick();
      // Whatever the change was (a price written without a new version, too), every answer held, or
      // being read, may be from before it.
      this.entries.clear();
      this.building.clear();
      this.state = undefined;
    };
    this.trustedForMs = database.kind === 'pglite' ? Number.POSITIVE_INFINITY : maxStalenessMs;
    const stop = await database.listen(CHANGE_CHANNEL, changed, changed, () => {
      // Notices sent while the connection is down are lost: every request reads the state until it is back.
      this.noticeAt = undefined;
    });
    this.noticeAt ??= 0;
    return async () => {
      this.noticeAt = undefined;
      await stop();
    };
  }

  /** This process may have changed the catalogue: the next request reads the state (needed on PostgreSQL only, whose notices come later). */
  distrust(): void {
    if (this.noticeAt !== undefined && this.trustedForMs !== Number.POSITIVE_INFINITY) this.noticeAt = this.tick();
  }

  /**
   * The stored answer for the key when it can be sent with no read at all (the state is known to be
   * current), for the short path; undefined: `answer` must be asked.
   */
  peek(key: string): PreparedResponse | undefined {
    return this.stateIsCurrent() ? this.usedEntry(key) : undefined;
  }

  /** The stored answer for the key, moved to the end of the order of last use. */
  private usedEntry(key: string): PreparedResponse | undefined {
    const stored = this.entries.get(key);
    if (stored) {
      this.entries.delete(key);
      this.entries.set(key, stored);
    }
    return stored;
  }

  /** How many answers are stored. */
  get size(): number {
    return this.entries.size;
  }

  /**
   * The prepared JSON answer for the key, read by `read` (in a snapshot) when none is stored for the
   * current catalogue; undefined when `read` finds nothing to answer.
   */
  async answer(key: string, read: (tx: Transaction) => Promise<object>): Promise<PreparedResponse>;
  async answer(key: string, read: (tx: Transaction) => Promise<object | undefined>): Promise<PreparedResponse | undefined>;
  async answer(key: string, read: (tx: Transaction) => Promise<object | undefined>): Promise<PreparedResponse | undefined> {
    return this.answerContent(key, async (tx) => {
      const value = await read(tx);
      return value === undefined ? undefined : asJson(value);
    });
  }

  /** The same for an answer of any type and status (a page's HTML, a redirect). */
  answerContent(key: string, read: (tx: Transaction) => Promise<ResponseContent | undefined>): Promise<PreparedResponse | undefined> {
    return this.prepared(key, read, false);
  }

  /**
   * The answer as of every change committed before this call: for a reader that must miss none (a
   * live stream's first event, read once the stream hears the changes after it). On PostgreSQL, whose
   * notices come after the commit, the state is read (callers arriving together share the read); on
   * the embedded database the state held is current until its next notice, which comes before the
   * commit returns. The answer itself is read again only when the state has changed.
   */
  async answerCurrent(key: string, read: (tx: Transaction) => Promise<object>): Promise<PreparedResponse> {
    return (await this.prepared(key, async (tx) => asJson(await read(tx)), true))!;
  }

  private async prepared(key: string, read: (tx: Transaction) => Promise<ResponseContent | undefined>, current: boolean): Promise<PreparedResponse | undefined> {
    const arrivedAt = this.tick();
    const noticesLag = this.trustedForMs !== Number.POSITIVE_INFINITY;
    if (!this.stateIsCurrent() || (current && noticesLag)) this.adopt(await this.latestState.get());
    const stored = this.usedEntry(key);
    if (stored) return stored;
    const pending = this.building.get(key);
    if (pending) {
      const built = await pending;
      if (built.startedAt > arrivedAt || built.state === this.state?.value) return built.response;
    }
    return (await this.build(key, read)).response;
  }

  /** Whether the state held is known to be the catalogue's without reading it: no notice since its read began, not long ago. */
  private stateIsCurrent(): boolean {
    return this.noticeAt !== undefined && this.state !== undefined && this.noticeAt < this.state.readAt && performance.now() - this.state.startedMs < this.trustedForMs;
  }

  private tick(): number {
    return ++this.ticks;
  }

  /** Takes a state read newer than the one held; answers stored at another state are dropped. */
  private adopt(latest: StateRead): void {
    if (this.state && this.state.readAt >= latest.readAt) return;
    if (this.state?.value !== latest.value) {
      this.entries.clear();
      this.building.clear();
    }
    this.state = latest;
  }

  private async build(key: string, read: (tx: Transaction) => Promise<ResponseContent | undefined>): Promise<Built> {
    const startedAt = this.tick();
    const building = this.db
      .transaction(async (tx) => ({ state: await catalogueState(tx), value: await read(tx) }), SNAPSHOT)
      .then(async ({ state, value }): Promise<Built> => ({ state, startedAt, response: value === undefined ? undefined : await prepare(value) }));
    this.building.set(key, building);
    try {
      const built = await building;
      // Read at an older state, or at a newer one that no request has seen yet: serve it, keep it not.
      if (built.response && built.state === this.state?.value) this.store(key, built.response);
      return built;
    } finally {
      if (this.building.get(key) === building) this.building.delete(key);
    }
  }

  private store(key: string, response: PreparedResponse): void {
    this.entries.delete(key);
    this.entries.set(key, response);
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries) break;
      this.entries.delete(oldest);
    }
  }
}

/**
 * A read whose every caller gets a result read after it asked: callers who ask while a read is
 * under way share the one that starts when it ends, so a crowd of requests costs two reads, not one each.
 */
class SharedRead<T> {
  private running: Promise<T> | undefined;
  private next: Promise<T> | undefined;

  constructor(private readonly read: () => Promise<T>) {}

  get(): Promise<T> {
    if (this.next) return this.next;
    if (!this.running) return this.start();
    const ignore = () => {};
    this.next = this.running.then(ignore, ignore).then(() => {
      this.next = undefined;
      return this.start();
    });
    return this.next;
  }

  private start(): Promise<T> {
    const running: Promise<T> = this.read().finally(() => {
      if (this.running === running) this.running = undefined;
    });
    this.running = running;
    return running;
  }
}

async function prepare({ status, headers, body }: ResponseContent): Promise<PreparedResponse> {
  const identity = Buffer.from(body);
  // Pages and the catalogue learn of changes over the live channel; a browser keeps an answer but asks again before each use.
  const kept = { ...headers, 'cache-control': 'no-cache' };
  if (identity.length === 0) return { body: identity, answers: { identity: { ok: { status, headers: kept } } } };
  const [br, gzipped] = await Promise.all([
    compressWithBrotli(identity, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: identity.length } }),
    compressWithGzip(identity),
  ]);
  return { body: identity, answers: encodedAnswers(status, kept, { identity, gzip: gzipped, br }) };
}

/** The prepared answer in the encoding the client accepts best, or 304 when the client holds it already. */
export const preparedAnswer = (requestHeaders: IncomingHttpHeaders, prepared: PreparedResponse): ReadyAnswer => pickAnswer(requestHeaders, prepared.answers);

/** Sends the prepared answer through Fastify (the short path sends preparedAnswer itself). */
export function sendPrepared(request: FastifyRequest, reply: FastifyReply, prepared: PreparedResponse): FastifyReply {
  const { status, headers, body } = preparedAnswer(request.headers, prepared);
  return reply.status(status).headers(headers).send(body);
}
