import { useEffect, useRef } from 'react';
import { Link, useLocation } from 'wouter';
import { paymentStateOf } from '#shared/orders.js';
import { paymentPath } from '#shared/routes.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { OrderLineName, OrderShipsBy, OrderStatusBadge, PricingTable } from '#client/orders/order-details.js';
import { useOrders } from '#client/orders/orders-api.js';
import { formatDateTime } from '#client/ui/format-date.js';
import { LinePrice } from '#client/ui/line-price.js';
import { LoadErrorMessage, LoadingMessage } from '#client/ui/state-message.js';
import { OrderAfterSale } from '#client/orders/order-after-sale.js';
import { invoiceRequestOpen } from '#client/orders/ask-for-invoice.js';
import { OrderDocuments } from '#client/orders/order-documents.js';
import { OrderNumber } from '#client/orders/order-number.js';
import { OrderReviews } from './order-reviews.js';

interface OrdersTabProps {
  /** The order an e-mail's link names (/profile?order=...): shown, marked and focused once the orders load. */
  highlightedOrderId: string | null;
}

export function OrdersTab({ highlightedOrderId }: OrdersTabProps) {
  const { t, language } = useTranslation();
  const orders = useOrders();
  const [, navigate] = useLocation();
  const highlightedCard = useRef<HTMLLIElement>(null);

  // Once, when the list first shows: a later refetch (a live status change) must not pull the page back.
  const loaded = orders.isSuccess;
  useEffect(() => {
    const card = highlightedCard.current;
    if (!loaded || !card) return;
    // Centred rather than at the top, where the sticky header would cover it.
    card.scrollIntoView({ block: 'center' });
    card.focus({ preventScroll: true });
  }, [loaded, highlightedOrderId]);

  if (orders.isPending) {
    return <LoadingMessage>{t('profileView.ordersLoading')}</LoadingMessage>;
  }
  if (orders.isError) {
    return <LoadErrorMessage message={t('profileView.loadError')} onRetry={orders.refetch} />;
  }
  if (orders.data.length === 0) return <p className="state-message">{t('profileView.noOrders')}</p>;

  return (
    <ul className="order-list">
      {orders.data.map((order) => {
        const highlighted = order.orderId === highlightedOrderId;
        const paymentState = paymentStateOf(order);
        return (
          <li
            key={order.orderId}
            ref={highlighted ? highlightedCard : undefined}
            className={highlighted ? 'order-card order-card--highlighted' : 'order-card'}
            aria-label={t('orders.number', { orderId: order.orderId })}
            aria-current={highlighted || undefined}
            tabIndex={highlighted ? -1 : undefined}
          >
            <div className="order-card__head">
              <h2 className="order-card__title">
                <OrderNumber orderId={order.orderId} />
              </h2>
              <OrderStatusBadge status={order.status} paymentMethod={order.paymentMethod} />
            </div>
            <p className="muted">{t('orders.placedOn', { date: formatDateTime(order.createdAt, language, t('orders.notAvailable')) })}</p>
            <OrderShipsBy order={order} />
            <ul className="order-card__items">
              {order.items.map((item, index) => (
                <li key={index}>
                  <OrderLineName item={item} /> <LinePrice line={item} currency={order.currency} />
                </li>
              ))}
            </ul>
            {/* How the lines make the total: tax, shipping, a fee, a discount and a gift card, as checkout showed them. */}
            <PricingTable pricing={order.pricing} currency={order.currency} giftCard={order.giftCard} deliveryMethod={order.delivery.method} />
            <div className="order-card__foot">
              {paymentState === 'cashOnDelivery' && <span className="muted">{t('profileView.cashOnDeliveryNote')}</span>}
              {paymentState === 'bankTransfer' && (
                <>
                  <span className="muted">{t('profileView.bankTransferNote')}</span>
                  <Link href={paymentPath(order.orderId)} className="button">
                    {t('profileView.bankDetails')}
                  </Link>
                </>
              )}
              {paymentState === 'payable' && (
                <button
                  type="button"
                  className="button button--primary"
                  onClick={() =>
                    navigate(paymentPath(order.orderId), {
                      state: { checkoutUrl: order.checkoutUrl, paymentMethod: order.paymentMethod },
                    })
                  }
                >
                  {t('profileView.payNow')}
                </button>
              )}
            </div>
            {(order.payment || invoiceRequestOpen(order)) && <OrderDocuments order={order} base="/api/orders" />}
            <OrderAfterSale order={order} />
            {order.status === 'delivered' && <OrderReviews orderId={order.orderId} />}
          </li>
        );
      })}
    </ul>
  );
}
