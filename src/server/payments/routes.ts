import type { FastifyInstance } from 'fastify';
import { recordPaymentSchema, type Order, type PaymentMethod } from '#shared/orders.js';
import { requireUser } from '#server/auth/session.js';
import type { Database } from '#server/db/client.js';
import { HttpError } from '#server/http/errors.js';
import type { DocumentSettings } from '#server/invoices/issue-documents.js';
import { parseInput } from '#server/http/validation.js';
import type { ShopMetrics } from '#server/metrics/shop-metrics.js';
import { orderIdOf } from '#server/orders/routes.js';
import { countedPayment, orderForPaymentPage, recordPayment } from './service.js';

type WithId = { Params: { orderId: string } };

/** The method a payment request names, so that a request refused for the rest of its body is counted under it. */
function namedMethod(body: unknown): PaymentMethod | 'unknown' {
  const method = recordPaymentSchema.shape.method.safeParse((body as { method?: unknown } | null)?.method);
  return method.success ? method.data : 'unknown';
}

/**
 * The payment page's view of an order (which the simulated provider may complete) and the payment itself.
 * The simulated provider settles only the methods the shop offers: a live shop that left them out
 * (SHOP_MODE=live) marks no order paid without money, not even one placed while it was a demo.
 */
export function registerPaymentRoutes(app: FastifyInstance, db: Database, offered: readonly PaymentMethod[], metrics: ShopMetrics, documents: DocumentSettings): void {
  app.get<WithId>('/api/orders/:orderId', async (request, reply): Promise<{ order: Order }> => {
    const user = await requireUser(db, request);
    reply.header('cache-control', 'no-store');
    return { order: await orderForPaymentPage(db, user.id, orderIdOf(request.params), offered.includes('pay_by_link'), documents) };
  });

  app.post<WithId>('/api/orders/:orderId/payment', async (request): Promise<{ order: Order }> => {
    const user = await requireUser(db, request);
    return countedPayment(metrics, namedMethod(request.body), async () => {
      const details = parseInput(recordPaymentSchema, request.body);
      if (!offered.includes(details.method)) throw new HttpError(400, 'payment_method_unavailable', `This shop does not take payments by ${details.method}`);
      return { order: await recordPayment(db, user.id, orderIdOf(request.params), details, documents) };
    });
  });
}
