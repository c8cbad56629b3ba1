import type { FastifyInstance } from 'fastify';
import { placeOrderSchema, recordPaymentSchema, type Order } from '../../shared/orders.js';
import { requireUser } from '../auth/session.js';
import type { Database } from '../db/client.js';
import { parseInput, pathId } from '../http/validation.js';
import { orderForPaymentPage, recordPayment } from '../payments/service.js';
import { listCustomerOrders, placeOrder, type CheckoutSettings } from './service.js';

type WithId = { Params: { orderId: string } };
export const orderIdOf = ({ orderId }: { orderId: string }) => pathId(orderId, `Order ${orderId.slice(0, 100)} not found`);

export function registerOrderRoutes(app: FastifyInstance, db: Database, settings: CheckoutSettings): void {
  app.get('/api/orders', async (request, reply): Promise<{ orders: Order[] }> => {
    const user = await requireUser(db, request);
    reply.header('cache-control', 'no-store');
    return { orders: await listCustomerOrders(db, user.email) };
  });

  app.post('/api/orders', async (request, reply) => {
    const user = await requireUser(db, request);
    const input = parseInput(placeOrderSchema, request.body);
    const { order, created } = await placeOrder(db, user, input, settings);
    return reply.status(created ? 201 : 200).send({ order });
  });

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
