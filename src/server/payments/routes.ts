import type { FastifyInstance } from 'fastify';
import { recordPaymentSchema, type Order, type PaymentMethod } from '#shared/orders.js';
import type { PaymentStart } from '#shared/payments.js';
import { requireUser } from '#server/auth/session.js';
import type { Database } from '#server/db/client.js';
import { HttpError } from '#server/http/errors.js';
import type { DocumentSettings } from '#server/invoices/issue-documents.js';
import { parseInput } from '#server/http/validation.js';
import type { ShopMetrics } from '#server/metrics/shop-metrics.js';
import { orderIdOf } from '#server/orders/routes.js';
import { startOnlinePayment, takeNotification } from './online-payments.js';
import type { PaymentProvider } from './payment-provider.js';
import { countedPayment, orderForPaymentPage, recordPayment } from './service.js';

type WithId = { Params: { orderId: string } };

/** A provider's notification is small; a larger body is no notification of theirs. */
const NOTIFICATION_BODY_LIMIT = 256 * 1024;

export interface PaymentRouteSettings {
  /** The methods the shop offers. */
  offered: readonly PaymentMethod[];
  provider: PaymentProvider;
  publicUrl: string;
  metrics: ShopMetrics;
  documents: DocumentSettings;
}

/** The method a payment request names, so that a request refused for the rest of its body is counted under it. */
function namedMethod(body: unknown): PaymentMethod | 'unknown' {
  const method = recordPaymentSchema.shape.method.safeParse((body as { method?: unknown } | null)?.method);
  return method.success ? method.data : 'unknown';
}

/**
 * The payment page's view of an order, starting a payment with the provider, the providers'
 * notifications, and the simulated provider's payment. The simulated provider settles only the
 * methods the shop offers: a live shop that left them out (SHOP_MODE=live) marks no order paid
 * without money, not even one placed while it was a demo. With a real provider, the browser never
 * says that an order was paid: only the provider's verified notification does.
 */
export function registerPaymentRoutes(app: FastifyInstance, db: Database, settings: PaymentRouteSettings): void {
  const { offered, provider, metrics, documents } = settings;
  const simulated = provider.name === 'simulated';

  app.get<WithId>('/api/orders/:orderId', async (request, reply): Promise<{ order: Order }> => {
    const user = await requireUser(db, request);
    reply.header('cache-control', 'no-store');
    return { order: await orderForPaymentPage(db, user.id, orderIdOf(request.params), simulated && offered.includes('pay_by_link'), documents) };
  });

  app.post<WithId>('/api/orders/:orderId/payment', async (request): Promise<{ order: Order }> => {
    const user = await requireUser(db, request);
    return countedPayment(metrics, namedMethod(request.body), async () => {
      if (!simulated) throw new HttpError(403, 'forbidden', `Payments are confirmed by ${provider.name}, not by the browser.`, { messageKey: 'payment.confirmedByProvider' });
      const details = parseInput(recordPaymentSchema, request.body);
      if (!offered.includes(details.method)) throw new HttpError(400, 'payment_method_unavailable', `This shop does not take payments by ${details.method}`);
      return { order: await recordPayment(db, user.id, orderIdOf(request.params), details, documents) };
    });
  });

  app.post<WithId>('/api/orders/:orderId/payment-session', async (request, reply): Promise<{ start: PaymentStart }> => {
    const user = await requireUser(db, request);
    reply.header('cache-control', 'no-store');
    return { start: await startOnlinePayment(db, provider, settings.publicUrl, user.id, orderIdOf(request.params)) };
  });

  // The providers sign the body's exact bytes, so these routes read it as text, unparsed.
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: NOTIFICATION_BODY_LIMIT }, (_request, body, done) => done(null, body));
    for (const [name, path] of [
      ['stripe', '/api/payments/stripe/webhook'],
      ['epay', '/api/payments/epay/notify'],
    ] as const) {
      scope.post(path, async (request, reply) => {
        if (provider.name !== name) throw new HttpError(404, 'not_found', `This shop takes no payments through ${name}`);
        const answer = await takeNotification(db, provider, { body: typeof request.body === 'string' ? request.body : '', headers: request.headers }, { documents, metrics, log: request.log });
        return reply.code(answer.status).type(answer.contentType).send(answer.body);
      });
    }
  });
}
