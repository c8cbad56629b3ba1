import { GALLERY_PHOTO_SIZES, photoSrcSet, PRODUCT_IMAGE_ASPECT_RATIO, PRODUCT_IMAGE_WIDTHS, pickText, type Product, type ProductCategory, type TextLanguage } from './catalog.js';
import { LEGAL_PAGES } from './legal.js';
import { DEFAULT_PAGE_LANGUAGE, localizedPath, productPath } from './routes.js';
import type { Currency } from './money.js';
import { buildStructuredData, type JsonLd, type StructuredDataInput } from './structured-data.js';

/**
 * A page's head (title, description, canonical address, hreflang alternates, Open Graph and Twitter
 * tags, robots, JSON-LD), built the same way by the server, which writes it into the HTML it sends,
 * and by the app, which keeps it right as the visitor moves between pages.
 */

export const SITE_NAME = 'Nail Art Atelier';

/** Marks the head's elements that a page sets (besides its title), so that the next page replaces them all. */
export const PAGE_HEAD_ATTRIBUTE = 'data-page-meta';

/** Pages with a title of their own; the others have the default one. */
export const META_PAGES = ['home', 'default', 'profile', 'favourites', 'cart', 'checkout', 'payment', 'mockPayment', 'admin', 'notFound', ...LEGAL_PAGES] as const;
export type MetaPage = (typeof META_PAGES)[number];

interface MetaTexts {
  keywords: string;
  defaultDescription: string;
  pages: Record<MetaPage, { title: string; description?: string }>;
  /** The home page showing one category (/?category=nails). */
  categories: Record<ProductCategory, { title: string; description: string }>;
  /** What the locale of og:locale is called. */
  locale: string;
  /** The sentence that ends a description with "{prices}": which currency the shop's prices are in. */
  prices: Record<PriceDisplay, string>;
}

/** How the shop shows its prices: in leva, in euro, or in euro with the BGN equivalent beside (the changeover). */
type PriceDisplay = 'BGN' | 'EUR' | 'EUR+BGN';

const priceDisplay = (currency: Currency, showBgnEquivalent: boolean): PriceDisplay =>
  currency === 'EUR' ? (showBgnEquivalent ? 'EUR+BGN' : 'EUR') : 'BGN';

const EN_DESCRIPTION = 'Handmade press-on nails, nail art, accessories and kits, made to order and shipped from Bulgaria. {prices}';
const BG_DESCRIPTION = 'Ръчно изработени изкуствени нокти, нейл арт, аксесоари и комплекти, направени по поръчка и изпращани от България. {prices}';

