import { z } from 'zod';
import { openingHours } from '#shared/delivery.js';
import type { CourierSettings } from '#server/config.js';
import {
  CourierError,
  courierPrice,
  requestCourier,
  type CourierApi,
  type CourierQuote,
  type CreatedShipment,
  type ListedOffice,
  type QuoteRequest,
  type ShipmentRequest,
  type TrackingEvent,
  type TrackingReport,
} from './courier.js';

/*
 * Econt's JSON services (https://ee.econt.com/services/, demo https://demo.econt.com/ee/services/):
 * every method a POST of JSON to {Service}/{Service}Service.{method}.json with HTTP Basic
 * authentication. A refusal is an error object { type, message, innerErrors } at the top of the answer
 * (with a status of 4xx or 517); batch methods give each element its own `error`.
 */

/** Shipment numbers asked about in one getShipmentStatuses request. */
const STATUS_BATCH = 50;

const econtError: z.ZodType<{ type?: string | null; message?: string | null; innerErrors?: unknown[] | null }> = z
  .object({ type: z.string().nullish(), message: z.string().nullish(), innerErrors: z.array(z.unknown()).nullish() })
  .passthrough();

/** An Econt error's messages, the nested ones too ("получател: " then "Несъответствие между населено място и пощенски код."). */
function messagesOf(error: unknown): string[] {
  const parsed = econtError.safeParse(error);
  if (!parsed.success) return [];
  const own = parsed.data.message?.trim() ? [parsed.data.message.trim()] : [];
  return [...own, ...(parsed.data.innerErrors ?? []).flatMap(messagesOf)];
}

const timeOfDay = z.number().nullish();
const officeSchema = z
  .object({
    code: z.string(),
    isAPS: z.boolean().nullish(),
    isMPS: z.boolean().nullish(),
    name: z.string(),
    nameEn: z.string().nullish(),
    address: z
      .object({
        city: z.object({ name: z.string(), nameEn: z.string().nullish(), postCode: z.string().nullish() }).passthrough(),
        fullAddress: z.string().nullish(),
        fullAddressEn: z.string().nullish(),
        quarter: z.string().nullish(),
        street: z.string().nullish(),
        num: z.string().nullish(),
        other: z.string().nullish(),
      })
      .passthrough(),
    normalBusinessHoursFrom: timeOfDay,
    normalBusinessHoursTo: timeOfDay,
    halfDayBusinessHoursFrom: timeOfDay,
    halfDayBusinessHoursTo: timeOfDay,
  })
  .passthrough();
const officesAnswer = z.object({ offices: z.array(officeSchema) }).passthrough();

const labelAnswer = z
  .object({ label: z.object({ shipmentNumber: z.string().nullish(), pdfURL: z.string().nullish(), totalPrice: z.number().nullish(), currency: z.string().nullish() }).passthrough() })
  .passthrough();

const profilesAnswer = z
  .object({
    profiles: z.array(z.object({ client: z.record(z.string(), z.unknown()), addresses: z.array(z.record(z.string(), z.unknown())).nullish() }).passthrough()),
  })
  .passthrough();

const trackingEventSchema = z
  .object({
    destinationType: z.string().nullish(),
    destinationDetails: z.string().nullish(),
    destinationDetailsEn: z.string().nullish(),
    officeName: z.string().nullish(),
    cityName: z.string().nullish(),
    time: z.number(),
  })
  .passthrough();
const statusesAnswer = z
  .object({
    shipmentStatuses: z.array(
      z
        .object({
          status: z
            .object({ shipmentNumber: z.string(), deliveryTime: z.number().nullish(), cdPaidTime: z.number().nullish(), trackingEvents: z.array(trackingEventSchema).nullish() })
            .passthrough()
            .nullish(),
          error: z.unknown().nullish(),
        })
        .passthrough(),
    ),
  })
  .passthrough();

const SOFIA_TIME = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Sofia', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/** Econt gives an office's hours as moments in milliseconds, of which only the time of day in Sofia counts. */
const sofiaTimeOfDay = (milliseconds: number | null | undefined) => (milliseconds === null || milliseconds === undefined ? null : SOFIA_TIME.format(new Date(milliseconds)));

