import { useEffect, useState } from 'react';
import { Link, useLocation, useParams, useSearchParams } from 'wouter';
import { REDIRECT_AFTER_PAYMENT_MS, type Order } from '#shared/orders.js';
import { mockPaymentPath, PAGE_ROUTES, PAYMENT_COMPLETED_PARAM, PAYMENT_RETURN_PARAM, profilePath, type PaymentReturn } from '#shared/routes.js';
import { ApiError } from '#client/api/http.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { OrderDetails } from '#client/orders/order-details.js';
import { recallPaymentInfo, type PaymentInfo } from '#client/orders/order-storage.js';
import { useOrder } from '#client/orders/orders-api.js';
import { paymentStateOf } from '#shared/orders.js';
import { usePageMeta } from '#client/seo/page-meta.js';
import { useSession } from '#client/session/session.js';
import { SignInRequired } from '#client/ui/sign-in-required.js';
import { LoadingMessage } from '#client/ui/state-message.js';
import { BankTransferDetails } from '#client/orders/bank-transfer-details.js';
import { OrderNumber } from '#client/orders/order-number.js';
import { settings } from '#client/settings.js';
import { notPayableText } from './not-payable.js';
import { ProviderPayment } from './provider-payment.js';

/** The message the payment window sends its opener when a payment went through (spec section 7). */
interface PaymentCompleted {
  type: 'PAYMENT_COMPLETED';
  orderId: string;
}

const isPaymentCompleted = (data: unknown, orderId: string): data is PaymentCompleted =>
  typeof data === 'object' && data !== null && (data as PaymentCompleted).type === 'PAYMENT_COMPLETED' && (data as PaymentCompleted).orderId === orderId;

/** Where the payment link points and how the order is paid: router state, then local storage, then the order. */
function paymentInfo(orderId: string, order: Order | undefined): PaymentInfo {
  const state = (window.history.state ?? {}) as Partial<PaymentInfo>;
  const stored = recallPaymentInfo(orderId);
  return {
    checkoutUrl: state.checkoutUrl ?? stored.checkoutUrl ?? order?.checkoutUrl ?? null,
    paymentMethod: state.paymentMethod ?? stored.paymentMethod ?? order?.paymentMethod ?? null,
  };
}

export default function PaymentPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const { orderId = '' } = useParams<{ orderId: string }>();
  const [searchParams] = useSearchParams();
  const [, navigate] = useLocation();
  const returnedCompleted = searchParams.get(PAYMENT_COMPLETED_PARAM) === 'true';
  const [messageReceived, setMessageReceived] = useState(false);
  const [popupBlocked, setPopupBlocked] = useState(false);
  // Polled only while pending: a paid, cancelled or sent order does not change by paying.
  const order = useOrder(orderId, { poll: !returnedCompleted, enabled: Boolean(user) });
  const state = order.data ? paymentStateOf(order.data) : null;
  // Back from the payment window, the page moves on to the orders, unless the order turned out not payable.
  const redirectAfterPayment = returnedCompleted && state !== 'cancelled' && state !== 'noPaymentNeeded';
  usePageMeta({ page: 'payment', noIndex: true });

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== window.location.origin || !isPaymentCompleted(event.data, orderId)) return;
      setMessageReceived(true);
      void order.refetch();
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [orderId, order]);

  useEffect(() => {
    if (!redirectAfterPayment) return;
    const timer = setTimeout(() => navigate(profilePath('orders')), REDIRECT_AFTER_PAYMENT_MS);
    return () => clearTimeout(timer);
  }, [redirectAfterPayment, navigate]);

  if (!user) return <SignInRequired messageKey="payment.signInRequired" />;

  if (order.isPending) {
    return <LoadingMessage>{t('payment.loading')}</LoadingMessage>;
  }
  if (order.isError) {
    const status = order.error instanceof ApiError ? order.error.status : 0;
    const messageKey = status === 403 ? 'payment.unauthorizedAccess' : status === 404 ? 'payment.orderNotFound' : 'payment.orderLoadError';
    return (
      <section className="panel panel--narrow" role="alert">
        <p className="state-message state-message--error">{t(messageKey)}</p>
        <Link href={PAGE_ROUTES.home} className="button">
          {t('common.backHome')}
        </Link>
      </section>
    );
  }

  const current = order.data;
  const paymentState = paymentStateOf(current);
  const notPayable = paymentState === 'paid' ? null : notPayableText(t, current, paymentState);
  const completed = paymentState === 'paid' || (paymentState === 'payable' && (returnedCompleted || messageReceived));
  const info = paymentInfo(orderId, current);
  const method = info.paymentMethod ?? current.paymentMethod;

  // Back from a real provider's page: after paying (its word reaches the server on its own way), or having given up.
  const providerReturn = settings.paymentProvider === 'simulated' ? null : (searchParams.get(PAYMENT_RETURN_PARAM) as PaymentReturn | null);
  const waitingText = providerReturn === 'back' ? t('payment.waitingForProvider') : providerReturn === 'cancelled' ? t('payment.returnedCancelled') : t('payment.waiting');

  const openPaymentWindow = () => {
    const url = info.checkoutUrl ?? mockPaymentPath(orderId, method);
    const opened = window.open(url, `payment-${orderId}`, 'popup,width=520,height=760');
    setPopupBlocked(!opened);
  };

  return (
    <section className="payment" aria-labelledby="payment-title">
      {completed ? (
        <div className="panel panel--narrow payment__success" role="status">
          <h1 id="payment-title" className="page-title">
            {t('payment.successTitle')}
          </h1>
          <p>{t('payment.successText', { orderId })}</p>
          {returnedCompleted && <p className="muted">{t('payment.redirecting')}</p>}
          <div className="panel__actions">
            <Link href={PAGE_ROUTES.home} className="button">
              {t('payment.continueShopping')}
            </Link>
            <Link href={profilePath('orders')} className="button button--primary">
              {t('payment.viewOrder')}
            </Link>
          </div>
        </div>
      ) : notPayable ? (
        <>
          <h1 id="payment-title" className="page-title">
            <OrderNumber orderId={orderId} />
          </h1>
          <div className="panel">
            <p className={paymentState === 'cancelled' ? 'notice notice--warning' : 'notice'} role="status">
              {notPayable}
            </p>
            {paymentState === 'bankTransfer' && settings.bankAccount && <BankTransferDetails order={current} account={settings.bankAccount} />}
            <div className="form-actions">
              <Link href={profilePath('orders')} className="button button--primary">
                {t('payment.viewOrder')}
              </Link>
              <Link href={PAGE_ROUTES.home} className="button">
                {t('payment.continueShopping')}
              </Link>
            </div>
          </div>
        </>
      ) : (
        <>
          <h1 id="payment-title" className="page-title">
            <OrderNumber orderId={orderId} />
          </h1>
          <div className="panel">
            <p className={providerReturn === 'cancelled' ? 'notice notice--warning' : 'notice'} role="status">
              {waitingText}
            </p>
            {settings.paymentProvider === 'simulated' ? (
              <>
                <div className="form-actions">
                  <button type="button" className="button button--primary" onClick={openPaymentWindow}>
                    {method === 'card' ? t('payment.payWithCard') : t('payment.openPaymentLink')}
                  </button>
                </div>
                {popupBlocked && (
                  <p className="form-error" role="alert">
                    {t('payment.popupBlocked')}
                  </p>
                )}
              </>
            ) : (
              <ProviderPayment orderId={orderId} provider={settings.paymentProvider} />
            )}
          </div>
        </>
      )}
      <div className="panel">
        <OrderDetails order={current} headingLevel={2} />
      </div>
    </section>
  );
}
