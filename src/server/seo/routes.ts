import type { FastifyInstance } from 'fastify';
import { PRODUCT_CATEGORIES, TEXT_LANGUAGES } from '#shared/catalog.js';
import { DEFAULT_PAGE_LANGUAGE, localizedPath, PAGE_ROUTES, productPath } from '#shared/routes.js';
import { catalogueUpdatedAt, sitemapProducts } from '#server/catalog/product-queries.js';
import type { Config } from '#server/config.js';
import type { Database } from '#server/db/client.js';

const escapeXml = (text: string) =>
  text.replace(/[<>&'"]/g, (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[char]!);

interface SitemapPage {
  path: string;
  params?: Record<string, string>;
  lastmod: Date | null;
  images?: readonly string[];
}

/** A page's entries, one per language, each naming every language's address (and x-default) as alternates. */
function entries(publicUrl: string, page: SitemapPage): string[] {
  const url = (language: (typeof TEXT_LANGUAGES)[number]) => escapeXml(publicUrl + localizedPath(page.path, language, page.params));
  const alternates = [
    ...TEXT_LANGUAGES.map((language) => `    <xhtml:link rel="alternate" hreflang="${language}" href="${url(language)}"/>`),
    `    <xhtml:link rel="alternate" hreflang="x-default" href="${url(DEFAULT_PAGE_LANGUAGE)}"/>`,
  ];
  return TEXT_LANGUAGES.map((language) =>
    [
      '  <url>',
      `    <loc>${url(language)}</loc>`,
      ...(page.lastmod ? [`    <lastmod>${page.lastmod.toISOString()}</lastmod>`] : []),
      ...alternates,
      ...(page.images ?? []).map((image) => `    <image:image><image:loc>${escapeXml(publicUrl + image)}</image:loc></image:image>`),
      '  </url>',
    ].join('\n'),
  );
}

/**
 * The sitemap lists every indexable page in both languages: the home page, its category views, and
 * every product page with all its photos. The home page and the views changed when the catalogue last did.
 */
async function buildSitemap(db: Database, publicUrl: string): Promise<string> {
  const [products, updatedAt] = await Promise.all([sitemapProducts(db), catalogueUpdatedAt(db)]);
  const pages: SitemapPage[] = [
    { path: PAGE_ROUTES.home, lastmod: updatedAt },
    ...PRODUCT_CATEGORIES.map((category) => ({ path: PAGE_ROUTES.home, params: { category }, lastmod: updatedAt })),
    ...products.map((product) => ({
      path: productPath(product.slug),
      lastmod: new Date(product.updatedAt),
      images: product.photos.map((photo) => photo.url),
    })),
  ];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">',
    ...pages.flatMap((page) => entries(publicUrl, page)),
    '</urlset>',
    '',
  ].join('\n');
}

function buildRobotsTxt(publicUrl: string): string {
  return [
    'User-agent: *',
    'Allow: /',
    'Disallow: /api/',
    `Disallow: ${PAGE_ROUTES.admin}`,
    `Disallow: ${PAGE_ROUTES.cart}`,
    // The payment pages sit under the checkout's path.
    `Disallow: ${PAGE_ROUTES.checkout}`,
    `Disallow: ${PAGE_ROUTES.profile}`,
    `Disallow: ${PAGE_ROUTES.mockPayment.replace(':orderId', '')}`,
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