/** The head's texts in both languages; the titles are the ones the pages always had. */
export const META_TEXTS: Record<TextLanguage, MetaTexts> = {
  en: {
    keywords: 'nail art, handmade nails, press-on nails, nail decals, nail accessories, nail kits, Bulgaria',
    defaultDescription: EN_DESCRIPTION,
    pages: {
      home: { title: 'Nail Art Atelier | Handmade Press-On Nails and Nail Art', description: EN_DESCRIPTION },
      default: { title: 'Nail Art Atelier | Handmade Nail Art Shop' },
      profile: { title: 'My profile | Nail Art Atelier' },
      favourites: { title: 'Favourites | Nail Art Atelier' },
      cart: { title: 'Cart | Nail Art Atelier' },
      checkout: { title: 'Checkout | Nail Art Atelier' },
      payment: { title: 'Payment | Nail Art Atelier' },
      mockPayment: { title: 'Simulated payment | Nail Art Atelier' },
      admin: { title: 'Admin dashboard | Nail Art Atelier' },
      notFound: { title: 'Page not found | Nail Art Atelier' },
      terms: { title: 'Terms and conditions | Nail Art Atelier', description: 'The terms on which Nail Art Atelier sells: orders, prices, payment, delivery, withdrawal and complaints.' },
      privacy: { title: 'Privacy policy | Nail Art Atelier', description: 'What personal data Nail Art Atelier keeps, why, for how long, and how to get a copy of it or have it deleted.' },
      returns: { title: 'Returns and withdrawal | Nail Art Atelier', description: 'How to return an order within 14 days, with the model withdrawal form.' },
      seller: { title: 'About the seller | Nail Art Atelier', description: 'The company behind Nail Art Atelier: name, registration number, address and contacts.' },
    },
    categories: {
      nails: {
        title: 'Nails | Nail Art Atelier',
        description: 'Handmade press-on nails in many shapes and designs, painted and finished by hand and shipped from Bulgaria. {prices}',
      },
      'nail-art': {
        title: 'Nail art | Nail Art Atelier',
        description: 'Nail decals, charms and rhinestones for your own manicure, handpicked and shipped from Bulgaria. {prices}',
      },
      accessories: {
        title: 'Accessories | Nail Art Atelier',
        description: 'Nail files, cuticle oils and keepsake boxes for caring for your nails and press-ons, shipped from Bulgaria. {prices}',
      },
      kits: {
        title: 'Kits | Nail Art Atelier',
        description: 'Nail art kits and gift boxes with everything you need to get started, shipped from Bulgaria. {prices}',
      },
      'gift-cards': {
        title: 'Gift cards | Nail Art Atelier',
        description: 'Gift cards for handmade press-on nails and nail art, sent by e-mail and paid with at checkout. {prices}',
      },
    },
    locale: 'en_US',
    prices: { BGN: 'Prices in BGN.', EUR: 'Prices in euro.', 'EUR+BGN': 'Prices in euro (and in BGN).' },
  },
  bg: {
    keywords: 'нейл арт, ръчно изработени нокти, изкуствени нокти, стикери за нокти, аксесоари за маникюр, комплекти за нокти, България',
    defaultDescription: BG_DESCRIPTION,
    pages: {
      home: { title: 'Nail Art Atelier | Ръчно изработени нокти и нейл арт', description: BG_DESCRIPTION },
      default: { title: 'Nail Art Atelier | Магазин за ръчно изработен нейл арт' },
      profile: { title: 'Моят профил | Nail Art Atelier' },
      favourites: { title: 'Любими | Nail Art Atelier' },
      cart: { title: 'Количка | Nail Art Atelier' },
      checkout: { title: 'Поръчка | Nail Art Atelier' },
      payment: { title: 'Плащане | Nail Art Atelier' },
      mockPayment: { title: 'Симулирано плащане | Nail Art Atelier' },
      admin: { title: 'Администрация | Nail Art Atelier' },
      notFound: { title: 'Страницата не е намерена | Nail Art Atelier' },
      terms: { title: 'Общи условия | Nail Art Atelier', description: 'Условията, при които Nail Art Atelier продава: поръчки, цени, плащане, доставка, отказ от договора и рекламации.' },
      privacy: { title: 'Поверителност | Nail Art Atelier', description: 'Какви лични данни пази Nail Art Atelier, защо и колко дълго и как да получите копие от тях или да ги изтриете.' },
      returns: { title: 'Връщане и отказ от поръчка | Nail Art Atelier', description: 'Как да върнете поръчка в срок от 14 дни, със стандартния формуляр за отказ.' },
      seller: { title: 'За търговеца | Nail Art Atelier', description: 'Фирмата зад Nail Art Atelier: наименование, ЕИК, адрес и данни за контакт.' },
    },
    categories: {
      nails: {
        title: 'Нокти | Nail Art Atelier',
        description: 'Ръчно изработени изкуствени нокти в различни форми и дизайни, изрисувани и довършени на ръка и изпращани от България. {prices}',
      },
      'nail-art': {
        title: 'Нейл арт | Nail Art Atelier',
        description: 'Стикери, декорации и кристали за нокти за вашия собствен маникюр, подбрани и изпращани от България. {prices}',
      },
      accessories: {
        title: 'Аксесоари | Nail Art Atelier',
        description: 'Пили, масла за кожички и кутии за съхранение за грижа за ноктите ви и изкуствените нокти, изпращани от България. {prices}',
      },
      kits: {
        title: 'Комплекти | Nail Art Atelier',
        description: 'Комплекти за нейл арт и подаръчни кутии с всичко необходимо, за да започнете, изпращани от България. {prices}',
      },
      'gift-cards': {
        title: 'Карти за подарък | Nail Art Atelier',
        description: 'Карти за подарък за ръчно изработени изкуствени нокти и нейл арт, изпращани по имейл и използвани при поръчка. {prices}',
      },
    },
    locale: 'bg_BG',
    prices: { BGN: 'Цени в лева.', EUR: 'Цени в евро.', 'EUR+BGN': 'Цени в евро (и в лева).' },
  },
};

