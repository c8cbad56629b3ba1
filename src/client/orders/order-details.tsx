import { taxPercentText } from '../../shared/money.js';
import type { Order } from '../../shared/orders.js';
import { AddressText } from '../addresses/address-text.js';
import { useTranslation } from '../i18n/i18n.js';
import { formatDateTime } from '../ui/format-date.js';
import { Price } from '../ui/price.js';
import { Localized } from '../i18n/localized.js';

export function OrderStatusBadge({ status }: { status: Order['status'] }) {
  const { t } = useTranslation();
  return <span className={`status status--${status}`}>{t(`orders.status.${status}`)}</span>;
}

/** Subtotal, tax, shipping and total, as checkout and orders show them. */
export function PricingTable({ pricing }: { pricing: Order['pricing'] }) {
  const { t } = useTranslation();
  const rows: Array<[string, number]> = [
    [t('checkout.subtotal'), pricing.subtotal],
    [t('checkout.tax', { percent: taxPercentText(pricing.taxRateBasisPoints) }), pricing.tax],
    [t('checkout.shipping'), pricing.shipping],
  ];
  return (
    <dl className="pricing">
      {rows.map(([label, minor]) => (
        <div key={label} className="pricing__row">
          <dt>{label}</dt>
          <dd>
            <Price minor={minor} />
          </dd>
        </div>
      ))}
      <div className="pricing__row pricing__row--total">
        <dt>{t('checkout.total')}</dt>
        <dd>
          <Price minor={pricing.total} />
        </dd>
      </div>
    </dl>
  );
}

/**
 * Everything about one order that its customer may see. Its headings are one level below the
 * page's heading for the order, so that no level is skipped: 2 under a page's h1, 3 under an h2.
 */
export function OrderDetails({ order, headingLevel = 3 }: { order: Order; headingLevel?: 2 | 3 }) {
  const { t, language } = useTranslation();
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <div className="order-details">
      <p className="order-details__meta">
        <OrderStatusBadge status={order.status} />{' '}
        <span>{t('orders.placedOn', { date: formatDateTime(order.createdAt, language, t('orders.notAvailable')) })}</span>
      </p>
      <Heading className="order-details__heading">{t('orders.items')}</Heading>
      <ul className="order-details__items">
        {order.items.map((item, index) => (
          <li key={index}>
            <span>
              <Localized text={item.name} />
              {item.quantity > 1 && <span className="muted"> · {t('orders.quantity', { count: item.quantity })}</span>}
            </span>{' '}
            <Price minor={item.priceMinor * item.quantity} />
          </li>
        ))}
      </ul>
      <PricingTable pricing={order.pricing} />
      <p>
        {t('orders.paymentMethod')}: {t(`orders.method.${order.paymentMethod}`)}
      </p>
      <Heading className="order-details__heading">{t('orders.shipTo')}</Heading>
      <AddressText address={order.shippingAddress} />
    </div>
  );
}
