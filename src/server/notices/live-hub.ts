import type { FastifyBaseLogger } from 'fastify';
import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import { CATALOGUE_TOPIC, STOCK_TOPIC, type CatalogueChangeEvent, type LiveTopic, type StockCounts, type StockEvent } from '#shared/live.js';
import type { Database, DatabaseHandle } from '#server/db/client.js';

const CHANNEL = 'shop_events';

/**
 * A change to a user's data, the end of a session (named by its id's hash and never by the id), a
 * change to who is an admin, or a change to the catalogue or to stock counts, which every stream hears.
 */
type LiveMessage = { userId: string; topic: LiveTopic } | { endedSession: string } | { rolesChanged: true } | { catalogueVersion: number } | StockEvent;

/** Hears, on every process, what ends sessions or changes roles (the session cache). */
export interface SessionNoticeListener {
  sessionEnded(sessionHash: string): void;
  rolesChanged(): void;
  /** The connection that hears notices was lost and restored: whatever was announced meanwhile is unknown. */
  noticesMissed(): void;
}

/** The event names a stream carries. */
type LiveEvent = LiveTopic | typeof CATALOGUE_TOPIC | typeof STOCK_TOPIC | 'resync';

/** One open event stream, as the hub sees it. */
export interface LiveStream {
  /** The signed-in user and session; absent for a visitor, whose stream carries only the catalogue. */
  session?: { userId: string; sessionHash: string };
  /** Where a visitor's stream comes from, which bounds how many such streams one client may hold. */
  clientAddress: string;
  send(event: LiveEvent, data?: object): void;
  /** Ends the stream; called when its session ends. */
  end(): void;
}

/**
 * Live updates for open pages. A change is announced with NOTIFY in the transaction that makes it,
 * so it is sent only if it is committed, and every server process on the database hears it and
 * tells its own connected browsers. An ended session is announced the same way, so that every
 * process ends the streams opened with it.
 */
export class LiveHub {
  private readonly all = new Set<LiveStream>();
  private readonly byUser = new Map<string, Set<LiveStream>>();
  private readonly bySession = new Map<string, Set<LiveStream>>();
  private readonly visitorsByAddress = new Map<string, Set<LiveStream>>();
  private visitors = 0;
  private stopListening: (() => Promise<void>) | undefined;

  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly sessionNotices?: SessionNoticeListener,
  ) {}

  async start(database: DatabaseHandle): Promise<void> {
    this.stopListening = await database.listen(
      CHANNEL,
      (payload) => this.deliver(payload),
      () => {
        this.sessionNotices?.noticesMissed();
        this.broadcast('resync');
      },
    );
  }

  async stop(): Promise<void> {
    await this.stopListening?.();
    this.stopListening = undefined;
  }

  subscribe(stream: LiveStream): () => void {
    this.all.add(stream);
    if (stream.session) {
      add(this.byUser, stream.session.userId, stream);
      add(this.bySession, stream.session.sessionHash, stream);
    } else {
      add(this.visitorsByAddress, stream.clientAddress, stream);
      this.visitors++;
    }
    return () => {
      if (!this.all.delete(stream)) return;
      if (stream.session) {
        remove(this.byUser, stream.session.userId, stream);
        remove(this.bySession, stream.session.sessionHash, stream);
      } else {
        remove(this.visitorsByAddress, stream.clientAddress, stream);
        this.visitors--;
      }
    };
  }

  /** How many streams this process holds open for the session. */
  streamCount(sessionHash: string): number {
    return this.bySession.get(sessionHash)?.size ?? 0;
  }

  /** How many visitors' streams this process holds open, from one client address or (without one) in all. */
  visitorStreamCount(clientAddress?: string): number {
    return clientAddress === undefined ? this.visitors : (this.visitorsByAddress.get(clientAddress)?.size ?? 0);
  }

  get connectionCount(): number {
    return this.all.size;
  }

  private deliver(payload: string): void {
    try {
      const message = JSON.parse(payload) as LiveMessage;
      if ('endedSession' in message) {
        this.sessionNotices?.sessionEnded(message.endedSession);
        // Ending a stream removes it from the set, so the set is copied first.
        for (const stream of [...(this.bySession.get(message.endedSession) ?? [])]) stream.end();
      } else if ('rolesChanged' in message) {
        this.sessionNotices?.rolesChanged();
      } else if ('catalogueVersion' in message) {
        const event: CatalogueChangeEvent = { catalogueVersion: message.catalogueVersion };
        for (const stream of this.all) stream.send(CATALOGUE_TOPIC, event);
      } else if ('stock' in message) {
        const event: StockEvent = { stock: message.stock };
        for (const stream of this.all) stream.send(STOCK_TOPIC, event);
      } else {
        for (const stream of this.byUser.get(message.userId) ?? []) stream.send(message.topic);
      }
    } catch (error) {
      this.log.warn({ err: error, payload }, 'Ignored a malformed live message');
    }
  }

  private broadcast(event: 'resync'): void {
    for (const stream of this.all) stream.send(event);
  }
}

