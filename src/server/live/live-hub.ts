import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'drizzle-orm';
import type { LiveTopic } from '../../shared/cart.js';
import type { Database, DatabaseHandle } from '../db/client.js';

const CHANNEL = 'shop_events';

/** A change to a user's data, or the end of a session, named by its id's hash and never by the id. */
type LiveMessage = { userId: string; topic: LiveTopic } | { endedSession: string };

/** One open event stream, as the hub sees it. */
export interface LiveStream {
  userId: string;
  sessionHash: string;
  send(topic: LiveTopic | 'resync'): void;
  /** Ends the stream; called when its session ends. */
  end(): void;
}

/**
 * Live updates for signed-in browsers. A change is announced with NOTIFY in the transaction that
 * makes it, so it is sent only if it is committed, and every server process on the database hears
 * it and tells its own connected browsers. An ended session is announced the same way, so that
 * every process ends the streams opened with it.
 */
export class LiveHub {
  private readonly byUser = new Map<string, Set<LiveStream>>();
  private readonly bySession = new Map<string, Set<LiveStream>>();
  private stopListening: (() => Promise<void>) | undefined;

  constructor(private readonly log: FastifyBaseLogger) {}

  async start(database: DatabaseHandle): Promise<void> {
    this.stopListening = await database.listen(
      CHANNEL,
      (payload) => this.deliver(payload),
      () => this.broadcast('resync'),
    );
  }

  async stop(): Promise<void> {
    await this.stopListening?.();
    this.stopListening = undefined;
  }

  subscribe(stream: LiveStream): () => void {
    add(this.byUser, stream.userId, stream);
    add(this.bySession, stream.sessionHash, stream);
    return () => {
      remove(this.byUser, stream.userId, stream);
      remove(this.bySession, stream.sessionHash, stream);
    };
  }

  /** How many streams this process holds open for the session. */
  streamCount(sessionHash: string): number {
    return this.bySession.get(sessionHash)?.size ?? 0;
  }

  get connectionCount(): number {
    let total = 0;
    for (const set of this.byUser.values()) total += set.size;
    return total;
  }

  private deliver(payload: string): void {
    try {
      const message = JSON.parse(payload) as LiveMessage;
      if ('endedSession' in message) {
        // Ending a stream removes it from the set, so the set is copied first.
        for (const stream of [...(this.bySession.get(message.endedSession) ?? [])]) stream.end();
      } else {
        for (const stream of this.byUser.get(message.userId) ?? []) stream.send(message.topic);
      }
    } catch (error) {
      this.log.warn({ err: error, payload }, 'Ignored a malformed live message');
    }
  }

  private broadcast(topic: 'resync'): void {
    for (const set of this.byUser.values()) for (const stream of set) stream.send(topic);
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

/** Announces that the session with this id hash has ended, so that every process ends its streams. */
export async function announceSessionEnded(db: Pick<Database, 'execute'>, sessionHash: string): Promise<void> {
  await notify(db, { endedSession: sessionHash });
}

async function notify(db: Pick<Database, 'execute'>, message: LiveMessage): Promise<void> {
  await db.execute(sql`select pg_notify(${CHANNEL}, ${JSON.stringify(message)})`);
}
