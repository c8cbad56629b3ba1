import type { FastifyInstance } from 'fastify';
import type { SimilarPieceRequestList } from '#shared/similar-pieces.js';
import { requireAdmin } from '#server/auth/session.js';
import type { Database } from '#server/db/client.js';
import { GuessLimit } from '#server/http/guess-limit.js';
import { pathUuid } from '#server/http/validation.js';
import { listSimilarPieceRequests, markSimilarPieceRequestHandled, requestSimilarPiece } from './service.js';

/** "Make me a similar one": the buyer's request on a sold-out piece, and the admin's list of them. */
export function registerSimilarPieceRoutes(app: FastifyInstance, db: Database): void {
  // Each request counts against its client address: 10 in 15 minutes, so that a script cannot fill the maker's list.
  const requests = new GuessLimit('Too many requests for similar pieces; try again later.');

  app.post<{ Params: { productId: string } }>('/api/products/:productId/similar-requests', async (request, reply) => {
    const productId = pathUuid(request.params.productId, 'Product not found');
    requests.check(request.ip);
    await requestSimilarPiece(db, productId, request.body);
    requests.miss(request.ip);
    return reply.status(202).send({ received: true });
  });

  app.get('/api/admin/similar-requests', async (request, reply): Promise<SimilarPieceRequestList> => {
    await requireAdmin(db, request);
    reply.header('cache-control', 'no-store');
    return { requests: await listSimilarPieceRequests(db) };
  });

  app.post<{ Params: { requestId: string } }>('/api/admin/similar-requests/:requestId/handled', async (request, reply) => {
    await requireAdmin(db, request);
    await markSimilarPieceRequestHandled(db, pathUuid(request.params.requestId, 'No such request.'));
    return reply.status(204).send();
  });
}
