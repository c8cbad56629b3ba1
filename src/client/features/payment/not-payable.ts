import type { Order } from '#shared/orders.js';
import type { Translate } from '#client/i18n/i18n.js';
import type { PaymentState } from '#shared/orders.js';

/** Why an order cannot be paid, for the payment page and the payment window; null when it can. */
export function notPayableText(t: Translate, order: Pick<Order, 'orderId' | 'status'>, state: PaymentState): string | null {
  const orderId = order.orderId;
  switch (state) {
    case 'payable':
      return null;
    case 'cancelled':
      return t('payment.cancelled', { orderId });
    case 'paid':
      return t('payment.alreadyPaid', { orderId });
    case 'noPaymentNeeded':
      return t('payment.noPaymentNeeded', { orderId, status: t(`orders.status.${order.status}`) });
    case 'cashOnDelivery':
      return t('payment.cashOnDelivery', { orderId });
    case 'bankTransfer':
      return t('payment.bankTransfer', { orderId });
  }
}
