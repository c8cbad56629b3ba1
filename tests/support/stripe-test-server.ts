import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/*
 * A local stand-in for Stripe, answering the requests the shop makes as Stripe's API reference
 * documents them (form-encoded bodies, bearer key, Idempotency-Key, JSON objects and errors), with a
 * hosted Checkout page of its own: paying there sends the signed webhooks Stripe sends
 * (checkout.session.completed, payment_intent.succeeded), signed by the library's own test helper,
 * and then sends the buyer to the session's success_url.
 */

export const TEST_STRIPE_KEY = 'sk_test_localStripe0123456789';
export const TEST_STRIPE_WEBHOOK_SECRET = 'whsec_localStripeSigningSecret0123456789';

interface TestSession {
  id: string;
  object: 'checkout.session';
  url: string;
  amount_total: number;
  currency: string;
  client_reference_id: string | null;
  customer_email: string | null;
  metadata: Record<string, string>;
  payment_intent: string | null;
  payment_status: 'unpaid' | 'paid';
  status: 'open' | 'complete' | 'expired';
  success_url: string;
  cancel_url: string;
  mode: string;
  locale: string | null;
  /** The PaymentIntent's metadata asked for with the session. */
  intentMetadata: Record<string, string>;
}

interface TestIntent {
  id: string;
  amount: number;
  currency: string;
  refunded: number;
  metadata: Record<string, string>;
}

export interface SignedEvent {
  id: string;
  body: string;
  signature: string;
}

