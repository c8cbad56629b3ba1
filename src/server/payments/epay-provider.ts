import { EPAY_BAD_CHECKSUM_ANSWER, encodeEpayRequest, epayAnswer, readEpayNotification, type EpayAnswerStatus } from './epay.js';
import { orderLine, type EventAnswer, type PaymentEvent, type PaymentProvider } from './payment-provider.js';

export interface EpaySettings {
  /** The merchant's customer number (КИН). */
  merchantId: string;
  secret: string;
  /** ePay's payment page: https://www.epay.bg/, or https://demo.epay.bg/ to test. */
  url: string;
}

/** How long ePay takes a payment after the buyer set off to pay: as long as an unpaid order is kept. */
const PAYMENT_WINDOW_MS = 3 * 24 * 60 * 60 * 1000;

const TEXT_TYPE = 'text/plain; charset=utf-8';

const EPAY_STATUS: Record<EventAnswer, EpayAnswerStatus> = { ok: 'OK', unknown: 'NO', error: 'ERR' };

/**
 * ePay.bg by redirect (its WEB_LOGIN and direct card payment): the buyer's browser posts the signed
 * request to ePay's page, and ePay's server notifies the shop of each invoice's end. ePay refunds are
 * made by the merchant in ePay's own dashboard: the shop records them when the admin confirms.
 */
export function epayProvider(settings: EpaySettings): PaymentProvider {
  return {
    name: 'epay',
    currencies: ['BGN', 'EUR'],

    async startPayment(request) {
      const signed = encodeEpayRequest(
        {
          min: settings.merchantId,
          invoice: String(request.invoice),
          amountMinor: request.amountMinor,
          currency: request.currency,
          expiresAt: new Date(Date.now() + PAYMENT_WINDOW_MS),
          description: orderLine(request.orderId, request.language),
        },
        settings.secret,
      );
      return {
        start: {
          kind: 'form',
          action: settings.url,
          fields: {
            // A card payment opens ePay's card form; a payment link lets the buyer pay from her ePay account too.
            PAGE: request.method === 'card' ? 'credit_paydirect' : 'paylogin',
            LANG: request.language,
            ENCODED: signed.ENCODED,
            CHECKSUM: signed.CHECKSUM,
            URL_OK: request.returnUrl,
            URL_CANCEL: request.cancelUrl,
          },
        },
        providerReference: null,
      };
    },

    async readNotification({ body }) {
      const read = readEpayNotification(Object.fromEntries(new URLSearchParams(body)), settings.secret);
      if (!read.valid) return { verified: false, reason: 'Not valid CHECKSUM', claimedOrderId: null };
      const events: PaymentEvent[] = read.notices.map((notice) => ({
        eventId: `${notice.invoice}:${notice.status}`,
        eventType: notice.status,
        kind: notice.status === 'PAID' ? 'paid' : notice.status === 'DENIED' ? 'denied' : 'expired',
        attempt: { invoice: Number(notice.invoice) },
        orderId: null,
        amountMinor: null,
        currency: null,
        paymentReference: notice.stan ? `${notice.invoice}/${notice.stan}` : notice.invoice,
      }));
      // A line the shop cannot read is kept for the admin and answered for its invoice, if it names one.
      for (const line of read.unreadable) {
        const invoice = /^INVOICE=(\d{1,9})(?::|$)/.exec(line)?.[1];
        events.push({ eventId: line.slice(0, 200), eventType: 'unreadable', kind: 'noted', attempt: invoice ? { invoice: Number(invoice) } : null, orderId: null, amountMinor: null, currency: null, paymentReference: null });
      }
      return { verified: true, events };
    },

    answerNotification(results) {
      const lines = results.flatMap(({ event, answer }) => (event.attempt && 'invoice' in event.attempt ? [{ invoice: String(event.attempt.invoice), status: EPAY_STATUS[answer] }] : []));
      return { status: 200, contentType: TEXT_TYPE, body: epayAnswer(lines) };
    },

    refusedNotificationAnswer: () => ({ status: 400, contentType: TEXT_TYPE, body: EPAY_BAD_CHECKSUM_ANSWER }),

    refund: async () => ({ reference: null }),
  };
}
