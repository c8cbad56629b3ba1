import { describe, expect, it } from 'vitest';
import type { Product } from '../../shared/catalog.js';
import { buildStructuredData, type StructuredDataInput } from './structured-data.js';

const base: StructuredDataInput = {
  url: 'https://shop.example/',
  siteUrl: 'https://shop.example',
  siteName: 'Nail Art Atelier',
  title: 'Home',
  description: 'Handmade nail art',
  language: 'en',
};

const product: Product = {
  id: 'p1',
  name: 'Rose Set',
  description: 'Pink press-ons',
  priceMinor: 2450,
  category: 'nails',
  stock: 2,
  imageUrl: '/images/nails/p1_1.webp',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

const types = (blocks: Record<string, unknown>[]) => blocks.map((block) => block['@type']);

describe('buildStructuredData', () => {
  it('describes the site and the page', () => {
    expect(types(buildStructuredData(base))).toEqual(['WebSite', 'WebPage']);
  });

  it('lists the products shown with their real BGN prices', () => {
    const [, , list] = buildStructuredData({ ...base, products: [product] });
    expect(list).toMatchObject({
      '@type': 'ItemList',
      itemListElement: [
        {
          position: 1,
          item: {
            name: 'Rose Set',
            image: 'https://shop.example/images/nails/p1_1.webp',
            offers: { price: '24.50', priceCurrency: 'BGN', availability: 'https://schema.org/InStock' },
          },
        },
      ],
    });
  });

  it('says a sold-out product is out of stock', () => {
    const [, , list] = buildStructuredData({ ...base, products: [{ ...product, stock: 0 }] });
    expect(list).toMatchObject({ itemListElement: [{ item: { offers: { availability: 'https://schema.org/OutOfStock' } } }] });
  });

  it('adds a product block to /product/ pages, with the product price when known', () => {
    const blocks = buildStructuredData({ ...base, url: 'https://shop.example/product/p1', product });
    expect(blocks[2]).toMatchObject({ '@type': 'Product', offers: { price: '24.50', priceCurrency: 'BGN' } });
  });

  it('falls back to 29.99 USD in stock on a /product/ page without product data', () => {
    const blocks = buildStructuredData({ ...base, url: 'https://shop.example/product/unknown' });
    expect(blocks[2]).toMatchObject({
      '@type': 'Product',
      offers: { price: '29.99', priceCurrency: 'USD', availability: 'https://schema.org/InStock' },
    });
  });

  it('describes nothing on a page that does not exist, even under /product/', () => {
    expect(buildStructuredData({ ...base, url: 'https://shop.example/product/anything', notFound: true })).toEqual([]);
    expect(buildStructuredData({ ...base, url: 'https://shop.example/no-such-page', notFound: true })).toEqual([]);
  });

  it('adds an article block to pages flagged as articles', () => {
    const blocks = buildStructuredData({ ...base, article: { headline: 'Caring for press-ons' } });
    expect(types(blocks)).toEqual(['WebSite', 'WebPage', 'Article']);
    expect(blocks[2]).toMatchObject({ headline: 'Caring for press-ons', publisher: { name: 'Nail Art Atelier' } });
  });
});
