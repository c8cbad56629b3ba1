import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'drizzle-orm';
import type { LiveTopic } from '../../shared/cart.js';
import type { Database, DatabaseHandle } from '../db/client.js';

const CHANNEL = 'shop_events';

interface LiveMessage {
  userId: string;
  topic: LiveTopic;
}

type Subscriber = (topic: LiveTopic | 'resync') => void;

/**
 * Live updates for signed-in browsers. A change is announced with NOTIFY in the transaction that
 * makes it, so it is sent only if it is committed, and every server process on the database hears
 * it and tells its own connected browsers.
 */
export class LiveHub {
  private readonly subscribers = new Map<string, Set<Subscriber>>();
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

  subscribe(userId: string, subscriber: Subscriber): () => void {
    let set = this.subscribers.get(userId);
    if (!set) this.subscribers.set(userId, (set = new Set()));
    set.add(subscriber);
    return () => {
      set.delete(subscriber);
      if (set.size === 0) this.subscribers.delete(userId);
    };
  }

  get connectionCount(): number {
    let total = 0;
    for (const set of this.subscribers.values()) total += set.size;
    return total;
  }

  private deliver(payload: string): void {
    try {
      const message = JSON.parse(payload) as LiveMessage;
      for (const subscriber of this.subscribers.get(message.userId) ?? []) subscriber(message.topic);
    } catch (error) {
      this.log.warn({ err: error, payload }, 'Ignored a malformed live message');
    }
  }

  private broadcast(topic: 'resync'): void {
    for (const set of this.subscribers.values()) for (const subscriber of set) subscriber(topic);
  }
}

/** Announces a change to the user's data; call it inside the transaction that makes the change. */
export async function announceChange(db: Pick<Database, 'execute'>, userId: string, topic: LiveTopic): Promise<void> {
  const message: LiveMessage = { userId, topic };
  await db.execute(sql`select pg_notify(${CHANNEL}, ${JSON.stringify(message)})`);
}
