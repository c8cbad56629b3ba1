import type { LocalizedText } from '#shared/catalog.js';
import type { Currency } from '#shared/money.js';
import type { Courier, CourierOffice } from '#shared/delivery.js';
import type { ShippingAddress } from '#shared/orders.js';
import { HttpError } from '#server/http/errors.js';

/*
 * One interface for every courier the shop sends with. Each adapter (econt.ts, speedy.ts) speaks its
 * courier's documented JSON API at the base address its settings give, so that tests point it at a
 * local server (tests/support/econt-test-server.ts and speedy-test-server.ts) that answers as the courier documents.
 */

/** An office or locker as a courier lists it. */
export type ListedOffice = Omit<CourierOffice, 'courier'>;

/** The sender: the shop, as its settings name it (the office it hands parcels in at is the courier's setting). */
export interface Sender {
  name: string;
  phone: string;
}

export interface ShipmentRequest {
  /** The order's id, which the courier prints on the label as the shop's reference. */
  orderId: string;
  sender: Sender;
  recipient: { name: string; phone: string };
  /** Where the parcel goes: the buyer's address, or her chosen office or locker. */
  destination: { address: ShippingAddress } | { office: CourierOffice };
  weightGrams: number;
  /** What the parcel holds, in a few words for the label. */
  contents: string;
  /** The cash the courier collects from the buyer and transfers to the shop by postal money transfer; 0: the order is paid. */
  cashOnDeliveryMinor: number;
  currency: Currency;
  /** The buyer may open the parcel before paying for it. */
  inspectBeforePaying: boolean;
}

/** A box and its padding, added to the goods; and what a piece whose product gives no weight is taken to weigh (a press-on set). */
const PACKAGING_GRAMS = 100;
export const UNKNOWN_PIECE_GRAMS = 30;

/** A parcel's weight from its goods' (from the products' weights, UNKNOWN_PIECE_GRAMS for those without one). */
export const parcelGrams = (goodsGrams: number) => PACKAGING_GRAMS + goodsGrams;

/** What the courier's price of a parcel is asked from: where it goes and what it weighs. */
export interface QuoteRequest {
  sender: Sender;
  destination: ShipmentRequest['destination'];
  weightGrams: number;
}

/** The courier's price for carrying the parcel, in the currency it answered in. */
export interface CourierQuote {
  amountMinor: number;
  currency: Currency;
}

export interface CreatedShipment {
  trackingNumber: string;
  /** The label to print and stick on the parcel. */
  labelPdf: Buffer;
}

/** One step of a parcel's travel as the courier reports it. */
export interface TrackingEvent {
  at: Date;
  /** The courier's own code of the step, which with the moment tells one step from another. */
  code: string;
  description: LocalizedText;
  /** The office or town where it happened; empty when the courier names none. */
  place: string;
}

export interface TrackingReport {
  events: TrackingEvent[];
  /** When the buyer received the parcel; null while it travels. */
  deliveredAt: Date | null;
  /** When the courier transferred the cash it collected to the shop; null until it has. */
  cashOnDeliveryPaidAt: Date | null;
}

export interface CourierApi {
  readonly name: Courier;
  /** Every office and locker of the courier in Bulgaria. */
  listOffices(): Promise<ListedOffice[]>;
  createShipment(request: ShipmentRequest): Promise<CreatedShipment>;
  /** The courier's price for a parcel like this, asked before the order is placed. */
  quote(request: QuoteRequest): Promise<CourierQuote>;
  /** The reports of these shipments; a number the courier does not know is left out. */
  track(trackingNumbers: readonly string[]): Promise<Map<string, TrackingReport>>;
}

/**
 * A courier that could not do what was asked. refused: it answered and said no (its message is for
 * the admin to read); unreachable: no answer in time, or a server error; malformed: an answer this
 * adapter cannot read.
 */
export class CourierError extends Error {
  constructor(
    readonly courier: Courier,
    readonly reason: 'refused' | 'unreachable' | 'malformed',
    message: string,
  ) {
    super(message);
    this.name = 'CourierError';
  }
}

/** How long a courier may take to answer before the shop gives up (a label takes the longest). */
const COURIER_TIMEOUT_MS = 20_000;

/**
 * A request to a courier's API (a POST of JSON, or a GET of a file), within the timeout. No answer in
 * time or a lost connection is unreachable; an answer that is neither JSON nor a PDF is unreachable
 * with a 5xx status (a proxy's error page) and malformed otherwise. A JSON answer comes back whatever
 * its status, for the adapter to read the courier's own error from (Econt answers errors with 517).
 */
export async function requestCourier(
  courier: Courier,
  url: string,
  init: { body?: unknown; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<{ status: number; json: unknown; bytes: Buffer; contentType: string }> {
  let response: Response;
  let bytes: Buffer;
  try {
    response = await fetch(url, {
      method: init.body === undefined ? 'GET' : 'POST',
      headers: { accept: 'application/json, application/pdf', ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(init.timeoutMs ?? COURIER_TIMEOUT_MS),
    });
    bytes = Buffer.from(await response.arrayBuffer());
  } catch (error) {
    throw new CourierError(courier, 'unreachable', `${courierName(courier)} did not answer: ${(error as Error).message}`);
  }
  const contentType = response.headers.get('content-type') ?? '';
  if (contentType.includes('application/pdf')) return { status: response.status, json: null, bytes, contentType };
  try {
    return { status: response.status, json: JSON.parse(bytes.toString('utf8')), bytes, contentType };
  } catch {
    if (response.status >= 500) throw new CourierError(courier, 'unreachable', `${courierName(courier)} answered ${response.status}`);
    throw new CourierError(courier, 'malformed', `${courierName(courier)} answered ${response.status} with something other than JSON`);
  }
}

/** A courier's failure as the API answers it: 502 courier_failed with the courier's own words, and why (refused, unreachable, malformed). */
export function asHttpError(error: unknown): never {
  if (error instanceof CourierError) throw new HttpError(502, 'courier_failed', error.message, { field: error.reason });
  throw error;
}

export const courierName = (courier: Courier) => (courier === 'econt' ? 'Econt' : 'Speedy');

/** A courier's price as minor units of a currency the shop knows; a price in another is an answer this shop cannot use. */
export function courierPrice(courier: Courier, amount: number | null | undefined, currency: string | null | undefined): CourierQuote {
  if (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0 || (currency !== 'BGN' && currency !== 'EUR')) {
    throw new CourierError(courier, 'malformed', `${courierName(courier)} quoted no price the shop can use (${amount} ${currency})`);
  }
  return { amountMinor: Math.round(amount * 100), currency };
}