/** The image a page without one of its own is shared with (src/client/public/og-image.jpg). */
const DEFAULT_SHARE_IMAGE = { url: '/og-image.jpg', width: 1200, height: 630, type: 'image/jpeg' } as const;

/** A product photo's address without ?w= is its largest stored width, square. */
const PHOTO_WIDTH = Math.max(...PRODUCT_IMAGE_WIDTHS);
const PHOTO_SHARE_SIZE = { width: PHOTO_WIDTH, height: Math.round(PHOTO_WIDTH / PRODUCT_IMAGE_ASPECT_RATIO), type: 'image/webp' } as const;

/** Search results show about this many characters of a description. */
export const MAX_META_DESCRIPTION = 160;

/** A description for the head: one line, cut at a word to at most MAX_META_DESCRIPTION characters. */
export function metaDescription(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length <= MAX_META_DESCRIPTION) return line;
  const cut = line.slice(0, MAX_META_DESCRIPTION - 1);
  const space = cut.lastIndexOf(' ');
  return (space > MAX_META_DESCRIPTION / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:–—-]+$/, '') + '…';
}

export interface PageHeadInput {
  /** The shop's address without a trailing slash (PUBLIC_URL). */
  siteUrl: string;
  /** The shop's currency (SHOP_CURRENCY), of its prices in descriptions, sharing tags and structured data. */
  currency: Currency;
  /** A euro shop shows the BGN equivalent too (SHOW_BGN_EQUIVALENT), as its descriptions then say. */
  showBgnEquivalent: boolean;
  language: TextLanguage;
  /** The page's path, without its query. */
  pathname: string;
  /** Which of the shared titles (and descriptions) the page has; the default when absent. */
  page?: MetaPage;
  /** The page's own name (a product's, say); the title is then "{title} | Nail Art Atelier". */
  title?: string;
  /** The page's own description, in place of the shared one. */
  description?: string;
  /** The home page showing one category: its own title, description and canonical address. */
  category?: ProductCategory;
  /** Products shown on the page, listed in an ItemList. */
  products?: readonly Product[];
  /** The product a /product/ page is about: its name, description, cover photo and address. */
  product?: Product;
  /** The product's rating and newest approved reviews, for its structured data. */
  productReviews?: StructuredDataInput['productReviews'];
  /** A product photo's address to share the page with; the shop's image when absent. */
  image?: string | null;
  /** Personal and transactional pages ask search engines not to index them. */
  noIndex?: boolean;
  /** A page that does not exist: not indexed, no structured data. */
  notFound?: boolean;
  article?: { headline: string; datePublished?: string; dateModified?: string };
  /**
   * Whether the page has an address per language (hreflang alternates, a canonical address with
   * ?lang=bg): by default the pages search engines index do, the others do not.
   */
  alternates?: boolean;
}

/** One element of the head besides the title and the JSON-LD, with its attributes in order. */
interface HeadTag {
  element: 'meta' | 'link';
  attributes: Record<string, string>;
}

export interface PageHead {
  language: TextLanguage;
  title: string;
  tags: HeadTag[];
  jsonLd: JsonLd[];
}

const meta = (key: 'name' | 'property', value: string, content: string): HeadTag => ({ element: 'meta', attributes: { [key]: value, content } });
const link = (attributes: Record<string, string>): HeadTag => ({ element: 'link', attributes });

