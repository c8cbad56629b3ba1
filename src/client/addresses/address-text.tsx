import type { ShippingAddress } from '#shared/orders.js';
import { useTranslation } from '#client/i18n/i18n.js';

/** An address as it is written on a parcel. */
export function AddressText({ address }: { address: ShippingAddress }) {
  const { t } = useTranslation();
  return (
    <span className="address-text">
      <strong>{address.fullName}</strong>
      <br />
      {address.streetAddress}
      {address.apartment && `, ${address.apartment}`}
      <br />
      {[address.postalCode, address.city, address.state].filter(Boolean).join(' ')}, {t(`countries.${address.country}`)}
      <br />
      {address.phone}
    </span>
  );
}
