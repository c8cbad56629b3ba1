import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { PAGE_ROUTES } from '#shared/routes.js';
import type { ProductListResponse } from '#shared/catalog.js';
import { requestJson } from '#client/api/http.js';
import { queryKeys } from '#client/api/query-keys.js';
import { useFavourites } from '#client/favourites/favourites.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { usePageMeta } from '#client/seo/page-meta.js';
import { useSession } from '#client/session/session.js';
import { LoadErrorMessage, LoadingMessage } from '#client/ui/state-message.js';
import { ProductCard } from './product-card.js';
import { useAddToCart } from './use-add-to-cart.js';

/** Products shown at first and added by each "Show more" (at most the server's MAX_PRODUCTS_BY_ID). */
const PAGE_SIZE = 24;

/** /favourites: the products she hearted, newest first; a heart taken off here takes the card away. */
export default function FavouritesPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const favourites = useFavourites();
  const [shown, setShown] = useState(PAGE_SIZE);
  const ids = favourites.ids.slice(0, shown);
  const key = ids.join(',');
  const products = useQuery({
    queryKey: queryKeys.productsByIds(key),
    queryFn: () => requestJson<ProductListResponse>(`/api/products/by-ids?ids=${key}`),
    enabled: favourites.loaded && ids.length > 0,
    // A heart taken off shows the rest at once, rather than a blank page while they come.
    placeholderData: keepPreviousData,
    networkMode: 'offlineFirst',
  });
  const { adding, addToCart } = useAddToCart();
  usePageMeta({ page: 'favourites', noIndex: true });
  // The cards follow the hearts at once; the products that arrived for an earlier list stand in meanwhile.
  const cards = (products.data?.products ?? []).filter((product) => favourites.isFavourite(product.id));

  return (
    <section className="products" aria-labelledby="favourites-title">
      <h1 id="favourites-title" className="page-title">
        {t('favouritesPage.title')}
      </h1>
      {!user && favourites.ids.length > 0 && <p className="muted">{t('favouritesPage.visitorNote')}</p>}
      {!favourites.loaded || (ids.length > 0 && products.isPending) ? (
        <LoadingMessage>{t('favouritesPage.loading')}</LoadingMessage>
      ) : products.isError ? (
        <LoadErrorMessage message={t('favouritesPage.loadError')} onRetry={products.refetch} />
      ) : favourites.ids.length === 0 ? (
        <div className="state-message">
          <p>{t('favouritesPage.empty')}</p>
          <Link href={PAGE_ROUTES.home} className="button button--primary">
            {t('favouritesPage.browse')}
          </Link>
        </div>
      ) : (
        <>
          <p className="catalogue-count" role="status">
            {t('favouritesPage.count', { count: favourites.ids.length })}
          </p>
          {/* The cards' names are headings of the third level, as on the home page. */}
          <h2 className="visually-hidden">{t('favouritesPage.listTitle')}</h2>
          <div className="product-grid">
            {cards.map((product, index) => (
              <ProductCard key={product.id} product={product} adding={adding.has(product.id)} eager={index < 4} onAddToCart={(chosen) => void addToCart(chosen)} />
            ))}
          </div>
          {favourites.ids.length > shown && (
            <button type="button" className="button" onClick={() => setShown(shown + PAGE_SIZE)}>
              {t('favouritesPage.showMore')}
            </button>
          )}
        </>
      )}
    </section>
  );
}
