import { brotliDecompressSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { pickText, PRODUCT_CATEGORIES, type Product, type TextLanguage } from '#shared/catalog.js';
import { metaDescription } from '#shared/page-head.js';
import { sitemapProducts } from '#server/catalog/product-queries.js';
import { updateProduct } from '#server/catalog/product-writes.js';
import { seedDemoCatalogue } from '#server/catalog/seed-demo-catalogue.js';
import { products } from '#server/db/schema.js';
import { MAX_STALENESS_MS } from '#server/catalog/catalogue-cache.js';
import { eventually } from './shopper.js';
import { describeEachDatabase } from './test-app.js';

// What a crawler or a link preview that runs no JavaScript reads: the raw HTML the server sends.

const decode = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|#39);/g, (_entity, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name]!);

interface RawHead {
  html: string;
  lang: string | undefined;
  title: string | undefined;
  /** Content of the meta tag with this name or property. */
  meta(key: string): string | undefined;
  /** href of the link with this rel, or of the alternate with this hreflang. */
  link(key: string): string | undefined;
  jsonLd: Record<string, unknown>[];
}

function readHead(html: string): RawHead {
  const head = html.slice(0, html.indexOf('</head>'));
  const tags = [...head.matchAll(/<(meta|link)\b([^>]*?)\/?>/g)].map(([, , attributes]) =>
    Object.fromEntries([...attributes!.matchAll(/([\w:-]+)="([^"]*)"/g)].map(([, name, value]) => [name!, decode(value!)])),
  );
  return {
    html,
    lang: /<html\b[^>]*\slang="([^"]*)"/.exec(html)?.[1],
    title: ((title) => (title === undefined ? undefined : decode(title)))(/<title>([^<]*)<\/title>/.exec(head)?.[1]),
    meta: (key) => tags.find((tag) => tag.name === key || tag.property === key)?.content,
    link: (key) => tags.find((tag) => (tag.rel === key && !tag.hreflang) || (tag.rel === 'alternate' && tag.hreflang === key))?.href,
    jsonLd: [...head.matchAll(/<script type="application\/ld\+json"[^>]*>([^<]*)<\/script>/g)].map(([, json]) => JSON.parse(json!) as Record<string, unknown>),
  };
}

const site = 'http://shop.test';
const titleOf = (product: Product, language: TextLanguage) => `${pickText(product.name, language).text} | Nail Art Atelier`;

