import type { FastifyInstance } from 'fastify';
import type { Database } from '#server/db/client.js';
import { GuessLimit } from '#server/http/guess-limit.js';
import { pathUuid } from '#server/http/validation.js';
import { requestStockAlert } from './service.js';

/** "Tell me when it is back" on a sold-out product. */
export function registerStockAlertRoutes(app: FastifyInstance, db: Database): void {
  // Each request counts against its client address: 10 in 15 minutes, so that a script cannot send the
  // shop's e-mails to strangers' addresses in bulk.
  const requests = new GuessLimit('Too many requests to be told of products; try again later.');

  app.post<{ Params: { productId: string } }>('/api/products/:productId/stock-alerts', async (request, reply) => {
    const productId = pathUuid(request.params.productId, 'Product not found');
    requests.check(request.ip);
    await requestStockAlert(db, productId, request.body);
    requests.miss(request.ip);
    return reply.status(202).send({ received: true });
  });
}
