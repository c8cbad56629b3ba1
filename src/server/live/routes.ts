import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MAX_READY_STOCK_COUNTS, type LiveReadyEvent } from '#shared/live.js';
import { findUserSession, isSessionActive, resentSessionCookie, type UserSession } from '#server/auth/session.js';
import type { CatalogueCache } from '#server/catalog/catalogue-cache.js';
import { catalogueVersion } from '#server/catalog/catalogue-state.js';
import type { Database } from '#server/db/client.js';
import { HttpError } from '#server/http/errors.js';
import type { ShopMetrics } from '#server/metrics/shop-metrics.js';
import { countedStock } from '#server/stock/service.js';
import type { LiveHub } from '#server/notices/live-hub.js';

const HEARTBEAT_MS = 25_000;
/** The key of a stream's first event among the catalogue's prepared answers. */
const LIVE_READY_KEY = 'live-ready';
/**
 * A page holds one stream, so ten leave room for a few tabs and devices on one session while a
 * client that opens stream after stream cannot hold the server's memory and sockets. The count is
 * kept per server process, not shared through the database: behind several processes one session
 * may hold ten on each, which still bounds what each process spends.
 */
const MAX_STREAMS_PER_SESSION = 10;
/**
 * Visitors have no session to count by, so their streams are bounded by client address (with
 * TRUST_PROXY, the address the proxy names). One address can stand for many people (a household, an
 * office, a mobile carrier's NAT), hence more than a session's ten; a page refused its stream still
 * works, and tries again later (src/client/live/live-updates.tsx).
 */
const MAX_VISITOR_STREAMS_PER_ADDRESS = 20;
/**
 * And in all, per process: with many addresses a crowd of visitors could otherwise use up the
 * process's memory and sockets, which the shop's own requests need too. `npm run bench` measures what
 * a process holds at this limit (docs/operations/benchmark.md). Node raises its open-file limit to the
 * hard limit at start, which must leave room for these (`ulimit -Hn`, LimitNOFILE under systemd).
 */
export const MAX_VISITOR_STREAMS = 5_000;
/**
 * When the server shuts down, each stream is told to come back after a wait drawn from this range
 * (an SSE "retry" field, which browsers' EventSource obeys when the stream ends), so that the pages
 * of a stopping process reconnect to the others promptly, spread out rather than all at once.
 */
const RECONNECT_AFTER_MS = { min: 500, max: 3_000 };
/** The event that comes with that hint, so that a reader of the stream can tell a shutdown from a fault. */
export const RECONNECT_EVENT = 'reconnect';

export interface LiveRouteOptions {
  /** How often a stream is kept alive and its session checked again; tests shorten it. */
  heartbeatMs?: number;
  /** The most visitors' streams this process holds at once; tests lower it. */
  maxVisitorStreams?: number;
}

/** Refuses a stream over its limit with 429, so that the browser stops asking at once. */
function checkStreamLimits(hub: LiveHub, session: UserSession | null, request: FastifyRequest, maxVisitorStreams: number): void {
  if (session) {
    if (hub.streamCount(session.sessionHash) >= MAX_STREAMS_PER_SESSION) {
      throw new HttpError(429, 'too_many_streams', `A session may hold at most ${MAX_STREAMS_PER_SESSION} event streams; close one first.`);
    }
  } else if (hub.visitorStreamCount(request.ip) >= MAX_VISITOR_STREAMS_PER_ADDRESS) {
    throw new HttpError(429, 'too_many_streams', `A client may hold at most ${MAX_VISITOR_STREAMS_PER_ADDRESS} event streams without signing in; close one first.`);
  } else if (hub.visitorStreamCount() >= maxVisitorStreams) {
    throw new HttpError(429, 'too_many_streams', 'The shop holds as many event streams as it can; try again later.');
  }
}

/**
 * Server-Sent Events for every open page. Each event names a topic whose data changed: the
 * catalogue ("products") and stock counts ("stock") for everyone, and for a signed-in page also
 * its user's "cart" and "orders"; "resync" asks for everything again after the server missed
 * messages. A signed-in page's stream ends with its session: at once when the sign-out is
 * announced, and at the next heartbeat when the session expired or the announcement was lost. The
 * browser then reopens it, as a visitor's. The open streams are a gauge of the metrics.
 */
