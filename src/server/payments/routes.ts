import type { FastifyInstance } from 'fastify';
import { recordPaymentSchema, type Order } from '../../shared/orders.js';
import { requireUser } from '../auth/session.js';
import type { Database } from '../db/client.js';
import { parseInput } from '../http/validation.js';
import { orderIdOf } from '../orders/routes.js';
import { orderForPaymentPage, recordPayment } from './service.js';

type WithId = { Params: { orderId: string } };

/** The payment page's view of an order (which the simulated provider may complete) and the payment itself. */
export function registerPaymentRoutes(app: FastifyInstance, db: Database): void {
  app.get<WithId>('/api/orders/:orderId', async (request, reply): Promise<{ order: Order }> => {
    const user = await requireUser(db, request);
    reply.header('cache-control', 'no-store');
    return { order: await orderForPaymentPage(db, user.id, orderIdOf(request.params)) };
  });

  app.post<WithId>('/api/orders/:orderId/payment', async (request): Promise<{ order: Order }> => {
    const user = await requireUser(db, request);
    const details = parseInput(recordPaymentSchema, request.body);
    return { order: await recordPayment(db, user.id, orderIdOf(request.params), details) };
  });
}
