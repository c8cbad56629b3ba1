import { describe, expect, it } from 'vitest';
import { GALLERY_PHOTO_SIZES, photoSrcSet, type Product } from './catalog.js';
import { PLAIN_PRODUCT_MODEL } from './product-options.js';
import { buildPageHead, MAX_META_DESCRIPTION, META_PAGES, META_TEXTS, metaDescription, type PageHead, type PageHeadInput } from './page-head.js';

const siteUrl = 'https://shop.example';

const product: Product = {
  ...PLAIN_PRODUCT_MODEL,
  returnRule: 'standard',
  id: 'p1',
  slug: 'pearl-set',
  name: { en: 'Pearl Set', bg: 'Комплект „Перла“' },
  description: { en: 'Pearl press-ons.', bg: 'Перлени нокти.' },
  priceMinor: 3450,
  category: 'nails',
  stock: 0,
  weightGrams: null,
  photos: [
    { id: 'f1', url: '/images/nails/p1_1.webp', alt: { en: 'Pearl nails on a hand', bg: '' } },
    { id: 'f2', url: '/images/nails/p1_2.webp', alt: { en: '', bg: '' } },
  ],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-02-01T00:00:00.000Z',
};

/** The value of the first tag with this name, property or rel (hreflang for alternates). */
function tag(head: PageHead, key: string): string | undefined {
  for (const { attributes } of head.tags) {
    if (attributes.name === key || attributes.property === key) return attributes.content;
    if (attributes.rel === key || (attributes.rel === 'alternate' && attributes.hreflang === key)) return attributes.href;
  }
  return undefined;
}

const head = (input: Partial<PageHeadInput>) => buildPageHead({ siteUrl, language: 'en', pathname: '/', currency: 'BGN', showBgnEquivalent: false, ...input });

