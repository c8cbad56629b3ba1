import type { LocalizedText, TextLanguage } from './localized-text.js';
import type { ProductModel } from './product-options.js';
import type { ReturnRule } from './withdrawals.js';

export const PRODUCT_CATEGORIES = ['nails', 'nail-art', 'accessories', 'kits', 'gift-cards'] as const;
export type ProductCategory = (typeof PRODUCT_CATEGORIES)[number];

/**
 * A product in this category is a gift card: its price is the card's value, and paying for it issues a
 * card of that value for each piece (src/shared/gift-cards.ts). It is not shipped, carries no VAT when
 * sold and takes no discount; the goods a card later pays for carry their VAT then.
 */
export const GIFT_CARD_CATEGORY = 'gift-cards' satisfies ProductCategory;

export type { LocalizedText, TextLanguage } from './localized-text.js';

/** The languages a product's texts are written in, the interface's own. */
export const TEXT_LANGUAGES = ['en', 'bg'] as const satisfies readonly TextLanguage[];

/**
 * The text to show in a language: that language's, else the other one's, with the language it is
 * written in (so that a page can mark it with `lang`).
 */
export function pickText(text: LocalizedText, language: TextLanguage): { text: string; language: TextLanguage } {
  if (text[language]) return { text: text[language], language };
  const other = language === 'en' ? 'bg' : 'en';
  return text[other] ? { text: text[other], language: other } : { text: '', language };
}

/** One photo of a product; an empty alt text means the product's name. */
export interface ProductPhoto {
  id: string;
  /** Without a width: the largest stored; `?w=` picks a smaller one (PRODUCT_IMAGE_WIDTHS). */
  url: string;
  alt: LocalizedText;
}

/**
 * A product as the API sends it. Prices are in minor units (stotinki or euro cents). Its options, sizing,
 * questions and lead time (ProductModel, product-options.ts) shape what a buyer chooses.
 */
export interface Product extends ProductModel {
  id: string;
  /** The product page is /product/{slug}. */
  slug: string;
  name: LocalizedText;
  description: LocalizedText;
  priceMinor: number;
  category: ProductCategory | '';
  /** Pieces in stock; null when the product is made to order (see stock.ts). */
  stock: number | null;
  /** One piece packed, in grams, for the courier; null when the admin has not said. */
  weightGrams: number | null;
  /** The cover first; at most MAX_PRODUCT_PHOTOS. */
  photos: ProductPhoto[];
  /** What the right of withdrawal does with it; the product page and the checkout say so before purchase. */
  returnRule: ReturnRule;
  createdAt: string;
  updatedAt: string;
}

export const MAX_PRODUCT_PHOTOS = 8;

/** The cover photo's address, or null for a product without photos. */
export const coverUrl = (product: Pick<Product, 'photos'>): string | null => product.photos[0]?.url ?? null;

/** 'relevance' (the best matches first) orders a search only; it is a search's default order, 'name' the catalogue's. */
export const CATALOGUE_SORTS = ['relevance', 'name', 'newest', 'price', 'price-desc'] as const;
export type CatalogueSort = (typeof CATALOGUE_SORTS)[number];
/** The order a catalogue query has when its address names none. */
const defaultSort = (query: { q?: string }): CatalogueSort => (query.q ? 'relevance' : 'name');
/** The longest search the catalogue takes; longer text is cut to it. */
export const MAX_SEARCH_LENGTH = 1000;

/**
 * The price bands of the catalogue's filter, in whole units of the shop's currency: "10-20" from 10 up
 * to, not including, 20; "40-" from 40 up.
 */
export const PRICE_BANDS = ['0-10', '10-20', '20-40', '40-'] as const;
export type PriceBand = (typeof PRICE_BANDS)[number];

/** A band's bounds in minor units; `belowMinor` null for the last, which has none. */
export function priceBandBounds(band: PriceBand): { fromMinor: number; belowMinor: number | null } {
  const [from = '0', below = ''] = band.split('-');
  return { fromMinor: Number(from) * 100, belowMinor: below ? Number(below) * 100 : null };
}

/** The most options one view filters by; more in an address are left out. */
export const MAX_OPTION_FILTERS = 3;

/**
 * An option a product offers, as the catalogue's filter names it: its group's English name and its
 * value's, "Shape:Almond", as the admin wrote them (the Bulgarian when there is no English).
 */
export const optionFilterKey = (group: string, value: string) => `${group}:${value}`;

/** The group and value an option filter names; undefined for one that names none. */
export function parseOptionFilter(key: string): { group: string; value: string } | undefined {
  const colon = key.indexOf(':');
  const group = key.slice(0, colon).trim();
  const value = key.slice(colon + 1).trim();
  return colon > 0 && group && value ? { group, value } : undefined;
}

/**
 * What the catalogue is filtered and sorted by; the home page keeps it in its address
 * (?category=nails&q=pearl&price=10-20&available=1&options=Shape:Almond|Length:Long&sort=price).
 */
