import type { FastifyInstance } from 'fastify';

/** How often, while the server closes, connections that have gone idle are closed. */
const IDLE_SWEEP_MS = 250;

/**
 * Lets `app.close()` finish the requests under way and then end promptly. Fastify stops accepting
 * connections and closes the idle ones once, but a keep-alive connection whose request was still
 * running becomes idle only later and would then hold the close for the whole keep-alive timeout
 * (72 s). So every answer sent while closing says `Connection: close`, and connections that still
 * go idle (an answer whose headers left before the close began) are closed as they do.
 *
 * The app is built with `return503OnClosing: false`: a request that arrives on a connection still
 * open is answered as usual (and that connection then closed) instead of with a 503, so that a
 * customer's order sent at that moment is placed, not refused.
 *
 * Answers whether the server is closing (the short path then leaves every request to Fastify).
 */
export function registerGracefulClose(app: FastifyInstance): () => boolean {
  let closing = false;
  let sweep: NodeJS.Timeout | undefined;
  app.addHook('preClose', async () => {
    closing = true;
    sweep = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS);
    sweep.unref();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing && !reply.raw.headersSent) reply.header('connection', 'close');
    done(null, payload);
  });
  app.addHook('onClose', async () => clearInterval(sweep));
  return () => closing;
}
