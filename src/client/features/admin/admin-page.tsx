import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { Redirect } from 'wouter';
import { PAGE_ROUTES } from '#shared/routes.js';
import { ApiError } from '#client/api/http.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { usePageMeta } from '#client/seo/page-meta.js';
import { useSession } from '#client/session/session.js';
import { LoadingMessage } from '#client/ui/state-message.js';
import { TabList, tabPanelProps } from '#client/ui/tab-list.js';
import { Toast } from '#client/ui/toast.js';
import { rememberAdminLanguage, useAdminAccess } from './admin-api.js';
import { ADMIN_TABS, useAdminView } from './admin-location.js';
import { WORK_LIST_STATUSES } from '#shared/work-list.js';
import { OrdersPanel } from './orders-panel.js';
import { ProductsPanel } from './products-panel.js';
import DiscountsPanel from './discounts-panel.js';
import GiftCardsPanel from './gift-cards-panel.js';
import DashboardPanel from './dashboard-panel.js';

// The maker's work list, the size chart, returns, requests, reviews and the search synonyms are opened now and then: each comes in a chunk of its own.
const WorkListPanel = lazy(() => import('./work-list-panel.js'));
const SizeChartEditor = lazy(() => import('./size-chart-editor.js'));
const ReturnsPanel = lazy(() => import('./returns-panel.js'));
const SearchSynonymsEditor = lazy(() => import('./search-synonyms-editor.js'));
const SimilarRequestsPanel = lazy(() => import('./similar-requests-panel.js'));
const ReviewsPanel = lazy(() => import('./reviews-panel.js'));

/** What a lazily loaded tab says while its chunk comes. */
const LOADING_TEXTS = { workList: 'admin.workList.loading', returns: 'admin.returns.loading', sizeChart: 'admin.sizeChart.loading', synonyms: 'admin.synonyms.loading', requests: 'admin.requests.loading', reviews: 'admin.reviews.loading' } as const;

export default function AdminPage() {
  const { t, language } = useTranslation();
  const { user } = useSession();
  // Visitors and customers are sent home at once, without a request the server would refuse.
  const access = useAdminAccess(Boolean(user?.isAdmin));
  const [view, setView] = useAdminView();
  const [toast, setToast] = useState<{ message: string; kind: 'success' | 'error' } | null>(null);
  const hideToast = useCallback(() => setToast(null), []);
  usePageMeta({ page: 'admin', noIndex: true });
  // The owner's new-order e-mails follow the language they use the dashboard in. Should this fail, the
  // notices keep the language last remembered, which is no reason to trouble the admin.
  const granted = access.isSuccess;
  useEffect(() => {
    if (granted) rememberAdminLanguage(language).catch(() => {});
  }, [granted, language]);

  // The server decides: the header's admin flag only hides the link. Unreachable, it has not decided yet.
  const refused = access.isError && !(access.error instanceof ApiError && access.error.code === 'network');
  if (!user?.isAdmin || refused) return <Redirect to={PAGE_ROUTES.home} replace />;
  if (access.isPending || access.isError) {
    return <LoadingMessage>{t('admin.verifying')}</LoadingMessage>;
  }

  return (
    <section className="admin" aria-labelledby="admin-title">
      <h1 id="admin-title" className="page-title">
        {t('admin.title')}
      </h1>
      <TabList
        idPrefix="admin"
        label={t('admin.title')}
        tabs={ADMIN_TABS.map((name) => ({ name, label: t(`admin.tabs.${name}`) }))}
        selected={view.tab}
        onSelect={(tab) => setView({ tab, filter: { status: '', search: '', after: '', before: '' }, orderId: null, stock: '' })}
      />
      <div {...tabPanelProps('admin', view.tab)}>
        {view.tab === 'dashboard' ? (
          <DashboardPanel />
        ) : view.tab === 'products' ? (
          <ProductsPanel />
        ) : view.tab === 'orders' ? (
          <OrdersPanel />
        ) : view.tab === 'discounts' ? (
          <DiscountsPanel onToast={setToast} />
        ) : view.tab === 'giftCards' ? (
          <GiftCardsPanel onToast={setToast} />
        ) : (
          <Suspense fallback={<LoadingMessage>{t(LOADING_TEXTS[view.tab])}</LoadingMessage>}>
            {view.tab === 'workList' ? (
              <WorkListPanel
                status={view.filter.status === '' ? '' : (WORK_LIST_STATUSES.find((status) => status === view.filter.status) ?? '')}
                onStatus={(status) => setView({ ...view, filter: { ...view.filter, status } }, { replace: true })}
              />
            ) : view.tab === 'returns' ? (
              <ReturnsPanel onToast={setToast} />
            ) : view.tab === 'requests' ? (
              <SimilarRequestsPanel onToast={setToast} />
            ) : view.tab === 'reviews' ? (
              <ReviewsPanel onToast={setToast} />
            ) : view.tab === 'synonyms' ? (
              <SearchSynonymsEditor onToast={setToast} />
            ) : (
              <SizeChartEditor onToast={setToast} />
            )}
          </Suspense>
        )}
      </div>
      {toast && <Toast message={toast.message} kind={toast.kind} onDone={hideToast} />}
    </section>
  );
}
