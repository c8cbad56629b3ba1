import { z } from 'zod';
import { openingHours } from '#shared/delivery.js';
import type { CourierSettings } from '#server/config.js';
import { CourierError, courierPrice, requestCourier, type CourierApi, type CourierQuote, type CreatedShipment, type ListedOffice, type QuoteRequest, type ShipmentRequest, type TrackingReport } from './courier.js';

/*
 * Speedy's Web API v1 (https://api.speedy.bg/api/docs/): every method a POST of JSON to the base
 * address with the account's userName and password in the body; a refusal is an `error` object in
 * the answer, which may come with status 200.
 */

/** Bulgaria in Speedy's countries (ISO 3166 numeric). */
const BULGARIA = 100;
/** Speedy's standard service (Стандарт 24 часа), for parcels within Bulgaria. */
const STANDARD_SERVICE = 505;
/** Track takes at most this many parcels a request. */
const TRACK_BATCH = 10;
/** The operation codes that end a parcel's travel at the buyer: delivered. */
const DELIVERED = -14;

const speedyError = z.object({ message: z.string(), code: z.number().optional(), context: z.string().optional() });
const withError = z.object({ error: speedyError.nullish() }).passthrough();

const addressSchema = z
  .object({
    siteName: z.string().nullish(),
    postCode: z.string().nullish(),
    localAddressString: z.string().nullish(),
    fullAddressString: z.string().nullish(),
  })
  .passthrough();

const officeSchema = z
  .object({
    id: z.number(),
    name: z.string(),
    nameEn: z.string().nullish(),
    type: z.string(),
    address: addressSchema,
    workingTimeFrom: z.string().nullish(),
    workingTimeTo: z.string().nullish(),
    workingTimeHalfFrom: z.string().nullish(),
    workingTimeHalfTo: z.string().nullish(),
    workingTimeDayOffFrom: z.string().nullish(),
    workingTimeDayOffTo: z.string().nullish(),
    cashPaymentAllowed: z.boolean().nullish(),
    cardPaymentAllowed: z.boolean().nullish(),
    pickUpAllowed: z.boolean().nullish(),
    cargoTypesAllowed: z.array(z.string()).nullish(),
  })
  .passthrough();

const officesAnswer = withError.extend({ offices: z.array(officeSchema).nullish() });
const calculatedAnswer = withError.extend({
  calculations: z
    .array(z.object({ price: z.object({ total: z.number(), currency: z.string() }).passthrough().nullish(), error: speedyError.nullish() }).passthrough())
    .nullish(),
});
const createdAnswer = withError.extend({ id: z.string().nullish(), parcels: z.array(z.object({ id: z.string(), seqNo: z.number().optional() }).passthrough()).nullish() });

const operationSchema = z
  .object({ dateTime: z.string(), operationCode: z.number(), description: z.string().nullish(), place: z.string().nullish(), comment: z.string().nullish() })
  .passthrough();
const trackAnswer = withError.extend({
  parcels: z.array(z.object({ parcelId: z.string(), operations: z.array(operationSchema).nullish(), error: speedyError.nullish() }).passthrough()).nullish(),
});
const infoAnswer = withError.extend({
  shipments: z
    .array(
      z
        .object({
          id: z.string(),
          payment: z.object({ codPayment: z.object({ date: z.string().nullish(), totalPayedOutAmount: z.number().nullish() }).passthrough().nullish() }).passthrough().nullish(),
        })
        .passthrough(),
    )
    .nullish(),
});

/** Speedy's moments: "2022-02-24T08:59:12+0200", the offset written with or without its colon. */
function parseSpeedyTime(text: string): Date {
  const iso = text.replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) throw new Error(`not a Speedy time: ${text}`);
  return date;
}

