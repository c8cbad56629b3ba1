import type { FastifyInstance } from 'fastify';
import { INDEXABLE_ROUTES } from '../../shared/routes.js';
import { catalogueUpdatedAt, listProducts } from '../catalog/service.js';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';

const escapeXml = (text: string) =>
  text.replace(/[<>&'"]/g, (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[char]!);

/** The sitemap lists the public pages, with the catalogue's images on the home page where they are shown. */
export async function buildSitemap(db: Database, publicUrl: string): Promise<string> {
  const [products, updatedAt] = await Promise.all([listProducts(db), catalogueUpdatedAt(db)]);
  const images = products
    .filter((product) => product.imageUrl)
    .map((product) => `    <image:image><image:loc>${escapeXml(publicUrl + product.imageUrl)}</image:loc></image:image>`);
  const urls = INDEXABLE_ROUTES.map((route) =>
    [
      '  <url>',
      `    <loc>${escapeXml(publicUrl + route)}</loc>`,
      ...(updatedAt ? [`    <lastmod>${updatedAt.toISOString()}</lastmod>`] : []),
      ...(route === '/' ? images : []),
      '  </url>',
    ].join('\n'),
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n');
}

export function buildRobotsTxt(publicUrl: string): string {
  return [
    'User-agent: *',
    'Allow: /',
    'Disallow: /api/',
    'Disallow: /admin',
    'Disallow: /cart',
    'Disallow: /checkout',
    'Disallow: /profile',
    'Disallow: /mock-payment/',
    `Sitemap: ${publicUrl}/sitemap.xml`,
    '',
  ].join('\n');
}

export function registerSeoRoutes(app: FastifyInstance, db: Database, config: Config): void {
  app.get('/sitemap.xml', async (_request, reply) =>
    reply
      .type('application/xml; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .send(await buildSitemap(db, config.publicUrl)),
  );
  app.get('/robots.txt', async (_request, reply) =>
    reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=3600').send(buildRobotsTxt(config.publicUrl)),
  );
}
