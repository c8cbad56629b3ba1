import { useEffect } from 'react';
import { useLocation } from 'wouter';
import type { Product, ProductCategory } from '../../shared/catalog.js';
import { buildPageHead, META_PAGES, META_TEXTS, PAGE_HEAD_ATTRIBUTE, type MetaPage } from '../../shared/page-head.js';
import { jsonLdText } from '../../shared/structured-data.js';
import { useTranslation } from '../i18n/i18n.js';
import { settings } from '../settings.js';

export interface PageMeta {
  /** The page's title as a key, 'meta.cartTitle' say (see META_TEXTS); the default title when absent. */
  titleKey?: string;
  /** 'meta.defaultDescription' or 'meta.homeDescription', or any other key for a description of its own. */
  descriptionKey?: string;
  /** The page's own name (a product's); the title is then "{title} | Nail Art Atelier". */
  title?: string;
  /** The page's own description (a product's). */
  description?: string;
  /** Personal and transactional pages ask search engines not to index them. */
  noIndex?: boolean;
  products?: readonly Product[];
  product?: Product;
  /** The home page showing one category. */
  category?: ProductCategory;
  article?: { headline: string; datePublished?: string; dateModified?: string };
  /** A product photo's address to share the page with. */
  image?: string | null;
  /** The not-found page, which carries no structured data. */
  notFound?: boolean;
  /** Whether the page has an address per language; by default the indexed pages do. */
  alternates?: boolean;
}

/** The shared page a 'meta.…Title' key names, if it names one. */
function metaPage(titleKey: string | undefined): MetaPage | undefined {
  const name = titleKey?.match(/^meta\.(\w+)Title$/)?.[1];
  return META_PAGES.find((page) => page === name);
}

/**
 * Sets the page's title, description, canonical address, hreflang alternates, sharing tags and
 * structured data: the head the server sent for the same address (both come from buildPageHead),
 * kept right as the visitor moves between pages and languages.
 */
export function usePageMeta(meta: PageMeta): void {
  const { t, language } = useTranslation();
  const [pathname] = useLocation();
  const page = metaPage(meta.titleKey);
  // A key that is not one of the shared titles is the page's own, translated.
  const title = meta.title ?? (meta.titleKey && !page ? t(meta.titleKey) : undefined);
  const descriptionName = meta.descriptionKey?.match(/^meta\.(default|home)Description$/)?.[1];
  const description =
    meta.description ??
    (descriptionName === 'home' ? META_TEXTS[language].pages.home.description : descriptionName === 'default' ? META_TEXTS[language].defaultDescription : undefined) ??
    (meta.descriptionKey ? t(meta.descriptionKey) : undefined);
  const { noIndex, products, product, category, article, image, notFound, alternates } = meta;

  useEffect(() => {
    const head = buildPageHead({
      siteUrl: settings.publicUrl,
      language,
      pathname,
      page,
      title,
      description,
      category,
      products,
      product,
      image,
      noIndex,
      notFound,
      article,
      alternates,
    });
    document.title = head.title;
    // Whatever the server or the previous page set goes, so that no tag of another page lingers.
    document.head.querySelectorAll(`[${PAGE_HEAD_ATTRIBUTE}]`).forEach((element) => element.remove());
    for (const tag of head.tags) {
      const element = document.createElement(tag.element);
      element.setAttribute(PAGE_HEAD_ATTRIBUTE, '');
      for (const [name, value] of Object.entries(tag.attributes)) element.setAttribute(name, value);
      document.head.append(element);
    }
    for (const block of head.jsonLd) {
      const script = document.createElement('script');
      script.type = 'application/ld+json';
      script.setAttribute(PAGE_HEAD_ATTRIBUTE, '');
      script.textContent = jsonLdText(block);
      document.head.append(script);
    }
  }, [language, pathname, page, title, description, category, products, product, image, noIndex, notFound, article, alternates]);
}