/** "СОФИЯ - МЛАДОСТ 1 (ЖК)" as "София - Младост 1 (жк)": Speedy writes names in capitals. */
const titleCase = (text: string) => text.toLocaleLowerCase('bg').replace(/(^|[\s(\-"„.])(\p{L})/gu, (_all, before: string, letter: string) => before + letter.toLocaleUpperCase('bg'));

function toListedOffice(office: z.infer<typeof officeSchema>): ListedOffice | null {
  // Pallet-only offices and those that hand out nothing are no place for a buyer to collect a parcel.
  if (office.pickUpAllowed === false) return null;
  if (office.cargoTypesAllowed && !office.cargoTypesAllowed.includes('PARCEL')) return null;
  const address = office.address;
  const city = titleCase(address.siteName ?? '');
  const street = address.localAddressString ?? address.fullAddressString ?? '';
  return {
    id: String(office.id),
    kind: office.type === 'APT' ? 'locker' : 'office',
    name: { bg: titleCase(office.name), en: titleCase(office.nameEn ?? office.name) },
    city: { bg: city, en: city },
    postCode: address.postCode ?? '',
    address: { bg: street, en: street },
    hours: {
      weekdays: openingHours(office.workingTimeFrom, office.workingTimeTo),
      saturday: openingHours(office.workingTimeHalfFrom, office.workingTimeHalfTo),
      sunday: openingHours(office.workingTimeDayOffFrom, office.workingTimeDayOffTo),
    },
    // The buyer pays the courier there: in cash, or by card where the office (or locker) takes cards.
    acceptsCashOnDelivery: Boolean(office.cashPaymentAllowed || office.cardPaymentAllowed),
  };
}

export class SpeedyApi implements CourierApi {
  readonly name = 'speedy' as const;

  constructor(private readonly settings: CourierSettings) {}

  /** A method's answer, read by the schema; Speedy's own refusal (its `error`) becomes a refused CourierError with Speedy's message. */
  private async call<T extends z.ZodTypeAny>(path: string, body: object, schema: T, language: 'BG' | 'EN' = 'BG'): Promise<z.infer<T>> {
    const { username, password, url } = this.settings;
    const answer = await requestCourier('speedy', url + path, { body: { userName: username, password, language, ...body }, timeoutMs: this.settings.timeoutMs });
    return this.read(answer.json, schema, answer.status);
  }

  private read<T extends z.ZodTypeAny>(json: unknown, schema: T, status: number): z.infer<T> {
    const refusal = withError.safeParse(json);
    if (refusal.success && refusal.data.error) throw new CourierError('speedy', 'refused', refusal.data.error.message);
    if (status >= 500) throw new CourierError('speedy', 'unreachable', `Speedy answered ${status}`);
    if (status >= 400) throw new CourierError('speedy', 'refused', `Speedy answered ${status}`);
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new CourierError('speedy', 'malformed', `Speedy's answer is not as documented: ${parsed.error.issues[0]?.message ?? ''}`);
    return parsed.data;
  }

  async listOffices(): Promise<ListedOffice[]> {
    const answer = await this.call('location/office', { countryId: BULGARIA }, officesAnswer);
    return (answer.offices ?? []).map(toListedOffice).filter((office): office is ListedOffice => office !== null);
  }

  async quote(request: QuoteRequest): Promise<CourierQuote> {
    const { destination } = request;
    const calculated = await this.call(
      'calculate',
      {
        ...(this.settings.senderOffice ? { sender: { dropoffOfficeId: Number(this.settings.senderOffice) } } : {}),
        recipient:
          'office' in destination
            ? { privatePerson: true, pickupOfficeId: Number(destination.office.id) }
            : { privatePerson: true, addressLocation: { countryId: BULGARIA, siteName: destination.address.city, postCode: destination.address.postalCode } },
        service: { serviceIds: [STANDARD_SERVICE], autoAdjustPickupDate: true },
        content: { parcelsCount: 1, totalWeight: request.weightGrams / 1000 },
        payment: { courierServicePayer: 'SENDER' },
      },
      calculatedAnswer,
    );
    const [first] = calculated.calculations ?? [];
    if (first?.error) throw new CourierError('speedy', 'refused', first.error.message);
    return courierPrice('speedy', first?.price?.total, first?.price?.currency);
  }

  async createShipment(request: ShipmentRequest): Promise<CreatedShipment> {
    const { sender, recipient, destination } = request;
    const cod = request.cashOnDeliveryMinor > 0;
    const toOffice = 'office' in destination;
    const created = await this.call(
      'shipment',
      {
        sender: { phone1: { number: sender.phone }, contactName: sender.name.slice(0, 60), ...(this.settings.senderOffice ? { dropoffOfficeId: Number(this.settings.senderOffice) } : {}) },
        recipient: {
          phone1: { number: recipient.phone },
          clientName: recipient.name.slice(0, 60),
          privatePerson: true,
          ...(toOffice
            ? { pickupOfficeId: Number(destination.office.id) }
            : {
                address: {
                  countryId: BULGARIA,
                  postCode: destination.address.postalCode,
                  siteName: destination.address.city,
                  // The whole street address in the note, which Speedy documents as enough on its own.
                  addressNote: [destination.address.streetAddress, destination.address.apartment].filter(Boolean).join(', ').slice(0, 200),
                },
              }),
        },
        service: {
          serviceId: STANDARD_SERVICE,
          autoAdjustPickupDate: true,
          additionalServices: {
            ...(cod ? { cod: { amount: request.cashOnDeliveryMinor / 100, currencyCode: request.currency, processingType: 'POSTAL_MONEY_TRANSFER' } } : {}),
            // A locker cannot be opened for a look before paying.
            ...(request.inspectBeforePaying && !(toOffice && destination.office.kind === 'locker')
              ? { obpd: { option: 'OPEN', returnShipmentServiceId: STANDARD_SERVICE, returnShipmentPayer: 'SENDER' } }
              : {}),
          },
        },
        content: { parcelsCount: 1, totalWeight: request.weightGrams / 1000, contents: request.contents.slice(0, 100), package: 'BOX' },
        payment: { courierServicePayer: 'SENDER' },
        ref1: request.orderId,
      },
      createdAnswer,
    );
    const parcelId = created.parcels?.[0]?.id;
    if (!created.id || !parcelId) throw new CourierError('speedy', 'malformed', 'Speedy created the shipment but named no number');
    const label = await requestCourier('speedy', `${this.settings.url}print`, {
      body: { userName: this.settings.username, password: this.settings.password, paperSize: 'A6', parcels: [{ parcel: { id: parcelId } }] },
      timeoutMs: this.settings.timeoutMs,
    });
    if (!label.contentType.includes('application/pdf')) {
      this.read(label.json, z.never(), label.status);
      throw new CourierError('speedy', 'malformed', 'Speedy sent no label');
    }
    return { trackingNumber: created.id, labelPdf: label.bytes };
  }

  async track(trackingNumbers: readonly string[]): Promise<Map<string, TrackingReport>> {
    const reports = new Map<string, TrackingReport>();
    for (let start = 0; start < trackingNumbers.length; start += TRACK_BATCH) {
      const batch = trackingNumbers.slice(start, start + TRACK_BATCH);
      const parcels = batch.map((id) => ({ id }));
      // Speedy describes each step in the language asked for: once in each of the shop's.
      const [tracked, trackedInEnglish, info] = await Promise.all([
        this.call('track', { parcels, lastOperationOnly: false }, trackAnswer),
        this.call('track', { parcels, lastOperationOnly: false }, trackAnswer, 'EN'),
        this.call('shipment/info', { shipmentIds: batch }, infoAnswer),
      ]);
      for (const parcel of tracked.parcels ?? []) {
        if (parcel.error || !batch.includes(parcel.parcelId)) continue;
        const english = trackedInEnglish.parcels?.find((other) => other.parcelId === parcel.parcelId)?.operations ?? [];
        const events = (parcel.operations ?? []).map((operation) => {
          const bg = operation.description ?? String(operation.operationCode);
          const en = english.find((other) => other.dateTime === operation.dateTime && other.operationCode === operation.operationCode)?.description ?? bg;
          return { at: parseSpeedyTime(operation.dateTime), code: String(operation.operationCode), description: { bg, en }, place: operation.place ?? '' };
        });
        const delivered = events.find((event) => event.code === String(DELIVERED));
        const payout = info.shipments?.find((shipment) => shipment.id === parcel.parcelId)?.payment?.codPayment;
        reports.set(parcel.parcelId, { events, deliveredAt: delivered?.at ?? null, cashOnDeliveryPaidAt: payout?.date ? parseSpeedyTime(payout.date) : null });
      }
    }
    return reports;
  }
}
