import type { Order } from '#shared/orders.js';
import { AddressText } from '#client/addresses/address-text.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { formatDateTime } from '#client/ui/format-date.js';
import { OfficeText } from './office-text.js';

/**
 * How the order travels: the method, the office or locker (or the address) it goes to, and once sent
 * its tracking number, the courier's tracking page and the steps the courier reported.
 */
export function OrderDelivery({ order, Heading }: { order: Order; Heading: 'h2' | 'h3' }) {
  const { t, language } = useTranslation();
  const { method, office, shipment } = order.delivery;
  const { fullName, phone } = order.shippingAddress;
  return (
    <section className="order-delivery" aria-label={t('orders.delivery.title')}>
      <Heading className="order-details__heading">{office ? t('orders.delivery.title') : t('orders.shipTo')}</Heading>
      {method !== 'address' && <p>{t(`orders.delivery.methods.${method}`)}</p>}
      {office ? (
        <>
          <p>
            <OfficeText office={office} />
          </p>
          <p className="muted">{t('orders.delivery.recipient', { name: fullName, phone })}</p>
        </>
      ) : (
        <AddressText address={order.shippingAddress} />
      )}
      {shipment?.trackingNumber && (
        <div className="order-delivery__tracking">
          <p>{t('orders.delivery.trackingNumber', { number: shipment.trackingNumber })}</p>
          {shipment.trackingUrl && (
            <p>
              <a href={shipment.trackingUrl} target="_blank" rel="noopener noreferrer">
                {t('orders.delivery.track', { courier: t(`orders.delivery.couriers.${shipment.courier}`) })}
              </a>
            </p>
          )}
          {shipment.events.length > 0 && (
            <>
              <p className="muted">{t('orders.delivery.travel')}</p>
              <ol className="order-delivery__events">
                {shipment.events.map((event, index) => (
                  <li key={index}>
                    <time dateTime={event.at}>{formatDateTime(event.at, language, '')}</time> {event.description[language]}
                    {event.place && <span className="muted"> · {event.place}</span>}
                  </li>
                ))}
              </ol>
            </>
          )}
        </div>
      )}
    </section>
  );
}
