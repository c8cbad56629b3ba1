import { useEffect } from 'react';
import { useTranslation } from '../i18n/i18n.js';
import { useLocation } from 'wouter';
import type { Product } from '../../shared/catalog.js';
import { settings } from '../settings.js';
import { buildStructuredData } from './structured-data.js';

export interface PageMeta {
  /** A translation key for the title; the default title when absent. */
  titleKey?: string;
  descriptionKey?: string;
  /** Personal and transactional pages ask search engines not to index them. */
  noIndex?: boolean;
  products?: readonly Product[];
  product?: Product;
  article?: { headline: string; datePublished?: string; dateModified?: string };
  image?: string | null;
  /** The not-found page, which carries no structured data. */
  notFound?: boolean;
}

const MANAGED = 'data-page-meta';

function upsertTag(tagName: 'meta' | 'link', key: 'name' | 'property' | 'rel', keyValue: string, attributes: Record<string, string>) {
  let element = document.head.querySelector<HTMLElement>(`${tagName}[${key}="${keyValue}"]`);
  if (!element) {
    element = document.createElement(tagName);
    element.setAttribute(key, keyValue);
    document.head.append(element);
  }
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
}

/** Sets the page's title, description, canonical address, sharing tags and structured data. */
export function usePageMeta(meta: PageMeta): void {
  const { t, language } = useTranslation();
  const [pathname] = useLocation();
  const title = t(meta.titleKey ?? 'meta.defaultTitle');
  const description = t(meta.descriptionKey ?? 'meta.defaultDescription');
  const keywords = t('meta.keywords');
  const url = settings.publicUrl + pathname;
  const image = meta.image ? settings.publicUrl + meta.image : settings.publicUrl + '/og-image.jpg';
  const { noIndex, products, product, article, notFound } = meta;

  useEffect(() => {
    document.title = title;
    upsertTag('meta', 'name', 'description', { content: description });
    upsertTag('meta', 'name', 'keywords', { content: keywords });
    upsertTag('meta', 'name', 'robots', { content: noIndex ? 'noindex, nofollow' : 'index, follow' });
    upsertTag('link', 'rel', 'canonical', { href: url });
    upsertTag('meta', 'property', 'og:type', { content: article ? 'article' : product ? 'product' : 'website' });
    upsertTag('meta', 'property', 'og:site_name', { content: t('app.name') });
    upsertTag('meta', 'property', 'og:title', { content: title });
    upsertTag('meta', 'property', 'og:description', { content: description });
    upsertTag('meta', 'property', 'og:url', { content: url });
    upsertTag('meta', 'property', 'og:image', { content: image });
    upsertTag('meta', 'property', 'og:locale', { content: language === 'bg' ? 'bg_BG' : 'en_US' });
    upsertTag('meta', 'name', 'twitter:card', { content: 'summary_large_image' });
    upsertTag('meta', 'name', 'twitter:title', { content: title });
    upsertTag('meta', 'name', 'twitter:description', { content: description });
    upsertTag('meta', 'name', 'twitter:image', { content: image });

    document.head.querySelectorAll(`script[${MANAGED}]`).forEach((script) => script.remove());
    const blocks = buildStructuredData({
      url,
      siteUrl: settings.publicUrl,
      siteName: t('app.name'),
      title,
      description,
      language,
      products,
      product,
      article,
      notFound,
    });
    for (const block of blocks) {
      const script = document.createElement('script');
      script.type = 'application/ld+json';
      script.setAttribute(MANAGED, '');
      script.textContent = JSON.stringify(block);
      document.head.append(script);
    }
  }, [t, title, description, keywords, url, image, language, noIndex, products, product, article, notFound]);
}
