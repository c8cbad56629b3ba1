import type { FastifyInstance } from 'fastify';
import { isLegalPage, LEGAL_PAGES, type LegalPageResponse } from '#shared/legal.js';
import { errorBody } from '#server/http/errors.js';
import { legalPage, type LegalSettings } from './service.js';

export function registerLegalRoutes(app: FastifyInstance, settings: LegalSettings): void {
  /** A legal page in English or Bulgarian (?lang=bg; English without it). */
  app.get<{ Params: { page: string }; Querystring: { lang?: unknown } }>('/api/legal/:page', async (request, reply): Promise<LegalPageResponse | void> => {
    const { page } = request.params;
    const { lang = 'en' } = request.query;
    if (!isLegalPage(page)) return reply.status(404).send(errorBody('not_found', `No such legal page; there are ${LEGAL_PAGES.join(', ')}`));
    if (lang !== 'en' && lang !== 'bg') return reply.status(400).send(errorBody('bad_request', 'lang: must be en or bg'));
    // The owner may change a page at any time; every visit asks again.
    reply.header('cache-control', 'no-cache');
    return legalPage(settings, page, lang);
  });
}
