import type { FastifyInstance } from 'fastify';
import { parseCatalogueQuery, type CatalogueResponse, type ProductPageResponse } from '../../shared/catalog.js';
import { isSlug } from '../../shared/slug.js';
import type { Database } from '../db/client.js';
import { errorBody } from '../http/errors.js';
import { listCatalogue, productPage } from './service.js';

const queryParams = (query: unknown) => new URLSearchParams(Object.entries((query ?? {}) as Record<string, unknown>).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));

export function registerCatalogRoutes(app: FastifyInstance, db: Database): void {
  /** ?category=nails&q=pearl&sort=price&page=2&lang=bg (lang: the language whose names sort=name follows). */
  app.get('/api/products', async (request, reply): Promise<CatalogueResponse> => {
    const params = queryParams(request.query);
    // Pages learn of changes over the live channel; no cache between them may answer with an older catalogue.
    reply.header('cache-control', 'no-cache');
    return listCatalogue(db, { ...parseCatalogueQuery(params), language: params.get('lang') === 'bg' ? 'bg' : 'en' });
  });

  /** A product page's data, also for a slug the product had before a rename (the page then shows the new address). */
  app.get<{ Params: { slug: string } }>('/api/products/by-slug/:slug', async (request, reply): Promise<ProductPageResponse | void> => {
    const { slug } = request.params;
    const found = isSlug(slug) ? await productPage(db, slug) : undefined;
    if (!found) return reply.status(404).send(errorBody('not_found', 'Product not found'));
    reply.header('cache-control', 'no-cache');
    return found.page;
  });
}
