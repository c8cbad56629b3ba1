import type { ReactElement } from 'react';
import { taxPercentText, type Currency } from '#shared/money.js';
import { taxRowOf } from '#shared/pricing.js';
import type { Order, PaymentMethod } from '#shared/orders.js';
import { isToBeSent } from '#shared/order-status.js';
import type { OrderGiftCard } from '#shared/gift-cards.js';
import type { DeliveryMethod } from '#shared/delivery.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { formatDateTime } from '#client/ui/format-date.js';
import { LinePrice } from '#client/ui/line-price.js';
import { Price } from '#client/ui/price.js';
import { Localized } from '#client/i18n/localized.js';
import { ChoiceSummaryText } from '#client/ui/choice-summary.js';
import { ShipsBy } from '#client/ui/ships-by.js';
import { OrderDelivery } from './order-delivery.js';

/** The date an order ships by, while it is still to be sent. */
export function OrderShipsBy({ order }: { order: Pick<Order, 'status' | 'dispatchBy'> }) {
  if (!isToBeSent(order.status)) return null;
  return <ShipsBy dates={[order.dispatchBy]} />;
}

/** An order line's name and what was chosen for it. */
export function OrderLineName({ item }: { item: Order['items'][number] }) {
  return (
    <span className="line-name">
      <Localized text={item.name} />
      <ChoiceSummaryText summary={item.choices} />
    </span>
  );
}

/**
 * The order's status and, for cash on delivery or a bank transfer still awaited, how it is paid beside
 * it ("Accepted", "Cash on delivery"), so that such an order never reads as one awaiting an online payment.
 */
export function OrderStatusBadge({ status, paymentMethod }: { status: Order['status']; paymentMethod?: PaymentMethod }) {
  const { t } = useTranslation();
  const badge = <span className={`status status--${status}`}>{t(`orders.status.${status}`)}</span>;
  if (paymentMethod !== 'cash_on_delivery' && !(paymentMethod === 'bank_transfer' && status === 'pending')) return badge;
  return (
    <span className="status-badges">
      {badge} <span className="status status--payment">{t(`orders.method.${paymentMethod}`)}</span>
    </span>
  );
}

/**
 * Subtotal, tax, shipping, the cash-on-delivery fee and total, as checkout and orders show them, in
 * the currency of the pricing (an order keeps its own, and the tax rate it was placed at). The total is
 * always the last, bold row: tax that is added is a line after the subtotal, and the VAT that prices
 * include is a plain row before the total, since it is part of the amounts above it, not added to them.
 */
export function PricingTable({
  pricing,
  currency,
  giftCard = null,
  deliveryMethod = 'address',
}: {
  pricing: Order['pricing'];
  currency: Currency;
  giftCard?: OrderGiftCard | null;
  /** A courier's method names its shipping line ("Shipping (Econt office)"); the shop's own delivery is plain "Shipping". */
  deliveryMethod?: DeliveryMethod;
}) {
  const { t } = useTranslation();
  const shippingLabel = deliveryMethod === 'address' ? t('checkout.shipping') : `${t('checkout.shipping')} (${t(`orders.delivery.methods.${deliveryMethod}`)})`;
  const taxLabel = (key: 'checkout.tax' | 'checkout.taxIncluded') => t(key, { percent: taxPercentText(pricing.taxRateBasisPoints) });
  const taxRow = taxRowOf(pricing);
  const rows = (
    [
      [t('checkout.subtotal'), pricing.subtotal],
      pricing.discountCode !== null && [t('checkout.discount', { code: pricing.discountCode }), <DiscountAmount key="discount" pricing={pricing} currency={currency} />],
      taxRow === 'added' && [taxLabel('checkout.tax'), pricing.tax],
      // Shipping of goods that cost something and nothing for it is free shipping (the shop's threshold), said so.
      [shippingLabel, pricing.shipping === 0 && pricing.subtotal > 0 ? t('checkout.freeShipping') : pricing.shipping],
      pricing.fee > 0 && [t('checkout.cashOnDeliveryFeeLine'), pricing.fee],
      taxRow === 'included' && [taxLabel('checkout.taxIncluded'), pricing.tax],
    ] satisfies Array<[string, number | string | ReactElement] | false>
  ).filter((row) => row !== false);
  return (
    <dl className="pricing">
      {rows.map(([label, minor]) => (
        <div key={label} className="pricing__row">
          <dt>{label}</dt>
          <dd>{typeof minor === 'number' ? <Price minor={minor} currency={currency} /> : minor}</dd>
        </div>
      ))}
      <div className="pricing__row pricing__row--total">
        <dt>{t('checkout.total')}</dt>
        <dd>
          <Price minor={pricing.total} currency={currency} />
        </dd>
      </div>
      {/* A gift card is a payment, not a discount: under the total it pays part of, then what is left to pay. */}
      {giftCard && (
        <>
          <div className="pricing__row">
            <dt>{t('checkout.giftCardLine', { ending: giftCard.ending })}</dt>
            <dd>
              −<Price minor={giftCard.paidMinor} currency={currency} />
            </dd>
          </div>
          <div className="pricing__row pricing__row--total">
            <dt>{t('checkout.amountDue')}</dt>
            <dd>
              <Price minor={pricing.total - giftCard.paidMinor} currency={currency} />
            </dd>
          </div>
        </>
      )}
    </dl>
  );
}

/** What a discount code took off: the amount with a minus, or, for a free-shipping code, which takes nothing off, so said. */
function DiscountAmount({ pricing, currency }: { pricing: Pick<Order['pricing'], 'discount'>; currency: Currency }) {
  const { t } = useTranslation();
  if (pricing.discount === 0) return <>{t('checkout.discountFreeShipping')}</>;
  return (
    <>
      −<Price minor={pricing.discount} currency={currency} />
    </>
  );
}

/**
 * Everything about one order that its customer may see. Its headings are one level below the
 * page's heading for the order, so that no level is skipped: 2 under a page's h1, 3 under an h2.
 * shipsBy false: the page shows the date the order ships by itself (the admin's, above its status).
 */
export function OrderDetails({ order, headingLevel = 3, shipsBy = true }: { order: Order; headingLevel?: 2 | 3; shipsBy?: boolean }) {
  const { t, language } = useTranslation();
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <div className="order-details">
      <p className="order-details__meta">
        <OrderStatusBadge status={order.status} paymentMethod={order.paymentMethod} />{' '}
        <span>{t('orders.placedOn', { date: formatDateTime(order.createdAt, language, t('orders.notAvailable')) })}</span>
      </p>
      {shipsBy && <OrderShipsBy order={order} />}
      <Heading className="order-details__heading">{t('orders.items')}</Heading>
      <ul className="order-details__items">
        {order.items.map((item, index) => (
          <li key={index}>
            <OrderLineName item={item} /> <LinePrice line={item} currency={order.currency} />
          </li>
        ))}
      </ul>
      <PricingTable pricing={order.pricing} currency={order.currency} giftCard={order.giftCard} deliveryMethod={order.delivery.method} />
      <p>
        {t('orders.paymentMethod')}: {t(`orders.method.${order.paymentMethod}`)}
      </p>
      <OrderDelivery order={order} Heading={Heading} />
    </div>
  );
}
