import type Stripe from 'stripe';
import type { PaymentEvent, PaymentProvider } from './payment-provider.js';
import { orderLine, ProviderUnavailable } from './payment-provider.js';

/** How old a signed notification may be, in seconds: Stripe's own default, against replays of old ones. */
const STRIPE_SIGNATURE_TOLERANCE_S = 300;

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** Stripe's API (https://api.stripe.com), or a test server that answers as it does. */
  apiUrl: string;
}

const REFUND_TIMEOUT_MS = 8_000;

const JSON_TYPE = 'application/json; charset=utf-8';

/** The order a notification names, read without trusting it: only to show the admin what a refused one claimed. */
function claimedOrderId(body: string): string | null {
  try {
    const object = (JSON.parse(body) as { data?: { object?: { metadata?: { orderId?: unknown }; client_reference_id?: unknown } } }).data?.object;
    const claimed = object?.metadata?.orderId ?? object?.client_reference_id;
    return typeof claimed === 'string' && claimed.length <= 80 ? claimed : null;
  } catch {
    return null;
  }
}

const idOf = (value: string | { id: string } | null | undefined): string | null => (typeof value === 'string' ? value : (value?.id ?? null));

/** The attempt a session or PaymentIntent belongs to, by the metadata the shop gave it. */
const attemptOf = (metadata: Stripe.Metadata | null | undefined) => (metadata?.attemptId ? { attemptId: metadata.attemptId } : null);

function eventOf(event: Stripe.Event): PaymentEvent {
  const base = { eventId: event.id, eventType: event.type };
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
    case 'checkout.session.expired':
    case 'checkout.session.async_payment_failed': {
      const session = event.data.object;
      const paid = event.type !== 'checkout.session.expired' && event.type !== 'checkout.session.async_payment_failed' && session.payment_status === 'paid';
      const kind = paid ? 'paid' : event.type === 'checkout.session.expired' ? 'expired' : event.type === 'checkout.session.async_payment_failed' ? 'denied' : 'noted';
      return {
        ...base,
        kind,
        attempt: attemptOf(session.metadata),
        orderId: session.metadata?.orderId ?? session.client_reference_id,
        amountMinor: session.amount_total,
        currency: session.currency?.toUpperCase() ?? null,
        paymentReference: idOf(session.payment_intent),
      };
    }
    case 'payment_intent.succeeded':
    case 'payment_intent.payment_failed': {
      const intent = event.data.object;
      return {
        ...base,
        kind: event.type === 'payment_intent.succeeded' ? 'paid' : 'denied',
        attempt: attemptOf(intent.metadata),
        orderId: intent.metadata.orderId ?? null,
        amountMinor: event.type === 'payment_intent.succeeded' ? intent.amount_received : intent.amount,
        currency: intent.currency.toUpperCase(),
        paymentReference: intent.id,
      };
    }
    case 'charge.refunded': {
      // The charge's refunds in all, the shop's own and any made in Stripe's dashboard: the shop records what it has not.
      const charge = event.data.object;
      return {
        ...base,
        kind: 'refunded',
        attempt: null,
        orderId: null,
        amountMinor: charge.amount_refunded,
        currency: charge.currency.toUpperCase(),
        paymentReference: idOf(charge.payment_intent),
      };
    }
    default: {
      // The rest is kept for the admin.
      const object = event.data.object as { metadata?: Stripe.Metadata | null; amount?: number; currency?: string; payment_intent?: string | { id: string } | null };
      return {
        ...base,
        kind: 'noted',
        attempt: attemptOf(object.metadata),
        orderId: object.metadata?.orderId ?? null,
        amountMinor: typeof object.amount === 'number' ? object.amount : null,
        currency: object.currency?.toUpperCase() ?? null,
        paymentReference: idOf(object.payment_intent),
      };
    }
  }
}

/**
 * Stripe through its official library: a Checkout Session per attempt (one line of the order's total,
 * so that Stripe takes exactly what the shop computed), webhooks verified on the raw body with the
 * endpoint's signing secret, and refunds of the PaymentIntent.
 */
