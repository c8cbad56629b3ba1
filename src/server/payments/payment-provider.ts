import type { TextLanguage } from '#shared/catalog.js';
import type { Currency } from '#shared/money.js';
import type { PaymentMethod, PaymentProviderName } from '#shared/payment-methods.js';
import type { PaymentStart } from '#shared/payments.js';

/** One attempt to pay an order, as the provider is asked for it: the amount is the order's, fixed when the attempt starts. */
interface PaymentRequest {
  attemptId: string;
  /** The attempt's number, for providers that name a payment by digits (ePay's INVOICE). */
  invoice: number;
  orderId: string;
  /** The order's online method: ePay opens its card form straight away for a card. */
  method: PaymentMethod;
  amountMinor: number;
  currency: Currency;
  language: TextLanguage;
  customerEmail: string;
  /** Where the provider sends the buyer back: after paying, and when she gives up. */
  returnUrl: string;
  cancelUrl: string;
}

interface StartedPayment {
  start: PaymentStart;
  /** The provider's id of the attempt (a Checkout Session's id), when it gives one. */
  providerReference: string | null;
}

/** Which attempt a provider's event is about: by the id the shop gave it, or by its number. */
export type AttemptKey = { attemptId: string } | { invoice: number };

/** What a provider said about a payment, read from a notification whose signature was checked. */
export interface PaymentEvent {
  /** The provider's id of the event, or (ePay) the invoice and status, which repeat when the notice does. */
  eventId: string;
  eventType: string;
  /**
   * paid: the money was taken; denied or expired: the attempt ended without it; refunded: so much of
   * the payment (amountMinor) has been refunded in all; noted: kept for the record.
   */
  kind: 'paid' | 'denied' | 'expired' | 'refunded' | 'noted';
  attempt: AttemptKey | null;
  /** The order the provider names (Stripe's metadata); null where it names only the attempt. */
  orderId: string | null;
  /** What the provider took, when it says (ePay's notice does not: its amount is the signed request's). */
  amountMinor: number | null;
  currency: string | null;
  /** The provider's id of the money taken, which a refund names (a PaymentIntent's id, ePay's invoice). */
  paymentReference: string | null;
}

export interface ReceivedNotification {
  /** The body exactly as it arrived: signatures are over these bytes. */
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

type NotificationReading =
  | { verified: true; events: PaymentEvent[] }
  /** Refused unread (bad or stale signature, malformed): what it claims is kept only to show the admin. */
  | { verified: false; reason: string; claimedOrderId: string | null };

/** How the shop took each event, which the provider's answer reports where it asks (ePay does, per invoice). */
export type EventAnswer = 'ok' | 'unknown' | 'error';

export interface NotificationAnswer {
  status: number;
  contentType: string;
  body: string;
}

/**
 * A payment provider behind one small interface (as Medusa and Vendure do): it starts a payment by
 * sending the buyer to its pages, reads its signed notifications, and refunds. Checkout, the payment
 * page, the admin and refunds use only this.
 */
export interface PaymentProvider {
  readonly name: PaymentProviderName;
  /** The currencies it takes payments in. */
  readonly currencies: readonly Currency[];
  /** Asks the provider for a payment; throws ProviderUnavailable when it cannot be reached or refuses. */
  startPayment(request: PaymentRequest): Promise<StartedPayment>;
  /** Checks a notification's signature on the raw body and reads its events; nothing in it is believed before. */
  readNotification(notification: ReceivedNotification): Promise<NotificationReading>;
  /** The answer the provider expects once the events were taken (or refused). */
  answerNotification(results: Array<{ event: PaymentEvent; answer: EventAnswer }>): NotificationAnswer;
  /** The answer to a notification refused unread. */
  refusedNotificationAnswer(reason: string): NotificationAnswer;
  /**
   * Sends money back for a payment; the request id makes a repeated call refund once. Returns the
   * provider's id of the refund, or null where the admin refunds in the provider's own dashboard (ePay).
   */
  refund(payment: { providerReference: string | null; amountMinor: number; currency: Currency }, requestId: string): Promise<{ reference: string | null }>;
}

/** The order as the provider's page names it to the buyer, in her language. */
export const orderLine = (orderId: string, language: TextLanguage) => (language === 'bg' ? `Поръчка № ${orderId}` : `Order #${orderId}`);

/** The provider could not be reached, or refused to start a payment or a refund: the order stays as it was. */
export class ProviderUnavailable extends Error {
  constructor(provider: PaymentProviderName, cause: unknown) {
    super(`${provider} did not answer as expected: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}
