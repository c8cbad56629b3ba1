import type { FastifyInstance } from 'fastify';
import type { CatalogueResponse } from '../../shared/catalog.js';
import type { Database } from '../db/client.js';
import { listCatalogue } from './service.js';

export function registerCatalogRoutes(app: FastifyInstance, db: Database): void {
  app.get('/api/products', async (_request, reply): Promise<CatalogueResponse> => {
    // Pages learn of changes over the live channel; no cache between them may answer with an older catalogue.
    reply.header('cache-control', 'no-cache');
    return listCatalogue(db);
  });
}
