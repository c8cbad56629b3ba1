import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import type { Order } from '#shared/orders.js';
import { PAGE_ROUTES } from '#shared/routes.js';
import { errorText } from '#client/api/error-text.js';
import { requestJson } from '#client/api/http.js';
import { queryKeys } from '#client/api/query-keys.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { Price } from '#client/ui/price.js';

const cancelOrder = (orderId: string) => requestJson<{ order: Order }>(`/api/orders/${encodeURIComponent(orderId)}/cancel`, { method: 'POST' });

/** The withdrawal form with the order filled in. */
const withdrawalPath = (orderId: string) => `${PAGE_ROUTES.withdrawal}?order=${encodeURIComponent(orderId)}`;

/**
 * An order's after-sale line in the buyer's profile: the withdrawal button while the right lasts, the
 * cancellation while nothing is made yet, and what was withdrawn and refunded.
 */
export function OrderAfterSale({ order }: { order: Order }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const afterSale = order.afterSale;
  if (!afterSale) return null;
  const requested = afterSale.withdrawals.length > 0;

  const cancel = async () => {
    setError(null);
    try {
      await cancelOrder(order.orderId);
      await queryClient.invalidateQueries({ queryKey: queryKeys.myOrders() });
    } catch (caught) {
      setError(errorText(t, caught));
    } finally {
      setAsking(false);
    }
  };

  return (
    <div className="after-sale">
      {afterSale.refundState !== 'none' && (
        <p className="after-sale__refund">
          {t(`withdrawalForm.refundState.${afterSale.refundState}`)}: <Price minor={afterSale.refundedMinor} currency={order.currency} />
          {afterSale.refundState === 'partly_refunded' && (
            <>
              {' '}
              {t('withdrawalForm.ofPaid')} <Price minor={afterSale.paidMinor} currency={order.currency} />
            </>
          )}
        </p>
      )}
      {requested && afterSale.refundState === 'none' && <p className="muted">{t(`withdrawalForm.state.${afterSale.withdrawals.at(-1)!.state}`)}</p>}
      <div className="after-sale__actions">
        {afterSale.withdrawalOpen && (
          <Link className="button" href={withdrawalPath(order.orderId)}>
            {t('footer.withdrawal')}
          </Link>
        )}
        {afterSale.cancellable &&
          (asking ? (
            <span role="group" aria-label={t('withdrawalForm.cancelQuestion')}>
              {t('withdrawalForm.cancelQuestion')}{' '}
              <button type="button" className="button button--danger" onClick={() => void cancel()}>
                {t('withdrawalForm.cancelYes')}
              </button>{' '}
              <button type="button" className="button" onClick={() => setAsking(false)}>
                {t('withdrawalForm.cancelNo')}
              </button>
            </span>
          ) : (
            <button type="button" className="button" onClick={() => setAsking(true)}>
              {t('withdrawalForm.cancel')}
            </button>
          ))}
      </div>
      {error && <p className="form-error" role="alert">{error}</p>}
    </div>
  );
}