/** An office's street address without the city that Econt's fullAddress begins with (" Шумен кв. Шумен ул. Петра №22"). */
function streetOf(fullAddress: string | null | undefined, city: string, parts: (string | null | undefined)[]): string {
  const full = fullAddress?.trim() ?? '';
  if (full) return full.startsWith(`${city} `) ? full.slice(city.length + 1).trim() : full;
  return parts.filter(Boolean).join(' ');
}

function toListedOffice(office: z.infer<typeof officeSchema>): ListedOffice {
  const { address } = office;
  const cityBg = address.city.name;
  const cityEn = address.city.nameEn || cityBg;
  const streetBg = streetOf(address.fullAddress, cityBg, [address.quarter, address.street, address.num, address.other]);
  return {
    id: office.code,
    kind: office.isAPS ? 'locker' : 'office',
    name: { bg: office.name, en: office.nameEn || office.name },
    city: { bg: cityBg, en: cityEn },
    postCode: address.city.postCode ?? '',
    address: { bg: streetBg, en: address.fullAddressEn ? streetOf(address.fullAddressEn, cityEn, []) : streetBg },
    hours: {
      weekdays: openingHours(sofiaTimeOfDay(office.normalBusinessHoursFrom), sofiaTimeOfDay(office.normalBusinessHoursTo)),
      saturday: openingHours(sofiaTimeOfDay(office.halfDayBusinessHoursFrom), sofiaTimeOfDay(office.halfDayBusinessHoursTo)),
      sunday: null,
    },
    // A mobile station (a van on a schedule) hands parcels over but collects no money.
    acceptsCashOnDelivery: !office.isMPS,
  };
}

/** The steps of a parcel that Econt names by their kind, in both languages, where its own text is missing. */
const STEP_NAMES: Record<string, { bg: string; en: string }> = {
  client: { bg: 'Доставена', en: 'Delivered' },
  office: { bg: 'В офис', en: 'At the office' },
  courier: { bg: 'При куриер', en: 'With a courier' },
  prepared: { bg: 'Подготвена', en: 'Prepared' },
};

export class EcontApi implements CourierApi {
  readonly name = 'econt' as const;

  constructor(private readonly settings: CourierSettings) {}

  private async call<T extends z.ZodTypeAny>(method: string, body: object, schema: T): Promise<z.infer<T>> {
    const { username, password, url } = this.settings;
    const authorization = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
    const answer = await requestCourier('econt', url + method, { body, headers: { authorization }, timeoutMs: this.settings.timeoutMs });
    const refusal = econtError.safeParse(answer.json);
    if (answer.status >= 400 || (refusal.success && refusal.data.type)) {
      const messages = messagesOf(answer.json);
      if (messages.length > 0) throw new CourierError('econt', 'refused', messages.join(' '));
      throw new CourierError('econt', answer.status >= 500 ? 'unreachable' : 'refused', `Econt answered ${answer.status}`);
    }
    const parsed = schema.safeParse(answer.json);
    if (!parsed.success) throw new CourierError('econt', 'malformed', `Econt's answer is not as documented: ${parsed.error.issues[0]?.message ?? ''}`);
    return parsed.data;
  }

  async listOffices(): Promise<ListedOffice[]> {
    const answer = await this.call('Nomenclatures/NomenclaturesService.getOffices.json', { countryCode: 'BGR' }, officesAnswer);
    return answer.offices.map(toListedOffice);
  }

  /** Where the parcel starts: the office the shop hands it in at, or the first address of the account's profile, where a courier collects it. */
  private async senderPart(request: Pick<ShipmentRequest, 'sender'>): Promise<object> {
    const senderClient = { name: request.sender.name, phones: [request.sender.phone] };
    if (this.settings.senderOffice) return { senderClient, senderOfficeCode: this.settings.senderOffice };
    const { profiles } = await this.call('Profile/ProfileService.getClientProfiles.json', {}, profilesAnswer);
    const senderAddress = profiles[0]?.addresses?.[0];
    if (!senderAddress) throw new CourierError('econt', 'refused', 'The Econt profile has no address to collect parcels from; set ECONT_SENDER_OFFICE');
    return { senderClient, senderAddress };
  }

