import { coverUrl, parseCatalogueQuery } from '#shared/catalog.js';
import type { Currency } from '#shared/money.js';
import { isLegalPage } from '#shared/legal.js';
import { buildPageHead, PAGE_HEAD_ATTRIBUTE, type MetaPage, type PageHead, type PageHeadInput } from '#shared/page-head.js';
import { DEFAULT_PAGE_LANGUAGE, languageFromSearch, matchPageRoute, productPath, type PageName } from '#shared/routes.js';
import { isSlug } from '#shared/slug.js';
import { jsonLdText, STRUCTURED_DATA_REVIEWS } from '#shared/structured-data.js';
import { findProductBySlug, listProducts } from '#server/catalog/product-queries.js';
import { productReviews as readProductReviews } from '#server/reviews/service.js';
import type { Executor } from '#server/db/client.js';

/**
 * What the server answers a page's address with: the app with the page's head (200, or 404 for a page
 * that does not exist), or a permanent redirect (a product's slug from before a rename).
 */
export type PageAnswer = { status: 200 | 404; head: PageHead } | { status: 301; location: string };

/** Personal and transactional pages: their own title, never indexed, as their components set it too. */
const PERSONAL_PAGES: Partial<Record<PageName, MetaPage>> = {
  profile: 'profile',
  favourites: 'favourites',
  cart: 'cart',
  checkout: 'checkout',
  payment: 'payment',
  mockPayment: 'mockPayment',
  admin: 'admin',
};

export interface PageRequest {
  siteUrl: string;
  /** The shop's currency and whether it shows the BGN equivalent: the heads' prices and descriptions say them. */
  currency: Currency;
  showBgnEquivalent: boolean;
  pathname: string;
  /** The address's query, with its "?" or empty. */
  search: string;
}

const notFoundHead = ({ siteUrl, currency, showBgnEquivalent, pathname, search }: PageRequest): PageAnswer => ({
  status: 404,
  head: buildPageHead({ siteUrl, currency, showBgnEquivalent, pathname, language: languageFromSearch(search) ?? DEFAULT_PAGE_LANGUAGE, page: 'notFound', notFound: true }),
});

/**
 * The head of a page that needs no data: a personal page's, the not-found page's, or (when the
 * database cannot be asked) the generic head of the home or a product page.
 */
export function pageWithoutData(request: PageRequest): PageAnswer {
  const { siteUrl, currency, showBgnEquivalent, pathname, search } = request;
  const shop = { siteUrl, currency, showBgnEquivalent };
  const route = matchPageRoute(pathname);
  if (!route) return notFoundHead(request);
  const language = languageFromSearch(search) ?? DEFAULT_PAGE_LANGUAGE;
  if (route.page === 'legal') {
    // The legal pages' titles are the shop's; an owner who renames a page's heading keeps this title.
    return isLegalPage(route.param) ? { status: 200, head: buildPageHead({ ...shop, pathname, language, page: route.param, noIndex: true }) } : notFoundHead(request);
  }
  const personal = PERSONAL_PAGES[route.page];
  const input: PageHeadInput = personal ? { ...shop, pathname, language, page: personal, noIndex: true } : { ...shop, pathname, language, page: route.page === 'home' ? 'home' : 'default' };
  return { status: 200, head: buildPageHead(input) };
}

/**
 * Decides a page's answer and head in the language its address names: the home page with the
 * products it shows (and a category view's own title and address), a product page with its product,
 * a redirect from a product's old slug, 404 for an unknown one.
 */
export async function answerPage(db: Executor, request: PageRequest): Promise<PageAnswer> {
  const { siteUrl, currency, showBgnEquivalent, pathname, search } = request;
  const shop = { siteUrl, currency, showBgnEquivalent };
  const route = matchPageRoute(pathname);
  const language = languageFromSearch(search) ?? DEFAULT_PAGE_LANGUAGE;
  if (route?.page === 'home') {
    // The same products, in the same order, as the page asks the API for, so that the app's head matches.
    const query = parseCatalogueQuery(new URLSearchParams(search));
    const { products } = await listProducts(db, { ...query, language });
    const first = products[0];
    return {
      status: 200,
      head: buildPageHead({ ...shop, pathname, language, page: 'home', category: query.category, products, image: first ? coverUrl(first) : null }),
    };
  }
  if (route?.page === 'product') {
    const slug = route.param ?? '';
    const found = isSlug(slug) ? await findProductBySlug(db, slug) : undefined;
    if (!found) return notFoundHead(request);
    if (found.redirect) return { status: 301, location: productPath(found.product.slug, search) };
    const productReviews = await readProductReviews(db, found.product.id, undefined, STRUCTURED_DATA_REVIEWS);
    return { status: 200, head: buildPageHead({ ...shop, pathname, language, product: found.product, productReviews }) };
  }
  return pageWithoutData(request);
}

/**
 * The head of the app shell (/index.html) that the offline worker keeps and answers every page with
 * while offline: the same for every request, so that the worker's revision of it stays the same.
 */
export const shellHead = (shop: Pick<PageRequest, 'siteUrl' | 'currency' | 'showBgnEquivalent'>): PageHead =>
  buildPageHead({ ...shop, pathname: '/index.html', language: DEFAULT_PAGE_LANGUAGE, page: 'default', noIndex: true });

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

/** The head as HTML: every text escaped, and JSON-LD that no product text can break out of. */
function renderPageHead(head: PageHead): string {
  const attributes = (values: Record<string, string>) =>
    Object.entries(values)
      .map(([name, value]) => ` ${name}="${escapeHtml(value)}"`)
      .join('');
  return [
    `<title>${escapeHtml(head.title)}</title>`,
    ...head.tags.map(({ element, attributes: values }) => `<${element} ${PAGE_HEAD_ATTRIBUTE}${attributes(values)} />`),
    ...head.jsonLd.map((block) => `<script type="application/ld+json" ${PAGE_HEAD_ATTRIBUTE}>${jsonLdText(block)}</script>`),
  ].join('\n    ');
}

/** Where index.html takes the page's head. */
const PAGE_HEAD_PLACEHOLDER = '<!--page-head-->';

/** The page with its head in place of the placeholder (before </head> if a page has none) and its language on <html>. */
export function injectPageHead(html: string, head: PageHead): string {
  const rendered = renderPageHead(head);
  // A function as replacement, so that "$&" and the like in a product's text stay as they are.
  const withHead = html.includes(PAGE_HEAD_PLACEHOLDER) ? html.replace(PAGE_HEAD_PLACEHOLDER, () => rendered) : html.replace('</head>', () => `${rendered}\n</head>`);
  return /<html\b[^>]*\slang="[^"]*"/i.test(withHead)
    ? withHead.replace(/(<html\b[^>]*\slang=")[^"]*"/i, `$1${head.language}"`)
    : withHead.replace(/<html\b/i, `<html lang="${head.language}"`);
}