/** The page's head in its language. */
export function buildPageHead(input: PageHeadInput): PageHead {
  const { siteUrl, language, product } = input;
  const texts = META_TEXTS[language];
  const page = texts.pages[input.page ?? 'default'];
  const onHome = input.pathname === '/';
  const category = onHome ? input.category : undefined;
  const name = input.title ?? (product ? pickText(product.name, language).text : undefined);
  const title = name ? `${name} | ${SITE_NAME}` : category ? texts.categories[category].title : page.title;
  // The shop's own descriptions end by saying which currency its prices are in.
  const shopText = (text: string) => text.replace('{prices}', texts.prices[priceDisplay(input.currency, input.showBgnEquivalent)]);
  const fullDescription =
    input.description ??
    (product ? pickText(product.description, language).text : undefined) ??
    shopText((category ? texts.categories[category].description : undefined) ?? page.description ?? texts.defaultDescription);
  // A product's description may be empty in both languages; the page then has the shop's.
  const description = metaDescription(fullDescription) || shopText(texts.defaultDescription);

  const notFound = input.notFound ?? false;
  const noIndex = notFound || (input.noIndex ?? false);
  const alternates = input.alternates ?? !noIndex;
  const pathname = product && !notFound ? productPath(product.slug) : input.pathname;
  const params: Record<string, string> = category ? { category } : {};
  const urlIn = (other: TextLanguage) => siteUrl + localizedPath(pathname, other, params);
  // Pages without alternates have one address, whatever the visitor's language.
  const url = alternates ? urlIn(language) : siteUrl + localizedPath(pathname, DEFAULT_PAGE_LANGUAGE, params);

  const cover = product?.photos[0];
  const imagePath = cover?.url ?? input.image ?? null;
  const image = imagePath ? { url: siteUrl + imagePath, ...PHOTO_SHARE_SIZE } : { ...DEFAULT_SHARE_IMAGE, url: siteUrl + DEFAULT_SHARE_IMAGE.url };
  // A photo without alt text in the page's language is described by the product's name in it.
  const imageAlt = cover ? cover.alt[language] || name : imagePath ? undefined : SITE_NAME;
  const other: TextLanguage = language === 'en' ? 'bg' : 'en';

  const tags: HeadTag[] = [
    meta('name', 'description', description),
    meta('name', 'keywords', texts.keywords),
    meta('name', 'robots', noIndex ? 'noindex, nofollow' : 'index, follow'),
    link({ rel: 'canonical', href: url }),
    // A product page's largest paint is its first photo, which the app would ask for only after its
    // code and the product's data: asked for with the page, the same file the gallery then shows.
    ...(product && cover && !notFound
      ? [link({ rel: 'preload', as: 'image', href: `${cover.url}?w=960`, imagesrcset: photoSrcSet(cover.url), imagesizes: GALLERY_PHOTO_SIZES, fetchpriority: 'high' })]
      : []),
    ...(alternates
      ? [
          link({ rel: 'alternate', hreflang: 'en', href: urlIn('en') }),
          link({ rel: 'alternate', hreflang: 'bg', href: urlIn('bg') }),
          link({ rel: 'alternate', hreflang: 'x-default', href: urlIn(DEFAULT_PAGE_LANGUAGE) }),
        ]
      : []),
    meta('property', 'og:type', input.article ? 'article' : product ? 'product' : 'website'),
    meta('property', 'og:site_name', SITE_NAME),
    meta('property', 'og:title', title),
    meta('property', 'og:description', description),
    meta('property', 'og:url', url),
    meta('property', 'og:image', image.url),
    meta('property', 'og:image:type', image.type),
    meta('property', 'og:image:width', String(image.width)),
    meta('property', 'og:image:height', String(image.height)),
    ...(imageAlt ? [meta('property', 'og:image:alt', imageAlt)] : []),
    meta('property', 'og:locale', texts.locale),
    ...(alternates ? [meta('property', 'og:locale:alternate', META_TEXTS[other].locale)] : []),
    ...(product && !notFound
      ? [meta('property', 'product:price:amount', (product.priceMinor / 100).toFixed(2)), meta('property', 'product:price:currency', input.currency)]
      : []),
    meta('name', 'twitter:card', 'summary_large_image'),
    meta('name', 'twitter:title', title),
    meta('name', 'twitter:description', description),
    meta('name', 'twitter:image', image.url),
    ...(imageAlt ? [meta('name', 'twitter:image:alt', imageAlt)] : []),
  ];

  const jsonLd = buildStructuredData({
    url,
    siteUrl,
    siteName: SITE_NAME,
    currency: input.currency,
    title,
    description,
    language,
    products: input.products,
    product: notFound ? undefined : product,
    productReviews: input.productReviews,
    productUrl: (shown) => siteUrl + localizedPath(productPath(shown.slug), language),
    article: input.article,
    notFound,
  });
  return { language, title, tags, jsonLd };
}
