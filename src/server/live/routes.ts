import type { FastifyInstance } from 'fastify';
import { isSessionActive, requireUserSession, resentSessionCookie } from '../auth/session.js';
import type { Database } from '../db/client.js';
import { HttpError } from '../http/errors.js';
import type { LiveHub } from './live-hub.js';

const HEARTBEAT_MS = 25_000;
/**
 * A page holds one stream, so ten leave room for a few tabs and devices on one session while a
 * client that opens stream after stream cannot hold the server's memory and sockets. The count is
 * kept per server process, not shared through the database: behind several processes one session
 * may hold ten on each, which still bounds what each process spends.
 */
const MAX_STREAMS_PER_SESSION = 10;

export interface LiveRouteOptions {
  /** How often a stream is kept alive and its session checked again; tests shorten it. */
  heartbeatMs?: number;
}

/**
 * Server-Sent Events for the signed-in user: each event names a topic ("cart", "orders") whose
 * data changed, and "resync" asks for everything again after the server missed messages. A stream
 * ends with its session: at once when the sign-out is announced, and at the next heartbeat when
 * the session expired or the announcement was lost.
 */
export function registerLiveRoutes(app: FastifyInstance, db: Database, hub: LiveHub, { heartbeatMs = HEARTBEAT_MS }: LiveRouteOptions = {}): void {
  const open = new Set<() => void>();
  // Streams never end by themselves, so they are ended before the server waits for its connections.
  app.addHook('preClose', async () => {
    for (const end of open) end();
  });

  app.get('/api/events', async (request, reply) => {
    const { user, sessionHash } = await requireUserSession(db, request);
    // Nothing is awaited between this count and the subscription below, so parallel requests cannot both slip past it.
    if (hub.streamCount(sessionHash) >= MAX_STREAMS_PER_SESSION) {
      throw new HttpError(429, 'too_many_streams', `A session may hold at most ${MAX_STREAMS_PER_SESSION} event streams; close one first.`);
    }
    // A hijacked reply skips the hooks that would send a moved session's cookie again, so it goes in here.
    const cookie = resentSessionCookie(request);
    reply.hijack();
    const response = reply.raw;
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      ...(cookie ? { 'set-cookie': cookie } : {}),
    });
    // A browser that lost the stream tries again after 2 seconds.
    response.write('retry: 2000\n\nevent: ready\ndata: {}\n\n');
    const end = () => {
      clearInterval(heartbeat);
      unsubscribe();
      open.delete(end);
      if (!response.writableEnded) response.end();
    };
    const unsubscribe = hub.subscribe({
      userId: user.id,
      sessionHash,
      send: (topic) => response.write(`event: ${topic}\ndata: {}\n\n`),
      end,
    });
    // The check also covers a sign-out between requireUserSession and the subscription, whose announcement came too early.
    let checking = false;
    const heartbeat = setInterval(() => {
      response.write(': keep-alive\n\n');
      if (checking) return;
      checking = true;
      isSessionActive(db, sessionHash)
        .then((active) => {
          if (!active) end();
        })
        // A database fault says nothing about the session; the next heartbeat asks again.
        .catch((error: unknown) => request.log.warn({ err: error }, 'Could not check the session of an event stream'))
        .finally(() => (checking = false));
    }, heartbeatMs);
    open.add(end);
    request.raw.on('close', end);
    // A browser that left while its session was being checked closed the socket before anyone listened.
    if (request.raw.socket.destroyed) end();
  });
}
