import { pickText, type Product, type TextLanguage } from './catalog.js';
import type { Currency } from './money.js';
// Types only: the reviews' module brings the validation library, which the home page loads later.
import type { RatingSummary, Review } from './reviews.js';

/** The newest approved reviews a product page's structured data carries. */
export const STRUCTURED_DATA_REVIEWS = 5;

/** The specification's price for a product page that carries no product of its own. */
const FALLBACK_PRODUCT_PRICE = { price: '29.99', priceCurrency: 'USD' } as const;

export interface StructuredDataInput {
  /** The page's own address, absolute. */
  url: string;
  /** The shop's address without a trailing slash (PUBLIC_URL). */
  siteUrl: string;
  siteName: string;
  /** The shop's currency, which its products' prices are in. */
  currency: Currency;
  title: string;
  description: string;
  language: TextLanguage;
  /** Products shown on the page, listed in an ItemList. */
  products?: readonly Product[];
  /** The product a /product/ page is about. */
  product?: Product;
  /** Its rating and newest approved reviews, which the page shows. */
  productReviews?: { summary: RatingSummary; reviews: readonly Review[] };
  /** A product's page in the page's language, absolute; items of a list link to it when given. */
  productUrl?: (product: Product) => string;
  /** Marks the page as an article. */
  article?: { headline: string; datePublished?: string; dateModified?: string };
  /** A page that does not exist describes nothing, not even a product its address seems to name. */
  notFound?: boolean;
}

export type JsonLd = Record<string, unknown>;

/**
 * A sold-out piece is said to be out of stock, so that search results do not promise what is gone;
 * a piece made to order (no count) can always be ordered. A product counted per combination is in
 * stock while any combination is.
 */
function availability(product: Product | undefined): string {
  const soldOut =
    product?.stockMode === 'combination' && product.optionGroups.length > 0
      ? product.combinations.every((combination) => combination.stock === 0)
      : product?.stock === 0;
  return soldOut ? 'https://schema.org/OutOfStock' : 'https://schema.org/InStock';
}

/** A rated product's stars and its newest reviews, as search engines read them. */
function ratingBlocks(productReviews: StructuredDataInput['productReviews']): JsonLd {
  if (!productReviews || productReviews.summary.count === 0) return {};
  return {
    aggregateRating: { '@type': 'AggregateRating', ratingValue: productReviews.summary.average, reviewCount: productReviews.summary.count, bestRating: 5, worstRating: 1 },
    review: productReviews.reviews.slice(0, STRUCTURED_DATA_REVIEWS).map((review) => ({
      '@type': 'Review',
      reviewRating: { '@type': 'Rating', ratingValue: review.rating, bestRating: 5, worstRating: 1 },
      author: { '@type': 'Person', name: review.name },
      reviewBody: review.text,
      datePublished: review.createdAt.slice(0, 10),
      inLanguage: review.language,
    })),
  };
}

function productBlock(product: Product | undefined, url: string | undefined, input: StructuredDataInput): JsonLd {
  const images = product?.photos.map((photo) => input.siteUrl + photo.url) ?? [];
  return {
    '@type': 'Product',
    name: product ? pickText(product.name, input.language).text : input.title,
    description: product ? pickText(product.description, input.language).text : input.description,
    ...(images.length ? { image: images } : {}),
    ...(product?.category ? { category: product.category } : {}),
    ...(url ? { url } : {}),
    offers: {
      '@type': 'Offer',
      ...(url ? { url } : {}),
      ...(product ? { price: (product.priceMinor / 100).toFixed(2), priceCurrency: input.currency } : FALLBACK_PRODUCT_PRICE),
      availability: availability(product),
    },
  };
}

/** The JSON-LD blocks of a page: the site, the page, and its products or article; none for a page that does not exist. */
export function buildStructuredData(input: StructuredDataInput): JsonLd[] {
  if (input.notFound) return [];
  const blocks: JsonLd[] = [
    {
      '@context': 'https://schema.org',
      '@type': 'WebSite',
      name: input.siteName,
      url: input.siteUrl + '/',
      inLanguage: input.language,
    },
    {
      '@context': 'https://schema.org',
      '@type': 'WebPage',
      name: input.title,
      description: input.description,
      url: input.url,
      inLanguage: input.language,
    },
  ];
  if (new URL(input.url).pathname.includes('/product/')) {
    blocks.push({ '@context': 'https://schema.org', ...productBlock(input.product, input.url, input), ...(input.product ? ratingBlocks(input.productReviews) : {}) });
  }
  if (input.products?.length) {
    blocks.push({
      '@context': 'https://schema.org',
      '@type': 'ItemList',
      itemListElement: input.products.map((product, index) => ({
        '@type': 'ListItem',
        position: index + 1,
        item: productBlock(product, input.productUrl?.(product), input),
      })),
    });
  }
  if (input.article) {
    blocks.push({
      '@context': 'https://schema.org',
      '@type': 'Article',
      headline: input.article.headline,
      description: input.description,
      url: input.url,
      inLanguage: input.language,
      ...(input.article.datePublished ? { datePublished: input.article.datePublished } : {}),
      ...(input.article.dateModified ? { dateModified: input.article.dateModified } : {}),
      publisher: { '@type': 'Organization', name: input.siteName, url: input.siteUrl + '/' },
    });
  }
  return blocks;
}

/**
 * A block as the text of its script element. "<" is written \u003c (the same JSON), so that no text
 * of a product, "</script>" say, can end the element early when the server writes it into the page.
 */
export const jsonLdText = (block: JsonLd): string => JSON.stringify(block).replace(/</g, '\\u003c');