  /** The receiver's side of a label: the office, or the address as the buyer wrote it. */
  private receiverPart(destination: ShipmentRequest['destination']): object {
    if ('office' in destination) return { receiverOfficeCode: destination.office.id };
    return {
      receiverAddress: {
        city: { country: { code3: 'BGR' }, name: destination.address.city, postCode: destination.address.postalCode },
        // The street address as the buyer wrote it: Econt takes a quarter and "other" where street and number are not apart.
        other: [destination.address.streetAddress, destination.address.apartment].filter(Boolean).join(', '),
      },
    };
  }

  /** The label in "calculate" mode: Econt prices it without creating anything. */
  async quote(request: QuoteRequest): Promise<CourierQuote> {
    const label = { ...(await this.senderPart(request)), ...this.receiverPart(request.destination), packCount: 1, shipmentType: 'PACK', weight: request.weightGrams / 1000 };
    const priced = await this.call('Shipments/LabelService.createLabel.json', { label, mode: 'calculate' }, labelAnswer);
    return courierPrice('econt', priced.label.totalPrice, priced.label.currency);
  }

  async createShipment(request: ShipmentRequest): Promise<CreatedShipment> {
    const { destination } = request;
    const toOffice = 'office' in destination;
    const cod = request.cashOnDeliveryMinor > 0;
    // A locker cannot be opened for a look before paying, and Econt ignores the request there.
    const inspect = request.inspectBeforePaying && !(toOffice && destination.office.kind === 'locker');
    const label = {
      ...(await this.senderPart(request)),
      receiverClient: { name: request.recipient.name, phones: [request.recipient.phone] },
      ...this.receiverPart(destination),
      packCount: 1,
      shipmentType: 'PACK',
      weight: request.weightGrams / 1000,
      shipmentDescription: request.contents.slice(0, 100),
      orderNumber: request.orderId,
      holidayDeliveryDay: 'workday',
      ...(inspect ? { payAfterAccept: true } : {}),
      services: cod
        ? {
            cdType: 'get',
            cdAmount: request.cashOnDeliveryMinor / 100,
            cdCurrency: request.currency,
            // The profile's agreement (CD number) that pays the cash out by postal money transfer; without it, the profile's default.
            ...(this.settings.cashOnDeliveryAgreement ? { cdPayOptionsTemplate: this.settings.cashOnDeliveryAgreement } : {}),
          }
        : {},
    };
    const created = await this.call('Shipments/LabelService.createLabel.json', { label, mode: 'create' }, labelAnswer);
    const number = created.label.shipmentNumber;
    const pdfUrl = created.label.pdfURL;
    if (!number || !pdfUrl) throw new CourierError('econt', 'malformed', 'Econt created the label but named no number or PDF');
    // Econt may name the label by http: fetched by https when the API itself is.
    const pdf = await requestCourier('econt', this.settings.url.startsWith('https:') ? pdfUrl.replace(/^http:/, 'https:') : pdfUrl, { timeoutMs: this.settings.timeoutMs });
    if (!pdf.contentType.includes('application/pdf')) throw new CourierError('econt', 'malformed', "Econt's label address gave no PDF");
    return { trackingNumber: number, labelPdf: pdf.bytes };
  }

  async track(trackingNumbers: readonly string[]): Promise<Map<string, TrackingReport>> {
    const reports = new Map<string, TrackingReport>();
    for (let start = 0; start < trackingNumbers.length; start += STATUS_BATCH) {
      const batch = trackingNumbers.slice(start, start + STATUS_BATCH);
      const answer = await this.call('Shipments/ShipmentService.getShipmentStatuses.json', { shipmentNumbers: batch }, statusesAnswer);
      for (const { status } of answer.shipmentStatuses) {
        if (!status || !batch.includes(status.shipmentNumber)) continue;
        const events = (status.trackingEvents ?? []).map((event): TrackingEvent => {
          const kind = event.destinationType ?? 'event';
          const named = STEP_NAMES[kind];
          const bg = event.destinationDetails?.trim() || named?.bg || kind;
          return { at: new Date(event.time), code: kind, description: { bg, en: event.destinationDetailsEn?.trim() || named?.en || bg }, place: event.officeName ?? event.cityName ?? '' };
        });
        const deliveredAt = status.deliveryTime ? new Date(status.deliveryTime) : null;
        reports.set(status.shipmentNumber, { events, deliveredAt, cashOnDeliveryPaidAt: status.cdPaidTime ? new Date(status.cdPaidTime) : null });
      }
    }
    return reports;
  }
}
