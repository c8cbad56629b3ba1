import type { FastifyInstance } from 'fastify';
import type { Product } from '../../shared/catalog.js';
import type { Database } from '../db/client.js';
import { listProducts } from './service.js';

export function registerCatalogRoutes(app: FastifyInstance, db: Database): void {
  app.get('/api/products', async (): Promise<{ products: Product[] }> => ({ products: await listProducts(db) }));
}
