import type { FastifyInstance } from 'fastify';
import type { CartOperationsResponse, CartResponse } from '#shared/cart.js';
import { cartOperationsRequestSchema } from '#shared/cart-schemas.js';
import { requireUser } from '#server/auth/session.js';
import type { Database } from '#server/db/client.js';
import { parseInput } from '#server/http/validation.js';
import { applyCartOperations, getCart } from './service.js';

export function registerCartRoutes(app: FastifyInstance, db: Database): void {
  app.get('/api/cart', async (request, reply): Promise<CartResponse> => {
    const user = await requireUser(db, request);
    reply.header('cache-control', 'no-store');
    return { items: await getCart(db, user.id) };
  });

  app.post('/api/cart/operations', async (request): Promise<CartOperationsResponse> => {
    const user = await requireUser(db, request);
    const { operations } = parseInput(cartOperationsRequestSchema, request.body);
    return applyCartOperations(db, user.id, operations);
  });
}