describe('buildPageHead', () => {
  it('gives the home page its title, addresses per language and the shop image', () => {
    const en = head({ page: 'home' });
    expect(en.title).toBe('Nail Art Atelier | Handmade Press-On Nails and Nail Art');
    expect(tag(en, 'description')).toBe('Handmade press-on nails, nail art, accessories and kits, made to order and shipped from Bulgaria. Prices in BGN.');
    expect(tag(en, 'canonical')).toBe('https://shop.example/');
    expect(tag(en, 'en')).toBe('https://shop.example/');
    expect(tag(en, 'bg')).toBe('https://shop.example/?lang=bg');
    expect(tag(en, 'x-default')).toBe('https://shop.example/');
    expect(tag(en, 'og:image')).toBe('https://shop.example/og-image.jpg');
    expect(tag(en, 'og:image:width')).toBe('1200');
    expect(tag(en, 'og:locale')).toBe('en_US');
    expect(tag(en, 'og:locale:alternate')).toBe('bg_BG');
    expect(tag(en, 'robots')).toBe('index, follow');

    const bg = head({ page: 'home', language: 'bg' });
    expect(bg.title).toBe('Nail Art Atelier | Ръчно изработени нокти и нейл арт');
    expect(tag(bg, 'canonical')).toBe('https://shop.example/?lang=bg');
    expect(tag(bg, 'og:url')).toBe('https://shop.example/?lang=bg');
    expect(tag(bg, 'og:locale')).toBe('bg_BG');
    expect(tag(bg, 'og:locale:alternate')).toBe('en_US');
    expect(tag(bg, 'keywords')).toContain('нейл арт');
  });

  it('gives a category view its own title, description and address', () => {
    const bg = head({ page: 'home', category: 'nail-art', language: 'bg' });
    expect(bg.title).toBe('Нейл арт | Nail Art Atelier');
    expect(tag(bg, 'description')).toBe('Стикери, декорации и кристали за нокти за вашия собствен маникюр, подбрани и изпращани от България. Цени в лева.');
    expect(tag(bg, 'canonical')).toBe('https://shop.example/?category=nail-art&lang=bg');
    expect(tag(bg, 'en')).toBe('https://shop.example/?category=nail-art');
  });

  it('shares the home page with the first product photo and lists the products shown', () => {
    const home = head({ page: 'home', products: [product], image: product.photos[0]!.url });
    expect(tag(home, 'og:image')).toBe('https://shop.example/images/nails/p1_1.webp');
    expect(tag(home, 'og:image:width')).toBe('960');
    expect(tag(home, 'og:image:type')).toBe('image/webp');
    expect(home.jsonLd.map((block) => block['@type'])).toEqual(['WebSite', 'WebPage', 'ItemList']);
    expect(home.jsonLd[2]).toMatchObject({ itemListElement: [{ item: { url: 'https://shop.example/product/pearl-set' } }] });
  });

  it("describes a product page with the product's own texts, photo and price in the page's language", () => {
    const bg = head({ pathname: '/product/pearl-set', product, language: 'bg' });
    expect(bg.title).toBe('Комплект „Перла“ | Nail Art Atelier');
    expect(tag(bg, 'description')).toBe('Перлени нокти.');
    expect(tag(bg, 'canonical')).toBe('https://shop.example/product/pearl-set?lang=bg');
    expect(tag(bg, 'en')).toBe('https://shop.example/product/pearl-set');
    expect(tag(bg, 'og:type')).toBe('product');
    expect(tag(bg, 'og:image')).toBe('https://shop.example/images/nails/p1_1.webp');
    // No Bulgarian alt text: the name in Bulgarian rather than the English alt text.
    expect(tag(bg, 'og:image:alt')).toBe('Комплект „Перла“');
    expect(tag(bg, 'product:price:amount')).toBe('34.50');
    expect(tag(bg, 'product:price:currency')).toBe('BGN');
    expect(bg.jsonLd[2]).toMatchObject({
      '@type': 'Product',
      name: 'Комплект „Перла“',
      image: ['https://shop.example/images/nails/p1_1.webp', 'https://shop.example/images/nails/p1_2.webp'],
      offers: { price: '34.50', priceCurrency: 'BGN', availability: 'https://schema.org/OutOfStock' },
    });
    expect(tag(head({ pathname: '/product/pearl-set', product }), 'og:image:alt')).toBe('Pearl nails on a hand');
  });

  it.each([
    ['BGN', false, 'en', 'Prices in BGN.'],
    ['BGN', false, 'bg', 'Цени в лева.'],
    ['EUR', false, 'en', 'Prices in euro.'],
    ['EUR', false, 'bg', 'Цени в евро.'],
    ['EUR', true, 'en', 'Prices in euro (and in BGN).'],
    ['EUR', true, 'bg', 'Цени в евро (и в лева).'],
  ] as const)('in a %s shop (BGN beside: %s) says in %s "%s" and gives every price in the shop\'s currency', (currency, showBgnEquivalent, language, prices) => {
    const shop = { currency, showBgnEquivalent, language };
    for (const page of [head({ ...shop, page: 'home' }), head({ ...shop, page: 'home', category: 'kits' }), head({ ...shop, pathname: '/cart', page: 'cart' })]) {
      expect(tag(page, 'description')).toMatch(new RegExp(`\\. ${prices.replace(/[().]/g, '\\$&')}$`));
      expect(tag(page, 'og:description')).toBe(tag(page, 'description'));
    }
    const productPage = head({ ...shop, pathname: '/product/pearl-set', product });
    expect(tag(productPage, 'product:price:currency')).toBe(currency);
    expect(productPage.jsonLd[2]).toMatchObject({ offers: { price: '34.50', priceCurrency: currency } });
    expect(head({ ...shop, page: 'home', products: [product] }).jsonLd[2]).toMatchObject({ itemListElement: [{ item: { offers: { priceCurrency: currency } } }] });
  });

  it('is the same for a product page given its name and description as for one given only the product', () => {
    const derived = head({ pathname: '/product/pearl-set', product });
    expect(head({ pathname: '/product/pearl-set', product, title: 'Pearl Set', description: 'Pearl press-ons.' })).toEqual(derived);
  });

  it("asks for a product page's first photo with the page, as its gallery will show it, and for no photo elsewhere", () => {
    const preloads = (page: PageHead) => page.tags.filter(({ attributes }) => attributes.rel === 'preload').map(({ attributes }) => attributes);
    const cover = product.photos[0]!.url;
    expect(preloads(head({ pathname: '/product/pearl-set', product }))).toEqual([
      { rel: 'preload', as: 'image', href: `${cover}?w=960`, imagesrcset: photoSrcSet(cover), imagesizes: GALLERY_PHOTO_SIZES, fetchpriority: 'high' },
    ]);
    expect(preloads(head({ pathname: '/product/pearl-set', product: { ...product, photos: [] } }))).toEqual([]);
    expect(preloads(head({ pathname: '/product/pearl-set', product, notFound: true }))).toEqual([]);
    expect(preloads(head({ page: 'home', products: [product] }))).toEqual([]);
  });

  it('names a renamed product by its current address', () => {
    expect(tag(head({ pathname: '/product/old-name', product }), 'canonical')).toBe('https://shop.example/product/pearl-set');
  });

  it('keeps personal pages out of search engines, with one address and no alternates', () => {
    const cart = head({ pathname: '/cart', page: 'cart', noIndex: true, language: 'bg' });
    expect(cart.title).toBe('Количка | Nail Art Atelier');
    expect(tag(cart, 'robots')).toBe('noindex, nofollow');
    expect(tag(cart, 'canonical')).toBe('https://shop.example/cart');
    expect(tag(cart, 'bg')).toBeUndefined();
    expect(tag(cart, 'og:locale:alternate')).toBeUndefined();
  });

  it('describes nothing on a page that does not exist', () => {
    const missing = head({ pathname: '/product/nothing', page: 'notFound', notFound: true });
    expect(missing.title).toBe('Page not found | Nail Art Atelier');
    expect(tag(missing, 'robots')).toBe('noindex, nofollow');
    expect(missing.jsonLd).toEqual([]);
    expect(tag(missing, 'x-default')).toBeUndefined();
  });

  it('has every title and text in both languages', () => {
    for (const page of META_PAGES) {
      expect(META_TEXTS.bg.pages[page].title).not.toBe(META_TEXTS.en.pages[page].title);
    }
    expect(Object.keys(META_TEXTS.bg.categories)).toEqual(Object.keys(META_TEXTS.en.categories));
  });
});

describe('metaDescription', () => {
  it('keeps a short text as one line', () => {
    expect(metaDescription('  Pink\n press-ons ')).toBe('Pink press-ons');
  });

  it('cuts a long text at a word', () => {
    const long = 'Pearl '.repeat(60);
    const cut = metaDescription(long);
    expect(cut.length).toBeLessThanOrEqual(MAX_META_DESCRIPTION);
    expect(cut).toMatch(/Pearl…$/);
  });
});