export interface StripeTestServer {
  url: string;
  sessions: Map<string, TestSession>;
  intents: Map<string, TestIntent>;
  /** Every request the shop made to the API, in order. */
  requests: Array<{ method: string; path: string; idempotencyKey: string | undefined; body: Record<string, string> }>;
  /** Where the webhooks go: the shop's /api/payments/stripe/webhook. */
  webhookUrl: string | null;
  /** While true, the API answers 500 as in an outage (its hosted pages stay up). */
  down: boolean;
  /** A webhook event as Stripe would send it now (or at the moment given), with its Stripe-Signature header. */
  signedEvent(type: string, object: object, options?: { timestamp?: number; secret?: string; id?: string }): SignedEvent;
  /** Pays a session and returns the webhooks Stripe sends for it, signed, undelivered. */
  complete(sessionId: string): SignedEvent[];
  /** Pays a session as the hosted page does: the webhooks are delivered (awaited), then the success address is returned. */
  pay(sessionId: string): Promise<string>;
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A form body with Stripe's brackets ("metadata[orderId]") kept as flat keys. */
const formFields = (text: string): Record<string, string> => Object.fromEntries(new URLSearchParams(text));

/** The nested object a prefix names: metadata[orderId]=A under "metadata" is { orderId: 'A' }. */
function objectAt(fields: Record<string, string>, prefix: string): Record<string, string> {
  const entries = Object.entries(fields).flatMap(([key, value]) => {
    const match = new RegExp(`^${prefix.replace(/[[\]]/g, '\\$&')}\\[([^\\]]+)\\]$`).exec(key);
    return match ? [[match[1]!, value]] : [];
  });
  return Object.fromEntries(entries);
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${Math.random().toString(36).slice(2)}` });
  response.end(JSON.stringify(body));
}

const stripeError = (type: string, message: string, code?: string) => ({ error: { type, message, ...(code ? { code } : {}) } });

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

export async function startStripeTestServer(): Promise<StripeTestServer> {
  const signer = new Stripe(TEST_STRIPE_KEY);
  let counter = 0;
  const nextId = (prefix: string) => `${prefix}_test_${String(++counter).padStart(6, '0')}${Math.random().toString(36).slice(2, 8)}`;
  const idempotent = new Map<string, { status: number; body: unknown }>();

  const signedEvent: StripeTestServer['signedEvent'] = (type, object, options = {}) => {
    const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
    const id = options.id ?? nextId('evt');
    const body = JSON.stringify({ id, object: 'event', api_version: '2026-10-28.endive', created: timestamp, type, livemode: false, pending_webhooks: 1, data: { object } }, null, 2);
    const signature = signer.webhooks.generateTestHeaderString({ payload: body, secret: options.secret ?? TEST_STRIPE_WEBHOOK_SECRET, timestamp });
    return { body, signature, id };
  };

  async function deliver(event: SignedEvent): Promise<void> {
    if (!server.webhookUrl) return;
    await fetch(server.webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': event.signature }, body: event.body });
  }

  const publicSession = (session: TestSession) => {
    const { intentMetadata: _intentMetadata, ...shown } = session;
    return shown;
  };

  function complete(sessionId: string): SignedEvent[] {
    const session = server.sessions.get(sessionId);
    if (!session) throw new Error(`No session ${sessionId}`);
    if (session.status !== 'open') return [];
    const intent: TestIntent = { id: nextId('pi'), amount: session.amount_total, currency: session.currency, refunded: 0, metadata: session.intentMetadata };
    server.intents.set(intent.id, intent);
    Object.assign(session, { payment_intent: intent.id, payment_status: 'paid', status: 'complete' });
    return [
      signedEvent('checkout.session.completed', publicSession(session)),
      signedEvent('payment_intent.succeeded', { id: intent.id, object: 'payment_intent', amount: intent.amount, amount_received: intent.amount, currency: intent.currency, status: 'succeeded', metadata: intent.metadata }),
    ];
  }

  async function pay(sessionId: string): Promise<string> {
    for (const event of complete(sessionId)) await deliver(event);
    return server.sessions.get(sessionId)!.success_url;
  }

  function api(method: string, path: string, fields: Record<string, string>): { status: number; body: unknown } {
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const amount = Number(fields['line_items[0][price_data][unit_amount]']);
      const quantity = Number(fields['line_items[0][quantity]'] ?? 1);
      const currency = fields['line_items[0][price_data][currency]'];
      if (!Number.isInteger(amount) || amount < 1 || !currency || !fields.success_url || !fields.cancel_url) {
        return { status: 400, body: stripeError('invalid_request_error', 'Missing required param: line_items, success_url or cancel_url.', 'parameter_missing') };
      }
      const id = nextId('cs');
      const session: TestSession = {
        id,
        object: 'checkout.session',
        url: `${server.url}/c/pay/${id}`,
        amount_total: amount * quantity,
        currency,
        client_reference_id: fields.client_reference_id ?? null,
        customer_email: fields.customer_email ?? null,
        metadata: objectAt(fields, 'metadata'),
        payment_intent: null,
        payment_status: 'unpaid',
        status: 'open',
        success_url: fields.success_url,
        cancel_url: fields.cancel_url,
        mode: fields.mode ?? 'payment',
        locale: fields.locale ?? null,
        intentMetadata: objectAt(fields, 'payment_intent_data[metadata]'),
      };
      server.sessions.set(id, session);
      return { status: 200, body: publicSession(session) };
    }
    const sessionMatch = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (method === 'GET' && sessionMatch) {
      const session = server.sessions.get(sessionMatch[1]!);
      return session ? { status: 200, body: publicSession(session) } : { status: 404, body: stripeError('invalid_request_error', `No such checkout.session: '${sessionMatch[1]}'`, 'resource_missing') };
    }
    if (method === 'POST' && path === '/v1/refunds') {
      const intent = server.intents.get(fields.payment_intent ?? '');
      if (!intent) return { status: 400, body: stripeError('invalid_request_error', `No such payment_intent: '${fields.payment_intent}'`, 'resource_missing') };
      const amount = fields.amount ? Number(fields.amount) : intent.amount - intent.refunded;
      if (!Number.isInteger(amount) || amount < 1) return { status: 400, body: stripeError('invalid_request_error', 'Invalid positive integer', 'parameter_invalid_integer') };
      if (amount > intent.amount - intent.refunded) {
        return { status: 400, body: stripeError('invalid_request_error', `Refund amount (${amount}) is greater than unrefunded amount on charge`, 'amount_too_large') };
      }
      intent.refunded += amount;
      return { status: 200, body: { id: nextId('re'), object: 'refund', amount, currency: intent.currency, payment_intent: intent.id, status: 'succeeded' } };
    }
    return { status: 404, body: stripeError('invalid_request_error', `Unrecognized request URL (${method}: ${path}).`) };
  }

  const httpServer = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      const text = await readBody(request);
      const payMatch = /^\/c\/pay\/([^/]+)$/.exec(url.pathname);
      if (payMatch) {
        const session = server.sessions.get(payMatch[1]!);
        if (!session) return sendJson(response, 404, stripeError('invalid_request_error', 'No such session'));
        if (request.method === 'POST') {
          const successUrl = await pay(session.id);
          response.writeHead(303, { location: successUrl });
          return response.end();
        }
        const amount = (session.amount_total / 100).toFixed(2);
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return response.end(
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Stripe test checkout</title></head><body><main><h1>Test checkout</h1>` +
            `<p>Pay <strong>${amount} ${escapeHtml(session.currency.toUpperCase())}</strong> to the shop</p>` +
            `<form method="post"><button type="submit">Pay</button></form><p><a href="${escapeHtml(session.cancel_url)}">Cancel</a></p></main></body></html>`,
        );
      }
      if (server.down) return sendJson(response, 500, stripeError('api_error', 'The test server is down'));
      if (request.headers.authorization !== `Bearer ${TEST_STRIPE_KEY}`) {
        return sendJson(response, 401, stripeError('invalid_request_error', 'Invalid API Key provided'));
      }
      const fields = formFields(url.search ? url.search.slice(1) : text);
      const key = request.headers['idempotency-key'] as string | undefined;
      server.requests.push({ method: request.method ?? 'GET', path: url.pathname, idempotencyKey: key, body: fields });
      const remembered = key ? idempotent.get(key) : undefined;
      const answer = remembered ?? api(request.method ?? 'GET', url.pathname, fields);
      if (key && !remembered) idempotent.set(key, answer);
      sendJson(response, answer.status, answer.body);
    })();
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const server: StripeTestServer = {
    url: `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`,
    sessions: new Map(),
    intents: new Map(),
    requests: [],
    webhookUrl: null,
    down: false,
    signedEvent,
    complete,
    pay,
    close: () =>
      new Promise<void>((resolve) => {
        httpServer.closeAllConnections();
        httpServer.close(() => resolve());
      }),
  };
  return server;
}