export interface CatalogueQuery {
  category?: ProductCategory;
  q?: string;
  /** Products priced within the band (their own price, before options). */
  price?: PriceBand;
  /** Only what can be ordered now: in stock or made to order. */
  available?: true;
  /** Products offering each of these options (optionFilterKey), at most MAX_OPTION_FILTERS. */
  options?: string[];
  sort: CatalogueSort;
  /** 1 for the first page. */
  page: number;
}

/**
 * Reads a catalogue query from an address's parameters. Unknown categories and sorts are ignored
 * (an old or mistyped link still shows the catalogue); the search is text, never a pattern.
 */
export function parseCatalogueQuery(params: { get(name: string): string | null }): CatalogueQuery {
  const category = params.get('category');
  const sort = params.get('sort');
  // PostgreSQL refuses NUL in text: like the other parameters, a search that cannot be stored is read as far as it can be.
  // (NUL is the only such character an address can carry: percent-decoding turns half a character into U+FFFD.)
  const q = (params.get('q')?.trim().slice(0, MAX_SEARCH_LENGTH) ?? '').replaceAll('\u0000', '').trim();
  const page = Number(params.get('page'));
  const known = CATALOGUE_SORTS.includes(sort as CatalogueSort) && (q || sort !== 'relevance');
  const price = params.get('price');
  const options = [
    ...new Set(
      (params.get('options') ?? '')
        .split('|')
        .map((key) => parseOptionFilter(key.replaceAll('\u0000', '').slice(0, 200)))
        .filter((option) => option !== undefined)
        .map((option) => optionFilterKey(option.group, option.value)),
    ),
  ].slice(0, MAX_OPTION_FILTERS);
  return {
    ...(PRODUCT_CATEGORIES.includes(category as ProductCategory) ? { category: category as ProductCategory } : {}),
    ...(q ? { q } : {}),
    ...(PRICE_BANDS.includes(price as PriceBand) ? { price: price as PriceBand } : {}),
    ...(params.get('available') === '1' ? { available: true as const } : {}),
    ...(options.length > 0 ? { options } : {}),
    sort: known ? (sort as CatalogueSort) : defaultSort({ q }),
    page: Number.isInteger(page) && page >= 1 && page <= MAX_CATALOGUE_PAGE ? page : 1,
  };
}

/** The query as address parameters, leaving out what is the default. */
export function catalogueQueryParams(query: Partial<CatalogueQuery>): URLSearchParams {
  const params = new URLSearchParams();
  if (query.category) params.set('category', query.category);
  if (query.q) params.set('q', query.q);
  if (query.price) params.set('price', query.price);
  if (query.available) params.set('available', '1');
  if (query.options?.length) params.set('options', query.options.join('|'));
  // 'relevance' is a search's default, and no order without one.
  if (query.sort && query.sort !== defaultSort(query) && query.sort !== 'relevance') params.set('sort', query.sort);
  if (query.page && query.page > 1) params.set('page', String(query.page));
  return params;
}

/**
 * How many products each filter would show, the query's other filters applied: for categories, price
 * bands and "available now" every filter but their own; for options, all of them.
 */
export interface CatalogueFacets {
  /** Every category's, products without one included: what "All" would show. */
  all: number;
  categories: { category: ProductCategory; count: number }[];
  prices: { band: PriceBand; count: number }[];
  available: number;
  /** Each option group the matching products offer (by its English name), with its values. */
  options: { group: LocalizedText; values: { key: string; name: LocalizedText; count: number }[] }[];
}

/** The products endpoint's answer: a page of the products the query asks for, how many match in all, and the catalogue version it was read at (see live.ts). */
export interface CatalogueResponse {
  products: Product[];
  total: number;
  facets: CatalogueFacets;
  /** 1 for the first page. */
  page: number;
  pageSize: number;
  version: number;
}

/** The suggestions under the search box: the best matches as the buyer types, or a search that finds something when hers finds nothing. */
export interface SearchSuggestions {
  products: { slug: string; name: LocalizedText }[];
  /** The search with each word replaced by the closest word of a product's name, when that finds products and hers finds none. */
  didYouMean: string | null;
}

/** Products named by their ids (a page of favourites), with the catalogue version they were read at. */
export interface ProductListResponse {
  products: Product[];
  version: number;
}

/** The highest page number the catalogue answers for. */
const MAX_CATALOGUE_PAGE = 1000;

/** A product page's data: the product and other products of its category. */
export interface ProductPageResponse {
  product: Product;
  related: Product[];
  version: number;
}

/** Widths, in pixels, in which every product image is stored as WebP. */
export const PRODUCT_IMAGE_WIDTHS = [320, 640, 960] as const;
/** Product images are square. */
export const PRODUCT_IMAGE_ASPECT_RATIO = 1;

/** A photo's stored widths for an img's srcset: the browser picks the smallest that fills its place. */
export const photoSrcSet = (url: string) => PRODUCT_IMAGE_WIDTHS.map((width) => `${url}?w=${width} ${width}w`).join(', ');

/** How wide a product page's main photo is shown: its img's sizes, and the page head's preload of it, which must choose the same file. */
export const GALLERY_PHOTO_SIZES = '(min-width: 900px) 520px, calc(100vw - 2rem)';
