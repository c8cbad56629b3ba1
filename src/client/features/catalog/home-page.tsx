import { lazy, Suspense, useEffect } from 'react';
import { Link, useSearchParams } from 'wouter';
import { catalogueQueryParams, parseCatalogueQuery, type CatalogueQuery } from '#shared/catalog.js';
import { adminNewProductPath } from '#shared/routes.js';
import { PageTexts, useTranslation } from '#client/i18n/i18n.js';
import { useSession } from '#client/session/session.js';
import { usePageMeta } from '#client/seo/page-meta.js';
import { LoadErrorMessage, LoadingMessage } from '#client/ui/state-message.js';
import { CatalogueFilters } from './catalogue-filters.js';
import { rememberCatalogueView } from './catalogue-view.js';
import { ProductCard } from './product-card.js';
import { useProducts } from './products-api.js';
import { useAddToCart } from './use-add-to-cart.js';

const EAGER_IMAGES = 4;

// Asked only when a search finds nothing; without its code (offline), the page offers to clear the filters alone.
const DidYouMean = lazy(() =>
  import('./search-suggestions.js').then(
    (module) => ({ default: module.DidYouMean }),
    () => ({ default: () => null }),
  ),
);

/** The catalogue's own parameters of the address; any other (the language, say) is kept when the view changes. */
const CATALOGUE_PARAMS = new Set(['category', 'q', 'price', 'available', 'options', 'sort', 'page']);

export function HomePage() {
  const { t, language } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();
  const query = parseCatalogueQuery(searchParams);
  const products = useProducts(query, language);
  const list = products.data?.products;
  usePageMeta({
    page: 'home',
    products: list,
    image: list?.[0]?.photos[0]?.url,
    category: query.category,
  });
  const { adding, addToCart } = useAddToCart();
  const { user } = useSession();
  const viewSearch = searchParams.toString();
  useEffect(() => rememberCatalogueView(viewSearch), [viewSearch]);

  const showQuery = (next: CatalogueQuery, options?: { replace?: boolean }) => {
    const params = catalogueQueryParams(next);
    for (const [name, value] of searchParams) if (!CATALOGUE_PARAMS.has(name)) params.set(name, value);
    setSearchParams(params, options);
  };
  const filtered = query.category !== undefined || query.q !== undefined || query.price !== undefined || query.available !== undefined || query.options !== undefined;
  const pages = products.data ? Math.max(1, Math.ceil(products.data.total / products.data.pageSize)) : 1;

  return (
    <>
      <section className="hero">
        <h1 className="hero__title">{t('home.heroTitle')}</h1>
        <p className="hero__subtitle">{t('home.heroSubtitle')}</p>
      </section>
      <section className="products" aria-labelledby="products-title">
        <h2 id="products-title" className="section-title">
          {t('products.title')}
        </h2>
        {/* A shop without products has nothing to search or sort. */}
        {!(products.data?.total === 0 && !filtered) && <CatalogueFilters query={query} facets={products.data?.facets} onChange={showQuery} />}
        {products.isPending ? (
          // As tall as a screen while it waits, so that the footer does not jump down when the products come.
          <div className="page-loading">
            <LoadingMessage>{t('products.loading')}</LoadingMessage>
          </div>
        ) : products.isError ? (
          <LoadErrorMessage message={t('products.loadError')} onRetry={products.refetch} />
        ) : products.data.total === 0 && !filtered ? (
          // A new shop has no products yet: its owner is shown the way to the first, in the admin's
          // texts, which the first visit of everyone else does not download.
          <div className="state-message">
            {user?.isAdmin ? (
              <PageTexts fallback={<p>{t('products.empty')}</p>} failed={() => <p>{t('products.empty')}</p>}>
                <FirstProductLink />
              </PageTexts>
            ) : (
              <p>{t('products.empty')}</p>
            )}
          </div>
        ) : (
          <>
            <p className="catalogue-count" role="status" aria-live="polite">
              {products.isPlaceholderData ? t('products.loading') : t('catalogue.count', { count: products.data.total })}
            </p>
            {products.data.products.length === 0 ? (
              <div className="state-message">
                <p>{t('catalogue.noResults')}</p>
                {query.q && (
                  <Suspense fallback={null}>
                    <DidYouMean search={query.q} onSearch={(text) => showQuery({ ...query, q: text, page: 1 })} />
                  </Suspense>
                )}
                <button type="button" className="button" onClick={() => showQuery({ sort: query.sort, page: 1 })}>
                  {t('catalogue.clearFilters')}
                </button>
              </div>
            ) : (
              <div className="product-grid" aria-busy={products.isPlaceholderData || undefined}>
                {products.data.products.map((product, index) => (
                  <ProductCard
                    key={product.id}
                    product={product}
                    adding={adding.has(product.id)}
                    eager={index < EAGER_IMAGES}
                    onAddToCart={(chosen) => void addToCart(chosen)}
                  />
                ))}
              </div>
            )}
            {pages > 1 && (
              <nav className="pagination" aria-label={t('catalogue.pagesLabel')}>
                <button type="button" className="button" disabled={query.page <= 1} onClick={() => showQuery({ ...query, page: query.page - 1 })}>
                  {t('catalogue.previousPage')}
                </button>
                <span>{t('catalogue.pageOf', { page: query.page, pages })}</span>
                <button type="button" className="button" disabled={query.page >= pages} onClick={() => showQuery({ ...query, page: query.page + 1 })}>
                  {t('catalogue.nextPage')}
                </button>
              </nav>
            )}
          </>
        )}
      </section>
    </>
  );
}

/** The way to the first product of an empty shop, for its owner. */
function FirstProductLink() {
  const { t } = useTranslation();
  return (
    <>
      <p>{t('admin.products.emptyShop')}</p>
      <Link href={adminNewProductPath} className="button button--primary">
        {t('admin.products.addFirst')}
      </Link>
    </>
  );
}
