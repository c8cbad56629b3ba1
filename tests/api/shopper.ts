import { randomUUID } from 'node:crypto';
import type { CartResponse } from '#shared/cart.js';
import type { DeliveryMethod } from '#shared/delivery.js';
import { priceLines } from '#shared/pricing.js';
import type { Order } from '#shared/orders.js';
import type { SmtpInbox } from '../support/smtp-inbox.js';
import { sofia } from './sample-data.js';
import { nextClientAddress, requestLink, signIn, tokenOf } from './sign-in.js';
import type { TestApp } from './test-app.js';

export const operationKey = () => randomUUID().replace(/-/g, '');

/** Signs in through the API with the link that arrived at the SMTP inbox; returns the session cookie header. */
export async function signInThroughInbox(testApp: TestApp, inbox: SmtpInbox, email: string): Promise<string> {
  const requested = await requestLink(testApp, email);
  if (requested.statusCode !== 202) throw new Error(`Link request failed: ${requested.body}`);
  const token = tokenOf(await inbox.waitForSignInLink(email));
  const response = await testApp.app.inject({ method: 'POST', url: '/api/auth/sessions', payload: { token, email } });
  if (response.statusCode !== 200) throw new Error(`Sign-in failed: ${response.body}`);
  return `session=${response.cookies.find((cookie) => cookie.name === 'session')!.value}`;
}

/** Saves the Sofia address and puts the products in the cart, as a shopper does before checkout. */
export async function fillCart(testApp: TestApp, cookie: string, productIds: string[]): Promise<void> {
  await testApp.app.inject({ method: 'POST', url: '/api/addresses', headers: { cookie }, payload: sofia });
  const operations = productIds.map((productId) => ({ id: operationKey(), type: 'add', productId }));
  const response = await testApp.app.inject({ method: 'POST', url: '/api/cart/operations', headers: { cookie }, payload: { operations } });
  if (response.statusCode !== 200) throw new Error(`Adding to the cart failed: ${response.body}`);
}

/**
 * The time a test with a crowd of 100 buyers or requests may take: signing each in, filling each cart
 * and placing every order (or sending each a link) is real work, about 10 s on PGlite on a quiet
 * machine, which a busy one (CI beside other jobs) stretches past the usual 30 s.
 */
export const CROWD_TEST_TIMEOUT_MS = 120_000;

/** Signs `count` buyers in (`name0@example.com`, …) with these products in each one's cart: a crowd for parallel checkouts. */
export async function buyersWithCarts(testApp: TestApp, name: string, count: number, productIds: string[]): Promise<string[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, index) => {
      const cookie = await signIn(testApp, `${name}${index}@example.com`);
      await fillCart(testApp, cookie, productIds);
      return cookie;
    }),
  );
}

/** Every buyer places an order at once, each from her own client address, with the same order fields. */
export const checkoutsAtOnce = (testApp: TestApp, buyers: string[], payload: Record<string, unknown>) =>
  Promise.all(
    buyers.map((cookie) =>
      testApp.app.inject({
        method: 'POST',
        url: '/api/orders',
        headers: { cookie },
        remoteAddress: nextClientAddress(),
        payload: { idempotencyKey: operationKey(), acceptTerms: true, paymentMethod: 'card', ...payload },
      }),
    ),
  );

/** Places an order at the total the cart shows, as the checkout page does. */
export async function placeOrder(testApp: TestApp, cookie: string, payload: { paymentMethod?: string; deliveryMethod?: DeliveryMethod; [field: string]: unknown } = {}): Promise<Order> {
  const cart = (await testApp.app.inject({ method: 'GET', url: '/api/cart', headers: { cookie } })).json<CartResponse>();
  const shown = priceLines(cart.items, testApp.config.pricing, payload.paymentMethod, null, payload.deliveryMethod);
  const response = await testApp.app.inject({
    method: 'POST',
    url: '/api/orders',
    headers: { cookie },
    payload: { idempotencyKey: operationKey(), acceptTerms: true, expectedTotalMinor: shown.total, ...payload },
  });
  if (response.statusCode !== 201) throw new Error(`Placing the order failed: ${response.body}`);
  return response.json<{ order: Order }>().order;
}

/** Polls until the check passes or the time is up. */
export async function eventually<T>(check: () => Promise<T | undefined | false>, timeoutMs = 10_000, what = 'the condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = await check();
    if (result) return result;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