describeEachDatabase('page heads in the HTML', (context) => {
  let catalogue: Product[] = [];
  const get = async (url: string) => {
    const response = await context().app.inject({ method: 'GET', url });
    return { response, head: readHead(response.body) };
  };
  const named = (english: string) => catalogue.find((product) => product.name.en === english)!;

  beforeAll(async () => {
    const { database, images } = context();
    await seedDemoCatalogue(database.db, images);
    catalogue = await sitemapProducts(database.db);
  });

  it('gives the home page its English head, its alternates and the products it shows', async () => {
    const { response, head } = await get('/');
    expect(response.statusCode).toBe(200);
    expect(head.lang).toBe('en');
    expect(head.title).toBe('Nail Art Atelier | Handmade Press-On Nails and Nail Art');
    expect(head.meta('description')).toMatch(/^Handmade press-on nails.* Prices in BGN\.$/);
    expect(head.meta('robots')).toBe('index, follow');
    expect(head.link('canonical')).toBe(`${site}/`);
    expect(head.link('en')).toBe(`${site}/`);
    expect(head.link('bg')).toBe(`${site}/?lang=bg`);
    expect(head.link('x-default')).toBe(`${site}/`);
    expect(head.meta('og:url')).toBe(`${site}/`);
    expect(head.meta('og:locale')).toBe('en_US');
    expect(head.meta('twitter:card')).toBe('summary_large_image');
    // The page lists the products as the app asks the API for them; the first one's cover is its picture.
    const shown = (await context().app.inject({ method: 'GET', url: '/api/products' })).json<{ products: Product[] }>().products;
    const first = shown[0]!;
    expect(head.meta('og:image')).toBe(site + first.photos[0]!.url);
    expect(head.jsonLd.map((block) => block['@type'])).toEqual(['WebSite', 'WebPage', 'ItemList']);
    const list = head.jsonLd[2] as { itemListElement: { item: { name: string; url: string } }[] };
    expect(list.itemListElement).toHaveLength(catalogue.length);
    expect(list.itemListElement[0]!.item).toMatchObject({ name: first.name.en, url: `${site}/product/${first.slug}` });
    // The settings are still there, and the head only once.
    expect(response.body).toContain('<script id="shop-settings" type="application/json">');
    expect(response.body.match(/<title>/g)).toHaveLength(1);
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it('gives the home page its Bulgarian head at ?lang=bg', async () => {
    const { response, head } = await get('/?lang=bg');
    expect(response.statusCode).toBe(200);
    expect(head.lang).toBe('bg');
    expect(head.title).toBe('Nail Art Atelier | Ръчно изработени нокти и нейл арт');
    expect(head.meta('description')).toMatch(/^Ръчно изработени.* Цени в лева\.$/);
    expect(head.meta('keywords')).toContain('нейл арт');
    expect(head.link('canonical')).toBe(`${site}/?lang=bg`);
    expect(head.link('en')).toBe(`${site}/`);
    expect(head.meta('og:locale')).toBe('bg_BG');
    // The same first product as the page itself asks the API for.
    const shown = (await context().app.inject({ method: 'GET', url: '/api/products?lang=bg' })).json<{ products: Product[] }>().products;
    const first = shown[0]!;
    expect(head.meta('og:image')).toBe(site + first.photos[0]!.url);
    const list = head.jsonLd[2] as { itemListElement: { item: { name: string; url: string } }[] };
    expect(list.itemListElement[0]!.item).toMatchObject({ name: first.name.bg, url: `${site}/product/${first.slug}?lang=bg` });
    // A language the shop does not have is English.
    expect((await get('/?lang=de')).head.lang).toBe('en');
  });

  it('gives a category view its own title, description, address and products', async () => {
    const { head } = await get('/?category=kits&lang=bg&sort=price');
    expect(head.title).toBe('Комплекти | Nail Art Atelier');
    expect(head.meta('description')).toMatch(/^Комплекти за нейл арт/);
    // Sorting and paging are views of the same page.
    expect(head.link('canonical')).toBe(`${site}/?category=kits&lang=bg`);
    expect(head.link('en')).toBe(`${site}/?category=kits`);
    const list = head.jsonLd[2] as { itemListElement: { item: { category: string } }[] };
    const kits = catalogue.filter((product) => product.category === 'kits');
    expect(list.itemListElement.map((entry) => entry.item.category)).toEqual(kits.map(() => 'kits'));

    expect((await get('/?category=nails')).head.title).toBe('Nails | Nail Art Atelier');
  });

  it("describes a product page in each language with the product's name, photo, price and stock", async () => {
    const product = named('Blush Pearl Almond Set');
    for (const [language, search] of [
      ['en', ''],
      ['bg', '?lang=bg'],
    ] as const) {
      const { response, head } = await get(`/product/${product.slug}${search}`);
      expect(response.statusCode).toBe(200);
      expect(head.lang).toBe(language);
      expect(head.title).toBe(titleOf(product, language));
      expect(head.meta('description')).toBe(metaDescription(pickText(product.description, language).text));
      expect(head.meta('og:type')).toBe('product');
      expect(head.meta('og:title')).toBe(titleOf(product, language));
      expect(head.meta('og:image')).toBe(site + product.photos[0]!.url);
      expect(head.meta('twitter:image')).toBe(site + product.photos[0]!.url);
      expect(head.link('canonical')).toBe(`${site}/product/${product.slug}${search}`);
      expect(head.link('bg')).toBe(`${site}/product/${product.slug}?lang=bg`);
      expect(head.link('x-default')).toBe(`${site}/product/${product.slug}`);
      expect(head.jsonLd.map((block) => block['@type'])).toEqual(['WebSite', 'WebPage', 'Product']);
      expect(head.jsonLd[2]).toMatchObject({
        name: pickText(product.name, language).text,
        description: pickText(product.description, language).text,
        image: product.photos.map((photo) => site + photo.url),
        offers: { price: (product.priceMinor / 100).toFixed(2), priceCurrency: 'BGN', availability: 'https://schema.org/InStock' },
      });
    }
    expect((await get(`/product/${product.slug}?lang=bg`)).head.title).toMatch(/^Комплект/);
  });

  it('says a sold-out product is out of stock, and a made-to-order one in stock', async () => {
    const soldOut = catalogue.find((product) => product.stock === 0)!;
    const madeToOrder = catalogue.find((product) => product.stock === null)!;
    expect((await get(`/product/${soldOut.slug}`)).head.jsonLd[2]).toMatchObject({ offers: { availability: 'https://schema.org/OutOfStock' } });
    expect((await get(`/product/${madeToOrder.slug}`)).head.jsonLd[2]).toMatchObject({ offers: { availability: 'https://schema.org/InStock' } });
  });

  it('sends the old address of a renamed product on to the new one, keeping the query', async () => {
    const { database } = context();
    const product = named('Midnight Galaxy Coffin Set');
    const renamed = await updateProduct(
      database.db,
      product.id,
      { name: { en: 'Starry Night Coffin Set', bg: 'Нокти балерина „Звездна нощ“' }, description: product.description, priceMinor: product.priceMinor, category: product.category },
      { stock: undefined, stockSeen: undefined },
      'admin@shop.test',
    );
    expect(renamed.slug).not.toBe(product.slug);
    const { response } = await get(`/product/${product.slug}?lang=bg`);
    expect(response.statusCode).toBe(301);
    expect(response.headers.location).toBe(`/product/${renamed.slug}?lang=bg`);
    const moved = await get(`/product/${renamed.slug}?lang=bg`);
    expect(moved.response.statusCode).toBe(200);
    expect(moved.head.title).toBe('Нокти балерина „Звездна нощ“ | Nail Art Atelier');
  });

  it('sends a page prepared once, compressed as the browser asks, 304 for the copy it holds, and new at the first request after a change', async () => {
    const { app, database } = context();
    // Read again: a test before this one renames a product, whose old address now answers 301.
    const product = (await sitemapProducts(database.db)).find((candidate) => candidate.stock !== null && candidate.stock > 0)!;
    const url = `/product/${product.slug}`;
    const plain = await app.inject({ method: 'GET', url });
    const compressed = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(compressed.headers).toMatchObject({ 'content-encoding': 'br', 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache', vary: 'accept-encoding' });
    expect(brotliDecompressSync(compressed.rawPayload).toString()).toBe(plain.body);
    expect(compressed.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    const etag = String(compressed.headers.etag);
    expect((await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br', 'if-none-match': etag } })).statusCode).toBe(304);

    // Written straight to the table, as no route would: the change still reaches the answers, with its
    // notice (on PostgreSQL a moment after the commit: docs/decisions/0023-bounded-catalogue-staleness.md).
    await database.db.update(products).set({ stock: 0 }).where(eq(products.id, product.id));
    const changed = await eventually(
      async () => {
        const answer = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br', 'if-none-match': etag } });
        return answer.statusCode === 200 && answer;
      },
      MAX_STALENESS_MS * 5,
      'the page after the change',
    );
    expect(readHead(brotliDecompressSync(changed.rawPayload).toString()).jsonLd[2]).toMatchObject({ offers: { availability: 'https://schema.org/OutOfStock' } });
    await database.db.update(products).set({ stock: product.stock }).where(eq(products.id, product.id));
    await eventually(async () => (await app.inject({ method: 'GET', url })).body === plain.body, MAX_STALENESS_MS * 5, 'the page as it was');
  });

  it('answers an unknown product, or an address that is no slug, with the not-found page and no structured data', async () => {
    for (const url of ['/product/no-such-piece', '/product/no-such-piece?lang=bg', '/product/Not_A_Slug', '/product/%3Cscript%3E', '/no/such/page']) {
      const { response, head } = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.body, url).toContain('<div id="root">');
      expect(head.meta('robots'), url).toBe('noindex, nofollow');
      expect(head.jsonLd, url).toEqual([]);
      expect(head.link('x-default'), url).toBeUndefined();
      expect(head.title, url).toMatch(/^(Page not found|Страницата не е намерена) \| Nail Art Atelier$/);
    }
    expect((await get('/product/no-such-piece?lang=bg')).head.lang).toBe('bg');
  });

  it('keeps personal pages out of search engines', async () => {
    for (const [url, title] of [
      ['/cart', 'Cart | Nail Art Atelier'],
      ['/profile?tab=orders&lang=bg', 'Моят профил | Nail Art Atelier'],
      ['/checkout', 'Checkout | Nail Art Atelier'],
      ['/checkout/payment/ORDER123', 'Payment | Nail Art Atelier'],
      ['/mock-payment/ORDER123?method=card', 'Simulated payment | Nail Art Atelier'],
      ['/admin', 'Admin dashboard | Nail Art Atelier'],
    ] as const) {
      const { response, head } = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(head.title, url).toBe(title);
      expect(head.meta('robots'), url).toBe('noindex, nofollow');
      expect(head.link('bg'), url).toBeUndefined();
      expect(head.link('canonical'), url).toBe(site + url.split('?')[0]);
    }
  });

  it('writes product texts into the page safely', async () => {
    const { database } = context();
    const product = named('Tiny Heart Charms');
    const name = '</script><script>alert(1)</script> "Hearts" & <b>$& more</b>';
    const renamed = await updateProduct(
      database.db,
      product.id,
      { name: { en: name, bg: '' }, description: { en: '</title><img src=x onerror=alert(1)>', bg: '' }, priceMinor: product.priceMinor, category: product.category },
      { stock: undefined, stockSeen: undefined },
      'admin@shop.test',
    );
    const { response, head } = await get(`/product/${renamed.slug}?lang=bg`);
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toContain('<script>alert(1)');
    expect(response.body).not.toContain('<img src=x');
    expect(response.body).not.toContain('<b>');
    // Read back, the texts are the product's own; with no Bulgarian name, the English one.
    expect(head.title).toBe(`${name} | Nail Art Atelier`);
    expect(head.meta('og:title')).toBe(`${name} | Nail Art Atelier`);
    expect(head.jsonLd[2]).toMatchObject({ name, description: '</title><img src=x onerror=alert(1)>' });
  });

  it('keeps a generic English head on the offline shell, the same for every request', async () => {
    const first = await get('/index.html');
    const second = await get('/index.html?lang=bg');
    expect(first.response.body).toBe(second.response.body);
    expect(first.head.lang).toBe('en');
    expect(first.head.title).toBe('Nail Art Atelier | Handmade Nail Art Shop');
    expect(first.head.meta('robots')).toBe('noindex, nofollow');
  });

  it('lists every indexable page in both languages in the sitemap, with alternates, dates and photos', async () => {
    const { database } = context();
    const products = await sitemapProducts(database.db);
    const { statusCode, body } = await context().app.inject({ method: 'GET', url: '/sitemap.xml' });
    expect(statusCode).toBe(200);
    expect(body).toContain('xmlns:xhtml="http://www.w3.org/1999/xhtml"');
    const entries = [...body.matchAll(/<url>([\s\S]*?)<\/url>/g)].map(([, entry]) => entry!);
    expect(entries).toHaveLength(2 * (1 + PRODUCT_CATEGORIES.length + products.length));
    const entry = (loc: string) => entries.find((candidate) => candidate.includes(`<loc>${loc}</loc>`));

    const latest = new Date(Math.max(...products.map((product) => Date.parse(product.updatedAt)))).toISOString();
    for (const loc of [`${site}/`, `${site}/?lang=bg`, `${site}/?category=nails`, `${site}/?category=nail-art&amp;lang=bg`]) {
      expect(entry(loc), loc).toContain(`<lastmod>${latest}</lastmod>`);
    }
    expect(entry(`${site}/?lang=bg`)).toContain(`<xhtml:link rel="alternate" hreflang="en" href="${site}/"/>`);
    expect(entry(`${site}/?lang=bg`)).toContain(`<xhtml:link rel="alternate" hreflang="x-default" href="${site}/"/>`);

    for (const product of products) {
      for (const loc of [`${site}/product/${product.slug}`, `${site}/product/${product.slug}?lang=bg`]) {
        const found = entry(loc);
        expect(found, loc).toBeDefined();
        expect(found).toContain(`<lastmod>${new Date(product.updatedAt).toISOString()}</lastmod>`);
        expect(found).toContain(`<xhtml:link rel="alternate" hreflang="bg" href="${site}/product/${product.slug}?lang=bg"/>`);
        expect(found).toContain(`<xhtml:link rel="alternate" hreflang="en" href="${site}/product/${product.slug}"/>`);
        for (const photo of product.photos) expect(found).toContain(`<image:image><image:loc>${site}${photo.url}</image:loc></image:image>`);
      }
    }
    // A renamed product's old address is not a page of its own.
    expect(body).not.toContain('midnight-galaxy');
    expect(body).not.toContain('/admin');
  });
});

describeEachDatabase(
  "a euro shop's page heads",
  (context) => {
    const get = async (url: string) => readHead((await context().app.inject({ method: 'GET', url })).body);
    let catalogue: Product[] = [];

    beforeAll(async () => {
      const { database, images } = context();
      await seedDemoCatalogue(database.db, images, 'EUR');
      catalogue = await sitemapProducts(database.db);
    });

    it('gives every price in euro and says so, with the BGN equivalent, in both languages', async () => {
      const product = catalogue.find((candidate) => candidate.stock !== 0)!;
      for (const [search, prices] of [
        ['', 'Prices in euro (and in BGN).'],
        ['?lang=bg', 'Цени в евро (и в лева).'],
      ] as const) {
        for (const path of ['/', '/?category=kits', '/cart', '/no-such-page']) {
          const head = await get(path + (path.includes('?') ? search.replace('?', '&') : search));
          expect(head.meta('description'), path).toMatch(new RegExp(`${prices.replace(/[().]/g, '\\$&')}$`));
          expect(head.html).not.toMatch(/BGN"|Prices in BGN|Цени в лева/);
        }
        const home = await get(`/${search}`);
        expect(home.jsonLd[2]).toMatchObject({ itemListElement: expect.arrayContaining([expect.objectContaining({ item: expect.objectContaining({ offers: expect.objectContaining({ priceCurrency: 'EUR' }) }) })]) });
        const page = await get(`/product/${product.slug}${search}`);
        expect(page.meta('product:price:amount')).toBe((product.priceMinor / 100).toFixed(2));
        expect(page.meta('product:price:currency')).toBe('EUR');
        expect(page.jsonLd[2]).toMatchObject({ offers: { price: (product.priceMinor / 100).toFixed(2), priceCurrency: 'EUR' } });
      }
      // The app shell the offline worker keeps says the same.
      expect(readHead((await context().app.inject({ method: 'GET', url: '/index.html' })).body).meta('description')).toMatch(/Prices in euro \(and in BGN\)\.$/);
    });
  },
  { SHOP_CURRENCY: 'EUR', SHOW_BGN_EQUIVALENT: 'true' },
);
