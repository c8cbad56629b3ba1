import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database } from '#server/db/client.js';

/** How long /ready waits for the database before it says no. */
const READY_TIMEOUT_MS = 2_000;

/**
 * For a load balancer or an orchestrator, unauthenticated and cheap. /health says the process is up
 * and answering; it touches nothing else. /ready says the process can serve: its event loop keeps up
 * (http/load-shedding.ts) and its database answers (the schema is migrated before the server
 * listens). While the server shuts down it accepts no new connections, these probes' included, so
 * traffic moves elsewhere (http/graceful-close.ts).
 */
export function registerProbes(app: FastifyInstance, db: Database, overloaded: () => boolean): void {
  app.get('/health', async (_request, reply) => reply.header('cache-control', 'no-store').send({ status: 'up' }));

  app.get('/ready', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    // Asked first: an overloaded process would answer the database's question late, or not at all.
    if (overloaded()) return reply.status(503).send({ status: 'unavailable', reason: 'overloaded' });
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        db.execute(sql`select 1`),
        new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS))),
      ]);
      return reply.send({ status: 'ready' });
    } catch (error) {
      request.log.warn({ reason: (error as Error).message }, 'Not ready: the database does not answer');
      return reply.status(503).send({ status: 'unavailable', reason: 'database' });
    } finally {
      clearTimeout(timer);
    }
  });
}
