import type { Product } from '../../shared/catalog.js';

/** The specification's price for a product page that carries no product of its own. */
export const FALLBACK_PRODUCT_PRICE = { price: '29.99', priceCurrency: 'USD' } as const;

export interface StructuredDataInput {
  url: string;
  siteUrl: string;
  siteName: string;
  title: string;
  description: string;
  language: string;
  /** Products shown on the page, listed in an ItemList. */
  products?: readonly Product[];
  /** The product a /product/ page is about. */
  product?: Product;
  /** Marks the page as an article. */
  article?: { headline: string; datePublished?: string; dateModified?: string };
  /** A page that does not exist describes nothing, not even a product its address seems to name. */
  notFound?: boolean;
}

type JsonLd = Record<string, unknown>;

function productBlock(product: Product | undefined, input: StructuredDataInput): JsonLd {
  const image = product?.imageUrl ? input.siteUrl + product.imageUrl : undefined;
  return {
    '@type': 'Product',
    name: product?.name ?? input.title,
    description: product?.description ?? input.description,
    ...(image ? { image } : {}),
    ...(product?.category ? { category: product.category } : {}),
    offers: {
      '@type': 'Offer',
      url: input.url,
      ...(product ? { price: (product.priceMinor / 100).toFixed(2), priceCurrency: 'BGN' } : FALLBACK_PRODUCT_PRICE),
      // A sold-out piece is said to be out of stock, so that search results do not promise what is gone.
      availability: product?.stock === 0 ? 'https://schema.org/OutOfStock' : 'https://schema.org/InStock',
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
    blocks.push({ '@context': 'https://schema.org', ...productBlock(input.product, input) });
  }
  if (input.products?.length) {
    blocks.push({
      '@context': 'https://schema.org',
      '@type': 'ItemList',
      itemListElement: input.products.map((product, index) => ({
        '@type': 'ListItem',
        position: index + 1,
        item: productBlock(product, input),
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