export function registerLiveRoutes(
  app: FastifyInstance,
  db: Database,
  hub: LiveHub,
  metrics: ShopMetrics,
  catalogue: CatalogueCache,
  { heartbeatMs = HEARTBEAT_MS, maxVisitorStreams = MAX_VISITOR_STREAMS }: LiveRouteOptions = {},
): void {
  metrics.addGauge({
    name: 'shop_event_streams_open',
    help: 'Live-update event streams this process holds open, of signed-in customers and of visitors.',
    labelNames: ['kind'],
    read: () => {
      const visitors = hub.visitorStreamCount();
      return [
        { labels: { kind: 'visitor' }, value: visitors },
        { labels: { kind: 'signed_in' }, value: hub.connectionCount - visitors },
      ];
    },
  });

  const open = new Set<(reconnectHint?: string) => void>();
  let closing = false;
  // Streams never end by themselves, so they are ended before the server waits for its connections.
  app.addHook('preClose', async () => {
    closing = true;
    for (const end of open) end(reconnectHint());
  });

  app.get('/api/events', { config: { eventStream: true } }, async (request, reply) => {
    // A page that asks on a connection still open to a stopping server is sent on at once.
    if (closing) return sendReconnectHint(reply);
    const session = await findUserSession(db, request);
    // Nothing is awaited between this count and the subscription below, so parallel requests cannot both slip past it.
    checkStreamLimits(hub, session, request, maxVisitorStreams);
    // A hijacked reply skips the hooks that would send a moved session's cookie again, so it goes in here.
    const cookie = session ? resentSessionCookie(request) : undefined;
    reply.hijack();
    const response = reply.raw;
    response.writeHead(200, {
      ...app.everyAnswerHeaders,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      ...(cookie ? { 'set-cookie': cookie } : {}),
    });
    // A browser that lost the stream tries again after 2 seconds.
    response.write('retry: 2000\n\n');
    const write = (event: string, data: object = {}) => {
      if (!response.writableEnded) response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    };
    const end = (hint?: string) => {
      clearInterval(heartbeat);
      unsubscribe();
      open.delete(end);
      if (response.writableEnded) return;
      if (!hint) return void response.end();
      // The connection itself is closed too: a browser must not send its next request to a server that is
      // stopping. (By the time the answer has finished, Node has detached the socket from it.)
      const socket = response.socket;
      response.end(hint, () => socket?.destroySoon());
    };
    const unsubscribe = hub.subscribe({
      session: session ? { userId: session.user.id, sessionHash: session.sessionHash } : undefined,
      clientAddress: request.ip,
      send: write,
      end: () => end(),
    });
    // A visitor's stream has no session to check; it is only kept alive.
    let checking = false;
    const heartbeat = setInterval(() => {
      if (!response.writableEnded) response.write(': keep-alive\n\n');
      if (!session || checking) return;
      checking = true;
      // The check also covers a sign-out between findUserSession and the subscription, whose announcement came too early.
      isSessionActive(db, session.sessionHash)
        .then((active) => {
          if (!active) end();
        })
        // A database fault says nothing about the session; the next heartbeat asks again.
        .catch((error: unknown) => request.log.warn({ err: error }, 'Could not check the session of an event stream'))
        .finally(() => (checking = false));
    }, heartbeatMs);
    open.add(end);
    request.raw.on('close', () => end());
    // A browser that left while its session was being checked closed the socket before anyone listened.
    if (request.raw.socket.destroyed) return end();
    // The version and the counts are read only now that the stream is subscribed: a change committed
    // before this read shows in them, and one committed after it arrives as an event, so none is missed.
    // Pages opened together share that read (a crowd of visitors had cost two queries each), and the
    // counts are read again only when the catalogue's state has changed.
    try {
      const prepared = await catalogue.answerCurrent(LIVE_READY_KEY, async (tx) => ({ catalogueVersion: await catalogueVersion(tx), stock: await countedStock(tx, MAX_READY_STOCK_COUNTS) }));
      const ready: LiveReadyEvent = { ...(JSON.parse(prepared.body.toString()) as Omit<LiveReadyEvent, 'signedIn'>), signedIn: session !== null };
      write('ready', ready);
    } catch (error) {
      // Without its version the page could not tell what it missed; the browser opens the stream again.
      request.log.warn({ err: error }, 'Could not read the catalogue version for an event stream');
      end();
    }
  });
}

/** The last words of a stream whose server is stopping: when to come back, and why. */
function reconnectHint(): string {
  const retryMs = RECONNECT_AFTER_MS.min + Math.floor(Math.random() * (RECONNECT_AFTER_MS.max - RECONNECT_AFTER_MS.min));
  return `retry: ${retryMs}\nevent: ${RECONNECT_EVENT}\ndata: ${JSON.stringify({ retryMs })}\n\n`;
}

function sendReconnectHint(reply: FastifyReply): void {
  reply.hijack();
  reply.raw.writeHead(200, { ...reply.server.everyAnswerHeaders, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'close' });
  reply.raw.end(reconnectHint());
}
