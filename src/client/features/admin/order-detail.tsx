import { useId, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ORDER_STATUSES, type OrderStatus } from '../../../shared/order-status.js';
import { useTranslation } from '../../i18n/i18n.js';
import { OrderDetails } from '../../orders/order-details.js';
import { formatDateTime } from '../../ui/format-date.js';
import { Price } from '../../ui/price.js';
import { LoadErrorMessage, LoadingMessage } from '../../ui/state-message.js';
import { changeStatus, useAdminOrder } from './admin-api.js';

interface OrderDetailProps {
  orderId: string;
  onBack(): void;
  onToast(toast: { message: string; kind: 'success' | 'error' }): void;
}

export function OrderDetail({ orderId, onBack, onToast }: OrderDetailProps) {
  const { t, language } = useTranslation();
  const order = useAdminOrder(orderId);
  const queryClient = useQueryClient();
  const id = useId();
  const [saving, setSaving] = useState(false);

  const update = async (status: OrderStatus) => {
    setSaving(true);
    try {
      const changed = await changeStatus(orderId, status);
      queryClient.setQueryData(['orders', 'admin', 'one', orderId], changed);
      void queryClient.invalidateQueries({ queryKey: ['orders', 'admin'] });
      onToast({ message: t('admin.orders.statusUpdated', { status: t(`orders.status.${status}`) }), kind: 'success' });
    } catch {
      onToast({ message: t('admin.orders.statusUpdateError'), kind: 'error' });
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className="panel">
      <button type="button" className="button button--small" onClick={onBack}>
        {t('admin.orders.back')}
      </button>
      {order.isPending ? (
        <LoadingMessage>{t('payment.loading')}</LoadingMessage>
      ) : order.isError ? (
        <LoadErrorMessage message={t('payment.orderLoadError')} onRetry={order.refetch} />
      ) : (
        <>
          <h2 className="panel__title order-detail__title">{t('orders.number', { orderId })}</h2>
          <p>
            {t('admin.orders.customer')}: <strong>{order.data.customerEmail}</strong>
          </p>
          <div className="field field--inline order-detail__status">
            <label className="field__label" htmlFor={`${id}-status`}>
              {t('admin.orders.changeStatus')}
            </label>
            <select id={`${id}-status`} className="field__input" value={order.data.status} disabled={saving} onChange={(event) => void update(event.target.value as OrderStatus)}>
              {ORDER_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {t(`orders.status.${status}`)}
                </option>
              ))}
            </select>
          </div>
          <OrderDetails order={order.data} />
          <h3 className="order-details__heading">{t('admin.orders.payment')}</h3>
          {order.data.payment ? (
            <dl className="facts">
              <dt>{t('admin.orders.paymentId')}</dt>
              <dd>{order.data.payment.paymentId}</dd>
              <dt>{t('orders.paymentMethod')}</dt>
              <dd>
                {t(`orders.method.${order.data.payment.method}`)}
                {order.data.payment.cardLast4 && ` (${t('admin.orders.cardLast4', { digits: order.data.payment.cardLast4 })})`}
              </dd>
              <dt>{t('admin.orders.amount')}</dt>
              <dd>
                <Price minor={order.data.payment.amountMinor} />
              </dd>
              <dt>{t('admin.orders.processedAt')}</dt>
              <dd>{formatDateTime(order.data.payment.processedAt, language, t('orders.notAvailable'))}</dd>
            </dl>
          ) : (
            <p className="muted">{t('admin.orders.notPaid')}</p>
          )}
          <h3 className="order-details__heading">{t('admin.orders.timeline')}</h3>
          <ol className="timeline">
            {ORDER_STATUSES.filter((status) => order.data.statusTimes[status]).map((status) => (
              <li key={status}>
                <strong>{t(`orders.status.${status}`)}</strong> {formatDateTime(order.data.statusTimes[status], language, t('orders.notAvailable'))}
              </li>
            ))}
          </ol>
        </>
      )}
    </div>
  );
}
