import { randomBytes } from 'node:crypto';
import { CURRENCIES } from '#shared/money.js';
import { mockPaymentPath } from '#shared/routes.js';
import type { PaymentProvider } from './payment-provider.js';

/**
 * The specification's simulated provider: its payment page is the shop's own mock page, which reports
 * the payment through the customer's browser, and its refunds take effect at once. It takes no money.
 */
export function simulatedProvider(publicUrl: string): PaymentProvider {
  const refused = { status: 404, contentType: 'application/json; charset=utf-8', body: JSON.stringify({ error: 'not_found', message: 'The simulated provider sends no notifications' }) };
  return {
    name: 'simulated',
    currencies: CURRENCIES,
    startPayment: async (request) => ({ start: { kind: 'redirect', url: `${publicUrl}${mockPaymentPath(request.orderId, request.method)}` }, providerReference: null }),
    readNotification: async () => ({ verified: false, reason: 'The simulated provider sends no notifications', claimedOrderId: null }),
    answerNotification: () => refused,
    refusedNotificationAnswer: () => refused,
    refund: async () => ({ reference: `re_sim_${randomBytes(10).toString('hex')}` }),
  };
}
