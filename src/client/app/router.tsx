import { lazy, type ReactNode } from 'react';
import { Route, Switch } from 'wouter';
import { PAGE_ROUTES } from '#shared/routes.js';
import { HomePage } from '#client/features/catalog/home-page.js';
import { PageTexts, useTranslation } from '#client/i18n/i18n.js';
import { ChunkBoundary } from '#client/ui/chunk-boundary.js';
import { LoadErrorMessage, LoadingMessage } from '#client/ui/state-message.js';
import { SiteLayout } from './layout/site-layout.js';

// Everything but the home page loads on demand, so the first visit downloads only what it shows.
const ProfilePage = lazy(() => import('#client/features/profile/profile-page.js'));
const CartPage = lazy(() => import('#client/features/cart/cart-page.js'));
const CheckoutPage = lazy(() => import('#client/features/checkout/checkout-page.js'));
const PaymentPage = lazy(() => import('#client/features/payment/payment-page.js'));
const MockPaymentPage = lazy(() => import('#client/features/payment/mock-payment-page.js'));
const AdminPage = lazy(() => import('#client/features/admin/admin-page.js'));
const NotFoundPage = lazy(() => import('#client/features/not-found/not-found-page.js'));
const ProductPage = lazy(() => import('#client/features/catalog/product-page.js'));
const LegalPage = lazy(() => import('#client/features/legal/legal-page.js'));
const FavouritesPage = lazy(() => import('#client/features/catalog/favourites-page.js'));

function PageLoading() {
  const { t } = useTranslation();
  return <LoadingMessage>{t('app.loading')}</LoadingMessage>;
}

function PageTextsFailed({ retry }: { retry: () => void }) {
  const { t } = useTranslation();
  return <LoadErrorMessage message={t('app.chunkError')} onRetry={retry} />;
}

const lazyPage = (element: ReactNode) => (
  <PageTexts fallback={<PageLoading />} failed={(retry) => <PageTextsFailed retry={retry} />}>
    <ChunkBoundary fallback={<PageLoading />}>{element}</ChunkBoundary>
  </PageTexts>
);

export function AppRoutes() {
  return (
    <Switch>
      <Route path={PAGE_ROUTES.mockPayment}>{lazyPage(<MockPaymentPage />)}</Route>
      <Route>
        <SiteLayout>
          <Switch>
            <Route path={PAGE_ROUTES.home}>
              <HomePage />
            </Route>
            <Route path={PAGE_ROUTES.product}>
              {/* Not a lazy page: a visitor from a shared link waits only for the shop's small chunk of texts, asked for beside the product. */}
              <ChunkBoundary fallback={<PageLoading />}>
                <ProductPage notFound={lazyPage(<NotFoundPage />)} />
              </ChunkBoundary>
            </Route>
            <Route path={PAGE_ROUTES.profile}>{lazyPage(<ProfilePage />)}</Route>
            <Route path={PAGE_ROUTES.favourites}>{lazyPage(<FavouritesPage />)}</Route>
            <Route path={PAGE_ROUTES.cart}>{lazyPage(<CartPage />)}</Route>
            <Route path={PAGE_ROUTES.checkout}>{lazyPage(<CheckoutPage />)}</Route>
            <Route path={PAGE_ROUTES.payment}>{lazyPage(<PaymentPage />)}</Route>
            <Route path={PAGE_ROUTES.admin}>{lazyPage(<AdminPage />)}</Route>
            <Route path={PAGE_ROUTES.withdrawal}>{lazyPage(<LegalPage withdrawal />)}</Route>
            <Route path={PAGE_ROUTES.legal}>{lazyPage(<LegalPage notFound={<NotFoundPage />} />)}</Route>
            <Route>{lazyPage(<NotFoundPage />)}</Route>
          </Switch>
        </SiteLayout>
      </Route>
    </Switch>
  );
}