export function stripeProvider(settings: StripeSettings): PaymentProvider {
  const api = new URL(settings.apiUrl);
  // Loaded only by a shop that takes payments through Stripe, and then once.
  const client = import('stripe').then(({ default: Stripe }) => new Stripe(settings.secretKey, {
    host: api.hostname,
    port: api.port || (api.protocol === 'https:' ? 443 : 80),
    protocol: api.protocol === 'http:' ? 'http' : 'https',
    // Every call the shop makes carries an idempotency key, so the library's retries cannot double one.
    maxNetworkRetries: 2,
    timeout: 15_000,
    telemetry: false,
  }));
  return {
    name: 'stripe',
    // Stripe no longer settles leva.
    currencies: ['EUR'],

    async startPayment(request) {
      const stripe = await client;
      let session: Stripe.Checkout.Session;
      try {
        session = await stripe.checkout.sessions.create(
          {
            mode: 'payment',
            line_items: [
              {
                quantity: 1,
                price_data: { currency: request.currency.toLowerCase(), unit_amount: request.amountMinor, product_data: { name: orderLine(request.orderId, request.language) } },
              },
            ],
            client_reference_id: request.orderId,
            customer_email: request.customerEmail,
            locale: request.language === 'bg' ? 'bg' : 'en',
            metadata: { orderId: request.orderId, attemptId: request.attemptId },
            payment_intent_data: { metadata: { orderId: request.orderId, attemptId: request.attemptId } },
            success_url: request.returnUrl,
            cancel_url: request.cancelUrl,
          },
          { idempotencyKey: `attempt-${request.attemptId}` },
        );
      } catch (error) {
        throw new ProviderUnavailable('stripe', error);
      }
      if (!session.url) throw new ProviderUnavailable('stripe', new Error(`Checkout Session ${session.id} has no url`));
      return { start: { kind: 'redirect', url: session.url }, providerReference: session.id };
    },

    async readNotification({ body, headers }) {
      const stripe = await client;
      const signature = headers['stripe-signature'];
      if (typeof signature !== 'string') return { verified: false, reason: 'No Stripe-Signature header', claimedOrderId: claimedOrderId(body) };
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(body, signature, settings.webhookSecret, STRIPE_SIGNATURE_TOLERANCE_S);
      } catch (error) {
        return { verified: false, reason: error instanceof Error ? error.message : 'Signature not valid', claimedOrderId: claimedOrderId(body) };
      }
      return { verified: true, events: [eventOf(event)] };
    },

    answerNotification(results) {
      // Stripe sends an event again while the answer is not 2xx: an error is worth another try, an unknown attempt is not ours.
      if (results.some((result) => result.answer === 'error')) return { status: 500, contentType: JSON_TYPE, body: JSON.stringify({ received: false }) };
      if (results.some((result) => result.answer === 'unknown')) return { status: 400, contentType: JSON_TYPE, body: JSON.stringify({ error: 'unknown_payment' }) };
      return { status: 200, contentType: JSON_TYPE, body: JSON.stringify({ received: true }) };
    },

    refusedNotificationAnswer: () => ({ status: 400, contentType: JSON_TYPE, body: JSON.stringify({ error: 'invalid_signature' }) }),

    async refund(payment, requestId) {
      if (!payment.providerReference) throw new ProviderUnavailable('stripe', new Error('The payment names no PaymentIntent to refund'));
      const stripe = await client;
      try {
        // Asked while the refund's transaction holds the order (on the embedded database, the whole
        // database): one try, briefly. A refund that timed out is asked again under the same key.
        const refund = await stripe.refunds.create(
          { payment_intent: payment.providerReference, amount: payment.amountMinor },
          { idempotencyKey: `refund-${requestId}`, timeout: REFUND_TIMEOUT_MS, maxNetworkRetries: 0 },
        );
        return { reference: refund.id };
      } catch (error) {
        throw new ProviderUnavailable('stripe', error);
      }
    },
  };
}
