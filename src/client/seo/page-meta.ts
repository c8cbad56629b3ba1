import { useEffect } from 'react';
import { useLocation } from 'wouter';
import type { Product, ProductCategory } from '#shared/catalog.js';
import type { MetaPage, PageHeadInput } from '#shared/page-head.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { settings } from '#client/settings.js';

export interface PageMeta {
  /** Which of the shop's pages this is, for its title and description (META_TEXTS); the default ones when absent. */
  page?: MetaPage;
  /** The page's own name (a product's); the title is then "{title} | Nail Art Atelier". */
  title?: string;
  /** The page's own description (a product's). */
  description?: string;
  /** Personal and transactional pages ask search engines not to index them. */
  noIndex?: boolean;
  products?: readonly Product[];
  product?: Product;
  /** The product's rating and newest reviews, once loaded. */
  productReviews?: PageHeadInput['productReviews'];
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

/**
 * Sets the page's title, description, canonical address, hreflang alternates, sharing tags and
 * structured data, and keeps them right as the visitor moves between pages and languages. The
 * server already sent the first page's head, so the code that builds heads loads after it.
 */
export function usePageMeta(meta: PageMeta): void {
  const { language } = useTranslation();
  const [pathname] = useLocation();
  const { page, title, description, noIndex, products, product, productReviews, category, article, image, notFound, alternates } = meta;

  useEffect(() => {
    let current = true;
    import('./apply-page-head.js').then(
      ({ applyPageHead }) => {
        if (!current) return;
        applyPageHead({
          siteUrl: settings.publicUrl,
          currency: settings.pricing.currency,
          showBgnEquivalent: settings.showBgnEquivalent,
          language,
          pathname,
          page,
          title,
          description,
          category,
          products,
          product,
          productReviews,
          image,
          noIndex,
          notFound,
          article,
          alternates,
        });
      },
      // Offline before the code was kept: the page keeps the head it has.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [language, pathname, page, title, description, category, products, product, productReviews, image, noIndex, notFound, article, alternates]);
}
