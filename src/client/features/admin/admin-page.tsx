import { useState } from 'react';
import { Redirect } from 'wouter';
import { ApiError } from '../../api/http.js';
import { useTranslation } from '../../i18n/i18n.js';
import { usePageMeta } from '../../seo/page-meta.js';
import { useSession } from '../../session/session.js';
import { LoadingMessage } from '../../ui/state-message.js';
import { useAdminAccess } from './admin-api.js';
import { OrdersPanel } from './orders-panel.js';
import { ProductsPanel } from './products-panel.js';

const TABS = ['products', 'orders'] as const;

export default function AdminPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  // Visitors and customers are sent home at once, without a request the server would refuse.
  const access = useAdminAccess(Boolean(user?.isAdmin));
  const [tab, setTab] = useState<(typeof TABS)[number]>('products');
  usePageMeta({ titleKey: 'meta.adminTitle', noIndex: true });

  // The server decides: the header's admin flag only hides the link. Unreachable, it has not decided yet.
  const refused = access.isError && !(access.error instanceof ApiError && access.error.code === 'network');
  if (!user?.isAdmin || refused) return <Redirect to="/" replace />;
  if (access.isPending || access.isError) {
    return <LoadingMessage>{t('admin.verifying')}</LoadingMessage>;
  }

  return (
    <section className="admin" aria-labelledby="admin-title">
      <h1 id="admin-title" className="page-title">
        {t('admin.title')}
      </h1>
      <div className="tabs" role="tablist" aria-label={t('admin.title')}>
        {TABS.map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            id={`admin-tab-${name}`}
            aria-selected={tab === name}
            aria-controls={`admin-panel-${name}`}
            className="tabs__tab"
            onClick={() => setTab(name)}
          >
            {t(`admin.tabs.${name}`)}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`admin-panel-${tab}`} aria-labelledby={`admin-tab-${tab}`}>
        {tab === 'products' ? <ProductsPanel /> : <OrdersPanel />}
      </div>
    </section>
  );
}