function add(index: Map<string, Set<LiveStream>>, key: string, stream: LiveStream): void {
  let set = index.get(key);
  if (!set) index.set(key, (set = new Set()));
  set.add(stream);
}

function remove(index: Map<string, Set<LiveStream>>, key: string, stream: LiveStream): void {
  const set = index.get(key);
  if (!set) return;
  set.delete(stream);
  if (set.size === 0) index.delete(key);
}

/** Announces a change to the user's data; call it inside the transaction that makes the change. */
export async function announceChange(db: Pick<Database, 'execute'>, userId: string, topic: LiveTopic): Promise<void> {
  await notify(db, { userId, topic });
}

/**
 * The channel and payload (pg_notify's two arguments) that announce a change to the user's data, for
 * a statement that makes the change and announces it in the same round trip. PostgreSQL delivers a
 * notice sent twice in one transaction once.
 */
export function changeNotice(userId: string, topic: LiveTopic): { channel: string; payload: string } {
  const message: LiveMessage = { userId, topic };
  return { channel: CHANNEL, payload: JSON.stringify(message) };
}

/** Announces a change to the catalogue, at its new version, to every open page; call it inside the transaction that makes the change. */
export async function announceCatalogueChange(db: Pick<Database, 'execute'>, catalogueVersion: number): Promise<void> {
  await notify(db, { catalogueVersion });
}

/** Announces new stock counts to every open page; call it inside the transaction that changes them. */
export async function announceStock(db: Pick<Database, 'execute'>, stock: StockCounts): Promise<void> {
  await notify(db, { stock });
}

/** Announces that the session with this id hash has ended, so that every process ends its streams. */
export async function announceSessionEnded(db: Pick<Database, 'execute'>, sessionHash: string): Promise<void> {
  await notify(db, { endedSession: sessionHash });
}

/** Announces that someone became or stopped being an admin, so that every process reads roles afresh. */
export async function announceRolesChanged(db: Pick<Database, 'execute'>): Promise<void> {
  await notify(db, { rolesChanged: true });
}

/**
 * The NOTIFY calls announcing changes to the user's data, for a statement that makes the changes and
 * announces them in one round trip, prepared once (see placeOrder): the user is the placeholder's
 * value, each payload the text changeNotice writes. Like announceChange, they reach listeners only if
 * the transaction commits.
 */
export function changeNotices(userId: Placeholder, topics: readonly LiveTopic[]): SQL {
  return sql.join(
    topics.map((topic) => sql`pg_notify(${CHANNEL}, ${'{"userId":'} || to_json(${userId}::text)::text || ${`,"topic":${JSON.stringify(topic)}}`})`),
    sql`, `,
  );
}

/**
 * The NOTIFY call announcing one product's new count (a StockEvent naming that product alone) from
 * the statement that changes the count, which knows it only as it runs (see takeStock).
 */
export function stockNotice(productId: Placeholder, count: SQL): SQL {
  return sql`pg_notify(${CHANNEL}, json_build_object('stock', json_build_object(${productId}::text, ${count}))::text)`;
}

const notice = (message: LiveMessage): SQL => sql`pg_notify(${CHANNEL}, ${JSON.stringify(message)})`;

async function notify(db: Pick<Database, 'execute'>, message: LiveMessage): Promise<void> {
  await db.execute(sql`select ${notice(message)}`);
}
