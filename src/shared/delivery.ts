import type { LocalizedText } from './localized-text.js';
import { latinLowerCase } from './search.js';

/*
 * How an order travels: to the buyer's address by the shop's own delivery (the default, one flat
 * fee), or with a courier (Econt, Speedy) to her address, to one of its offices or to one of its
 * lockers. The courier's offices and lockers are picked from the lists the server keeps.
 */

export const COURIERS = ['econt', 'speedy'] as const;
export type Courier = (typeof COURIERS)[number];

/** Where a courier takes a parcel: the buyer's address, an office she collects it from, or a locker (Econt's АПС, Speedy's автомат). */
const DELIVERY_KINDS = ['address', 'office', 'locker'] as const;
export type DeliveryKind = (typeof DELIVERY_KINDS)[number];

/** "address" is the shop's own delivery to an address; the rest are a courier's kinds, as "econt_office". */
export const DELIVERY_METHODS = ['address', ...COURIERS.flatMap((courier) => DELIVERY_KINDS.map((kind) => `${courier}_${kind}` as const))] as const;
export type DeliveryMethod = (typeof DELIVERY_METHODS)[number];

export const DEFAULT_DELIVERY_METHOD: DeliveryMethod = 'address';

/** The courier of a method; null for the shop's own delivery. */
export function courierOf(method: DeliveryMethod): Courier | null {
  return method === 'address' ? null : (method.split('_')[0] as Courier);
}

/** Where a method takes the parcel. */
export function deliveryKindOf(method: DeliveryMethod): DeliveryKind {
  return method === 'address' ? 'address' : (method.split('_')[1] as DeliveryKind);
}

/** Whether the buyer picks an office or a locker for the method (otherwise the parcel goes to her address). */
export const needsOffice = (method: DeliveryMethod) => deliveryKindOf(method) !== 'address';

/** The methods a shop with these couriers offers, in order: each courier's office, locker and address; the shop's own delivery without a courier. */
export function deliveryMethodsFor(couriers: readonly Courier[]): DeliveryMethod[] {
  if (couriers.length === 0) return [DEFAULT_DELIVERY_METHOD];
  return couriers.flatMap((courier) => (['office', 'locker', 'address'] as const).map((kind) => `${courier}_${kind}` as DeliveryMethod));
}

/** When an office is open, as "09:00–19:00", on working days, Saturdays and Sundays; null: closed that day (or, for all three, not given). */
export interface OfficeHours {
  weekdays: string | null;
  saturday: string | null;
  sunday: string | null;
}

/** "09:00" and "19:00" as "09:00–19:00"; null for a day the courier gives as closed (both ends 00:00, or missing). */
export function openingHours(from: string | null | undefined, to: string | null | undefined): string | null {
  if (!from || !to || (from === '00:00' && to === '00:00')) return null;
  return `${from}–${to}`;
}

/** A courier's office or locker as the buyer picks it and as an order keeps it (unchanged if the courier later closes it). */
export interface CourierOffice {
  courier: Courier;
  /** The courier's own id of the office (Econt's office code, Speedy's office id). */
  id: string;
  kind: Extract<DeliveryKind, 'office' | 'locker'>;
  name: LocalizedText;
  city: LocalizedText;
  postCode: string;
  /** The street address, without the city. */
  address: LocalizedText;
  hours: OfficeHours;
  /** The office takes parcels paid on delivery. */
  acceptsCashOnDelivery: boolean;
}

/** The longest search for an office the server takes; a longer one finds nothing anyway. */
export const OFFICE_SEARCH_MAX_LENGTH = 60;
/** The most offices one search answers with. */
export const OFFICE_SEARCH_LIMIT = 30;

/**
 * The form offices are searched in, whichever script the buyer types in: Bulgarian's official
 * transliteration (Закон за транслитерацията), lower-cased and without accents, then folded so that
 * the spellings people use for the same sound meet: "София", "Sofiya" and "Sofia" are all "sofia",
 * "Шумен" and "Shumen", "Пещера" and "Peshtera"; "w" is "v", "x" is "ks", "j" and "y" are "i", "c" (but for "ch") is "ts".
 */
export function officeSearchKey(text: string): string {
  return latinLowerCase(text)
    .replace(/[^a-z0-9]+/g, ' ')
    .replace(/w/g, 'v')
    .replace(/x/g, 'ks')
    .replace(/q/g, 'k')
    .replace(/c(?!h)/g, 'ts')
    .replace(/[jy]/g, 'i')
    .replace(/ii+/g, 'i')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The shop's rules with the fee its courier quoted for a method priced by the courier (quotedDeliveryMethods). */
export const withQuotedFee = <Rules extends { deliveryFeesMinor?: Partial<Record<string, number>> }>(rules: Rules, method: DeliveryMethod, feeMinor: number): Rules => ({
  ...rules,
  deliveryFeesMinor: { ...rules.deliveryFeesMinor, [method]: feeMinor },
});

/** The courier's public page that follows a shipment. */
export function trackingUrl(courier: Courier, trackingNumber: string): string {
  const number = encodeURIComponent(trackingNumber);
  return courier === 'econt' ? `https://www.econt.com/services/track-shipment/${number}` : `https://www.speedy.bg/bg/track-shipment?shipmentNumber=${number}`;
}

/** A step of a parcel's travel as its courier reported it. */
interface ShipmentEvent {
  at: string;
  description: LocalizedText;
  place: string;
}

/** An order's parcel once it was handed to its courier (or, for the shop's own delivery, sent with the number the admin typed). */
export interface OrderShipment {
  courier: Courier | 'manual';
  trackingNumber: string | null;
  /** The courier's page that follows the parcel; null for the shop's own delivery. */
  trackingUrl: string | null;
  createdAt: string;
  /** The courier made a label, which the admin prints. */
  hasLabel: boolean;
  events: ShipmentEvent[];
}

/** How an order travels, as the API sends it. */
export interface OrderDelivery {
  method: DeliveryMethod;
  /** The office or locker picked, as it was when the order was placed; null for delivery to an address. */
  office: CourierOffice | null;
  /** The parcel, once it is sent; null before. */
  shipment: OrderShipment | null;
}
