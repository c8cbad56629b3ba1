import type { FastifyInstance } from 'fastify';
import { favouritesMergeSchema, type FavouritesResponse } from '#shared/favourites.js';
import { requireUser } from '#server/auth/session.js';
import type { Database } from '#server/db/client.js';
import { parseInput, pathUuid } from '#server/http/validation.js';
import { addFavourite, listFavourites, mergeFavourites, removeFavourite } from './service.js';

type WithProduct = { Params: { productId: string } };

const productIdOf = ({ productId }: { productId: string }) => pathUuid(productId, 'Product not found');

/** A signed-in customer's favourites: the hearts she set on any of her devices. */
export function registerFavouriteRoutes(app: FastifyInstance, db: Database): void {
  app.get('/api/favourites', async (request, reply): Promise<FavouritesResponse> => {
    const user = await requireUser(db, request);
    reply.header('cache-control', 'no-store');
    return { productIds: await listFavourites(db, user.id) };
  });

  // PUT and DELETE say what the heart should be, not "toggle": a request sent again (a retry, a
  // queue replayed after being offline) leaves the same state.
  app.put<WithProduct>('/api/favourites/:productId', async (request, reply) => {
    const user = await requireUser(db, request);
    await addFavourite(db, user.id, productIdOf(request.params));
    return reply.status(204).send();
  });

  app.delete<WithProduct>('/api/favourites/:productId', async (request, reply) => {
    const user = await requireUser(db, request);
    await removeFavourite(db, user.id, productIdOf(request.params));
    return reply.status(204).send();
  });

  app.post('/api/favourites/merge', async (request): Promise<FavouritesResponse> => {
    const user = await requireUser(db, request);
    const { productIds } = parseInput(favouritesMergeSchema, request.body);
    return { productIds: await mergeFavourites(db, user.id, productIds) };
  });
}
