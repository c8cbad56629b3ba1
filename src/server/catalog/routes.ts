import type { FastifyInstance } from 'fastify';
import { parseCatalogueQuery } from '#shared/catalog.js';
import { isSlug } from '#shared/slug.js';
import type { DatabaseHandle } from '#server/db/client.js';
import { errorBody } from '#server/http/errors.js';
import { shortPathQuery } from '#server/http/short-path.js';
import { UUID } from '#server/http/validation.js';
import { CatalogueCache, followCatalogueChanges, preparedAnswer, sendPrepared } from './catalogue-cache.js';
import { listCatalogue, MAX_PRODUCTS_BY_ID, productPage, productsByIds, searchSuggestions, type CatalogueFilter } from './product-queries.js';
import { readSizeChart } from './size-chart.js';

const queryParams = (query: unknown) => new URLSearchParams(Object.entries((query ?? {}) as Record<string, unknown>).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));

/** The catalogue's filter from a request's query; `lang` is the language whose names sort=name follows. */
const catalogueFilter = (params: URLSearchParams): CatalogueFilter => ({ ...parseCatalogueQuery(params), language: params.get('lang') === 'bg' ? 'bg' : 'en' });

/** One key per distinct answer: the language matters only to the order by name. */
const catalogueKey = (filter: CatalogueFilter) =>
  JSON.stringify(['list', filter.category ?? '', filter.q ?? '', filter.price ?? '', filter.available ?? false, filter.options ?? [], filter.sort, filter.page, filter.sort === 'name' ? filter.language : '']);

/**
 * `currencyAgrees`: false while the catalogue's currency is not the server's, when Fastify answers
 * (503 currency_changed). Returns the catalogue's prepared answers, which the live streams share.
 */
export async function registerCatalogRoutes(
  app: FastifyInstance,
  database: DatabaseHandle,
  { currencyAgrees = () => true, maxStalenessMs }: { currencyAgrees?: () => boolean; maxStalenessMs?: number } = {},
): Promise<CatalogueCache> {
  // Every visitor is answered from the same few prepared answers (catalogue-cache.ts).
  const cache = new CatalogueCache(database.db);
  await followCatalogueChanges(app, database, cache, maxStalenessMs);

  /** ?category=nails&q=pearl&price=10-20&available=1&options=Shape:Almond&sort=price&page=2&lang=bg (lang: the language whose names sort=name follows), with the filters' counts. */
  app.get('/api/products', async (request, reply) => {
    const params = queryParams(request.query);
    const filter = catalogueFilter(params);
    const prepared = await cache.answer(catalogueKey(filter), (tx) => listCatalogue(tx, filter));
    return sendPrepared(request, reply, prepared);
  });
  app.shortPath.add('/api/products', '/api/products', ({ search, headers }) => {
    const params = shortPathQuery(search);
    if (!params || !currencyAgrees()) return undefined;
    const filter = catalogueFilter(params);
    const prepared = cache.peek(catalogueKey(filter));
    return prepared && preparedAnswer(headers, prepared);
  });

  /** ?q=perl&lang=bg: the suggestions under the search box as the buyer types (SearchSuggestions). */
  app.get('/api/products/suggestions', async (request, reply) => {
    const params = queryParams(request.query);
    const { q = '' } = parseCatalogueQuery(params);
    const language = params.get('lang') === 'bg' ? 'bg' : 'en';
    const prepared = await cache.answer(JSON.stringify(['suggestions', q, language]), (tx) => searchSuggestions(tx, q, language));
    return sendPrepared(request, reply, prepared);
  });

  /** ?ids=a,b,c: these products, in that order (a page of a buyer's favourites); at most MAX_PRODUCTS_BY_ID. */
  app.get('/api/products/by-ids', async (request, reply) => {
    const ids = [...new Set((queryParams(request.query).get('ids') ?? '').split(',').filter(Boolean))];
    if (ids.length > MAX_PRODUCTS_BY_ID || ids.some((id) => !UUID.test(id))) {
      return reply.status(400).send(errorBody('bad_request', `Name at most ${MAX_PRODUCTS_BY_ID} product ids, separated by commas.`));
    }
    reply.header('cache-control', 'no-cache');
    return productsByIds(database.db, ids);
  });

  /** The shop's size chart, for the size picker and the measuring guide; the admin changes it rarely. */
  app.get('/api/size-chart', async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=60');
    return readSizeChart(database.db);
  });

  /** A product page's data, also for a slug the product had before a rename (the page then shows the new address). */
  app.get<{ Params: { slug: string } }>('/api/products/by-slug/:slug', async (request, reply) => {
    const { slug } = request.params;
    const prepared = isSlug(slug) ? await cache.answer(JSON.stringify(['product', slug]), async (tx) => (await productPage(tx, slug))?.page) : undefined;
    if (!prepared) return reply.status(404).send(errorBody('not_found', 'Product not found'));
    return sendPrepared(request, reply, prepared);
  });
  return cache;
}
