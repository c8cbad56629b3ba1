import type { FastifyInstance } from 'fastify';
import { requireUser } from '../auth/session.js';
import type { Database } from '../db/client.js';
import type { LiveHub } from './live-hub.js';

const HEARTBEAT_MS = 25_000;

/**
 * Server-Sent Events for the signed-in user: each event names a topic ("cart", "orders") whose
 * data changed, and "resync" asks for everything again after the server missed messages.
 */
export function registerLiveRoutes(app: FastifyInstance, db: Database, hub: LiveHub): void {
  const open = new Set<() => void>();
  // Streams never end by themselves, so they are ended before the server waits for its connections.
  app.addHook('preClose', async () => {
    for (const end of open) end();
  });

  app.get('/api/events', async (request, reply) => {
    const user = await requireUser(db, request);
    reply.hijack();
    const response = reply.raw;
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    // A browser that lost the stream tries again after 2 seconds.
    response.write('retry: 2000\n\nevent: ready\ndata: {}\n\n');
    const unsubscribe = hub.subscribe(user.id, (topic) => response.write(`event: ${topic}\ndata: {}\n\n`));
    const heartbeat = setInterval(() => response.write(': keep-alive\n\n'), HEARTBEAT_MS);
    const end = () => {
      clearInterval(heartbeat);
      unsubscribe();
      open.delete(end);
      if (!response.writableEnded) response.end();
    };
    open.add(end);
    request.raw.on('close', end);
  });
}
