import { describe, expect, it } from 'vitest';
import type { Product } from './catalog.js';
import { PLAIN_PRODUCT_MODEL } from './product-options.js';
import { buildStructuredData, jsonLdText, type StructuredDataInput } from './structured-data.js';

const base: StructuredDataInput = {
  url: 'https://shop.example/',
  siteUrl: 'https://shop.example',
  siteName: 'Nail Art Atelier',
  currency: 'BGN',
  title: 'Home',
  description: 'Handmade nail art',
  language: 'en',
};

const product: Product = {
  ...PLAIN_PRODUCT_MODEL,
  returnRule: 'standard',
  id: 'p1',
  slug: 'rose-set',
  name: { en: 'Rose Set', bg: 'Комплект „Роза“' },
  description: { en: 'Pink press-ons', bg: '' },
  priceMinor: 2450,
  category: 'nails',
  stock: 2,
  weightGrams: null,
  photos: [
    { id: 'f1', url: '/images/nails/p1_1.webp', alt: { en: '', bg: '' } },
    { id: 'f2', url: '/images/nails/p1_2.webp', alt: { en: 'Side view', bg: 'Отстрани' } },
  ],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

const types = (blocks: Record<string, unknown>[]) => blocks.map((block) => block['@type']);

describe('buildStructuredData', () => {
  it('describes the site and the page', () => {
    expect(types(buildStructuredData(base))).toEqual(['WebSite', 'WebPage']);
  });

  it('lists the products shown with their real BGN prices, every photo and their pages', () => {
    const [, , list] = buildStructuredData({ ...base, products: [product], productUrl: (shown) => `https://shop.example/product/${shown.slug}` });
    expect(list).toMatchObject({
      '@type': 'ItemList',
      itemListElement: [
        {
          position: 1,
          item: {
            name: 'Rose Set',
            image: ['https://shop.example/images/nails/p1_1.webp', 'https://shop.example/images/nails/p1_2.webp'],
            url: 'https://shop.example/product/rose-set',
            offers: { price: '24.50', priceCurrency: 'BGN', availability: 'https://schema.org/InStock' },
          },
        },
      ],
    });
  });

  it('gives a euro shop\'s prices in euro', () => {
    const [, , list] = buildStructuredData({ ...base, currency: 'EUR', products: [product] });
    expect(list).toMatchObject({ itemListElement: [{ item: { offers: { price: '24.50', priceCurrency: 'EUR' } } }] });
    const [, , page] = buildStructuredData({ ...base, currency: 'EUR', url: 'https://shop.example/product/rose-set', product });
    expect(page).toMatchObject({ '@type': 'Product', offers: { price: '24.50', priceCurrency: 'EUR' } });
  });

  it.each([
    [0, 'https://schema.org/OutOfStock'],
    [1, 'https://schema.org/InStock'],
    [null, 'https://schema.org/InStock'],
  ])('says a product with stock %j is %s', (stock, availability) => {
    const [, , list] = buildStructuredData({ ...base, products: [{ ...product, stock }] });
    expect(list).toMatchObject({ itemListElement: [{ item: { offers: { availability } } }] });
  });

  it.each([
    [[0, 0], 'https://schema.org/OutOfStock'],
    [[0, 2], 'https://schema.org/InStock'],
    [[0, null], 'https://schema.org/InStock'],
  ])('says a product counted per combination, with counts %j, is %s', (counts, availability) => {
    const shape = { id: 'shape', name: { en: 'Shape', bg: '' }, values: ['almond', 'coffin'].map((id) => ({ id, name: { en: id, bg: '' }, priceDeltaMinor: 0 })) };
    const combinations = counts.map((stock, index) => ({ key: shape.values[index]!.id, stock }));
    const [, , list] = buildStructuredData({ ...base, products: [{ ...product, stock: null, optionGroups: [shape], stockMode: 'combination', combinations }] });
    expect(list).toMatchObject({ itemListElement: [{ item: { offers: { availability } } }] });
  });

  it('adds a product block to /product/ pages, in the page language, with the product price when known', () => {
    const url = 'https://shop.example/product/rose-set?lang=bg';
    const blocks = buildStructuredData({ ...base, language: 'bg', url, product });
    expect(blocks[2]).toEqual({
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: 'Комплект „Роза“',
      // No Bulgarian description: the English one rather than none.
      description: 'Pink press-ons',
      image: ['https://shop.example/images/nails/p1_1.webp', 'https://shop.example/images/nails/p1_2.webp'],
      category: 'nails',
      url,
      offers: { '@type': 'Offer', url, price: '24.50', priceCurrency: 'BGN', availability: 'https://schema.org/InStock' },
    });
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

describe('jsonLdText', () => {
  it('cannot close its script element, and reads back as the same block', () => {
    const block = { name: '</script><script>alert(1)</script>' };
    expect(jsonLdText(block)).not.toContain('<');
    expect(JSON.parse(jsonLdText(block))).toEqual(block);
  });
});
