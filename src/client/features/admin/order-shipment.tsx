import { useId, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { courierOf } from '#shared/delivery.js';
import type { AdminOrderDetail } from '#shared/admin.js';
import type { Order } from '#shared/orders.js';
import { errorText } from '#client/api/error-text.js';
import { ApiError, requestJson } from '#client/api/http.js';
import { queryKeys } from '#client/api/query-keys.js';
import { useTranslation } from '#client/i18n/i18n.js';

const createShipment = (orderId: string, trackingNumber?: string) =>
  requestJson<null>(`/api/admin/orders/${encodeURIComponent(orderId)}/shipment`, { method: 'POST', body: JSON.stringify(trackingNumber ? { trackingNumber } : {}) });

/**
 * Sending the order: with its courier, one button makes the shipment (the label to print, the
 * tracking number for the customer's e-mail); with the shop's own delivery, the admin types the number
 * the parcel travels under. Either way the order moves to Sent. Once sent, the label stays at hand.
 */
export function OrderShipment({ order, onToast }: { order: Order; onToast(toast: { message: string; kind: 'success' | 'error' }): void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const id = useId();
  const [creating, setCreating] = useState(false);
  const [typed, setTyped] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const { shipment, method } = order.delivery;
  const courier = courierOf(method);
  const courierName = t(`orders.delivery.couriers.${courier ?? 'manual'}`);
  if (shipment ? !shipment.hasLabel : order.status === 'cancelled' || order.status === 'delivered') return null;

  const create = async (event: FormEvent) => {
    event.preventDefault();
    if (creating) return;
    if (!courier && typed.trim() === '') {
      setFieldError(t('admin.orders.shipment.trackingRequired'));
      return;
    }
    setCreating(true);
    setFieldError(null);
    try {
      await createShipment(order.orderId, courier ? undefined : typed.trim());
      await queryClient.refetchQueries({ queryKey: queryKeys.adminOrder(order.orderId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.adminOrders() });
      const number = queryClient.getQueryData<AdminOrderDetail>(queryKeys.adminOrder(order.orderId))?.order.delivery.shipment?.trackingNumber ?? '';
      onToast({ message: t('admin.orders.shipment.created', { number }), kind: 'success' });
    } catch (error) {
      if (error instanceof ApiError && error.details.field === 'trackingNumber') setFieldError(errorText(t, error));
      // The courier's own words say what to fix (a phone, an office): they are shown as it gave them.
      else if (error instanceof ApiError && error.code === 'courier_failed') onToast({ message: t('admin.orders.shipment.failed', { courier: courierName, message: error.message }), kind: 'error' });
      else onToast({ message: errorText(t, error), kind: 'error' });
    } finally {
      setCreating(false);
    }
  };

  return (
    <section aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="order-details__heading">
        {t('admin.orders.shipment.title')}
      </h3>
      {shipment ? (
        // The tracking number and link are in the order's delivery above; here is what only the admin needs.
        shipment.hasLabel && (
          <p>
            <a className="button" href={`/api/admin/orders/${encodeURIComponent(order.orderId)}/shipment/label`} target="_blank" rel="noopener">
              {t('admin.orders.shipment.label')}
            </a>
          </p>
        )
      ) : (
        <form className="order-detail__status" onSubmit={(event) => void create(event)} noValidate>
          {!courier && (
            <div className="field field--inline">
              <label className="field__label" htmlFor={`${id}-tracking`}>
                {t('admin.orders.shipment.trackingLabel')}
              </label>
              <input
                id={`${id}-tracking`}
                className="field__input"
                value={typed}
                maxLength={40}
                aria-invalid={fieldError ? true : undefined}
                aria-describedby={`${id}-hint${fieldError ? ` ${id}-error` : ''}`}
                onChange={(event) => setTyped(event.target.value)}
              />
            </div>
          )}
          {/* aria-disabled rather than disabled, so that the keyboard focus stays on the button while it works. */}
          <button type="submit" className="button button--primary" aria-disabled={creating}>
            {creating ? t('admin.orders.shipment.creating') : courier ? t('admin.orders.shipment.create', { courier: courierName }) : t('admin.orders.shipment.markSent')}
          </button>
          <p id={`${id}-hint`} className="field__hint">
            {courier ? t('admin.orders.shipment.createHint') : t('admin.orders.shipment.trackingHint')}
          </p>
          {fieldError && (
            <p id={`${id}-error`} className="field__error" role="alert">
              {fieldError}
            </p>
          )}
        </form>
      )}
    </section>
  );
}
