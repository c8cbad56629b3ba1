import { and, eq, lt, sql } from 'drizzle-orm';
import { deliveryKindOf, type CourierOffice, type DeliveryMethod } from '#shared/delivery.js';
import { bgnToEurMinor, eurToBgnMinor, type Currency } from '#shared/money.js';
import type { ShippingAddress } from '#shared/orders.js';
import { findAddress } from '#server/addresses/service.js';
import { cartWeightGrams } from '#server/cart/service.js';
import type { Database, Executor } from '#server/db/client.js';
import { deliveryQuotes } from '#server/db/schema.js';
import { HttpError } from '#server/http/errors.js';
import { asHttpError, parcelGrams, UNKNOWN_PIECE_GRAMS, type CourierApi, type CourierQuote, type Sender } from './courier.js';
import { officeForMethod } from './offices.js';

// The fee of a method priced by its courier (DELIVERY_FEES=…=courier): asked of the courier for the
// buyer's parcel before she confirms the total, kept, and charged as quoted.

/** How long a quote holds: long enough to finish a checkout, short enough that the courier's price is today's. */
const QUOTE_LIFETIME_MS = 30 * 60 * 1000;

export interface DeliveryQuote {
  id: string;
  feeMinor: number;
  expiresAt: string;
}

/** The courier's price in the shop's currency: converted at the fixed rate when the courier answered in the other. */
export function inShopCurrency(quote: CourierQuote, currency: Currency): number {
  if (quote.currency === currency) return quote.amountMinor;
  return currency === 'BGN' ? eurToBgnMinor(quote.amountMinor) : bgnToEurMinor(quote.amountMinor);
}

const officeDestination = (office: Pick<CourierOffice, 'id'>) => `office:${office.id}`;
const addressDestination = (addressId: string) => `address:${addressId}`;

/** The parcel's weight from the cart as it is now. */
const parcelWeight = async (db: Executor, userId: string) => parcelGrams(await cartWeightGrams(db, userId, UNKNOWN_PIECE_GRAMS));

export interface QuoteInput {
  method: DeliveryMethod;
  officeId?: string;
  addressId?: string;
}

/**
 * Asks the method's courier its price for the buyer's parcel as her cart is now (to the office, or to
 * her saved address), and keeps it. A courier that cannot be reached or refuses answers 502 with its
 * reason: the buyer may choose another method.
 */
export async function quoteDelivery(db: Database, userId: string, input: QuoteInput, api: CourierApi, sender: Sender, currency: Currency): Promise<DeliveryQuote> {
  let destination: Parameters<CourierApi['quote']>[0]['destination'];
  let key: string;
  if (deliveryKindOf(input.method) === 'address') {
    const address = input.addressId ? await findAddress(db, userId, input.addressId) : null;
    if (!address) throw new HttpError(400, 'address_required', 'Shipping address is required', { field: 'addressId' });
    destination = { address: address as ShippingAddress };
    key = addressDestination(address.id);
  } else {
    const office = await officeForMethod(db, input.method, input.officeId ?? '');
    if (office instanceof HttpError) throw office;
    destination = { office };
    key = officeDestination(office);
  }
  const weightGrams = await parcelWeight(db, userId);
  const quoted = await api.quote({ sender, destination, weightGrams }).catch(asHttpError);
  // A buyer's quotes past their time are of no more use to anyone.
  await db.delete(deliveryQuotes).where(and(eq(deliveryQuotes.userId, userId), lt(deliveryQuotes.expiresAt, sql`now()`)));
  const [row] = await db
    .insert(deliveryQuotes)
    .values({ userId, method: input.method, destination: key, weightGrams, feeMinor: inShopCurrency(quoted, currency), currency, expiresAt: sql`now() + ${`${QUOTE_LIFETIME_MS} milliseconds`}::interval` })
    .returning();
  return { id: row!.id, feeMinor: row!.feeMinor, expiresAt: row!.expiresAt.toISOString() };
}

/**
 * The quoted fee an order is placed at, inside the checkout's transaction: the buyer's own quote, for
 * this method and destination, in the shop's currency, not expired, and for a parcel of the weight the
 * cart has now. Otherwise the answer is 409 price_changed and the checkout asks again.
 */
export async function quotedFee(
  tx: Executor,
  userId: string,
  quoteId: string | undefined,
  order: { method: DeliveryMethod; office: CourierOffice | null; addressId: string; currency: Currency },
): Promise<number | HttpError> {
  // As a price that changed: the checkout asks the courier again and shows the new total.
  const expired = new HttpError(409, 'price_changed', "The courier's price is no longer current; ask for it again.", { field: 'deliveryQuoteId' });
  if (!quoteId) return expired;
  const [quote] = await tx
    .select()
    .from(deliveryQuotes)
    .where(and(eq(deliveryQuotes.id, quoteId), eq(deliveryQuotes.userId, userId), sql`${deliveryQuotes.expiresAt} > now()`));
  const destination = order.office ? officeDestination(order.office) : addressDestination(order.addressId);
  if (!quote || quote.method !== order.method || quote.destination !== destination || quote.currency !== order.currency) return expired;
  if (quote.weightGrams !== (await parcelWeight(tx, userId))) return expired;
  return quote.feeMinor;
}
