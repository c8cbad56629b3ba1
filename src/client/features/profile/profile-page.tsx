import { useEffect, useState } from 'react';
import { useSearchParams } from 'wouter';
import { useConnectivity } from '#client/connectivity/connectivity.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { orderJustPlaced, clearOrderJustPlaced } from '#client/orders/order-storage.js';
import { usePageMeta } from '#client/seo/page-meta.js';
import { useSession } from '#client/session/session.js';
import { formatDateTime } from '#client/ui/format-date.js';
import { SignInRequired } from '#client/ui/sign-in-required.js';
import { AccountData } from './account-data.js';
import { AddressesTab } from './addresses-tab.js';
import { NailSizesSection } from './nail-sizes-section.js';
import { OrdersTab } from './orders-tab.js';
import { PROFILE_ORDER_PARAM, PROFILE_TAB_PARAM, PROFILE_TABS, type ProfileTab } from '#shared/routes.js';

/** The order placed just before coming here, read once; the flags are cleared after the first render. */
function useJustPlacedOrder() {
  const [placed] = useState(orderJustPlaced);
  useEffect(() => {
    if (placed) clearOrderJustPlaced();
  }, [placed]);
  return placed;
}

export default function ProfilePage() {
  const { t, language } = useTranslation();
  const { user } = useSession();
  const { online } = useConnectivity();
  const [searchParams, setSearchParams] = useSearchParams();
  const placed = useJustPlacedOrder();
  usePageMeta({ page: 'profile', noIndex: true });

  if (!user) return <SignInRequired messageKey="profile.signInRequired" />;
  const tab: ProfileTab = searchParams.get(PROFILE_TAB_PARAM) === 'addresses' ? 'addresses' : 'orders';

  return (
    <section className="profile" aria-labelledby="profile-title">
      <h1 id="profile-title" className="page-title">
        {t('profileView.title')}
      </h1>
      {!online && (
        <p className="notice notice--warning" role="status">
          {t('profileView.offline')}
        </p>
      )}
      {placed && (
        <p className="notice notice--success" role="status">
          {/* A cash-on-delivery order waits for no payment: the courier collects it. */}
          {placed.paymentMethod === 'cash_on_delivery'
            ? t('profileView.orderPlacedCashOnDelivery', { orderId: placed.orderId })
            : placed.paymentMethod === 'bank_transfer'
              ? t('profileView.orderPlacedBankTransfer', { orderId: placed.orderId })
              : t('profileView.orderPlaced', { orderId: placed.orderId })}
        </p>
      )}
      <dl className="profile__facts">
        <div>
          <dt>{t('profileView.email')}</dt>
          <dd>{user.email}</dd>
        </div>
        <div>
          <dt>{t('profileView.lastLogin')}</dt>
          <dd>{formatDateTime(user.lastLoginTime, language, t('orders.notAvailable'))}</dd>
        </div>
      </dl>
      <div className="tabs" role="tablist" aria-label={t('profileView.title')}>
        {PROFILE_TABS.map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            id={`tab-${name}`}
            aria-selected={tab === name}
            aria-controls={`panel-${name}`}
            className="tabs__tab"
            onClick={() => setSearchParams({ [PROFILE_TAB_PARAM]: name })}
          >
            {t(`profileView.tabs.${name}`)}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} className="tabs__panel">
        {tab === 'orders' ? <OrdersTab highlightedOrderId={searchParams.get(PROFILE_ORDER_PARAM)} /> : <AddressesTab />}
      </div>
      <NailSizesSection email={user.email} />
      <AccountData />
    </section>
  );
}
