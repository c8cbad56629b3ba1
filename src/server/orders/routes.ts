import type { FastifyInstance } from 'fastify';
import { placeOrderSchema, type Order } from '#shared/orders.js';
import { requireUser } from '#server/auth/session.js';
import type { Database } from '#server/db/client.js';
import type { GuessLimit } from '#server/http/guess-limit.js';
import { parseInput, pathId } from '#server/http/validation.js';
import type { ShopMetrics } from '#server/metrics/shop-metrics.js';
import { isUnknownCode } from '#server/promotions/routes.js';
import { placeOrder, type CheckoutSettings } from './checkout.js';
import { listCustomerOrders } from './order-queries.js';

export const orderIdOf = ({ orderId }: { orderId: string }) => pathId(orderId, `Order ${orderId.slice(0, 100)} not found`);

/** The customer's orders, and checkout; a discount code or gift card at checkout counts against the same guess limit as their checks. */
export function registerOrderRoutes(app: FastifyInstance, db: Database, settings: CheckoutSettings, metrics: ShopMetrics, promotionGuesses: GuessLimit): void {
  app.get('/api/orders', async (request, reply): Promise<{ orders: Order[] }> => {
    const user = await requireUser(db, request);
    reply.header('cache-control', 'no-store');
    return { orders: await listCustomerOrders(db, user.email) };
  });

  app.post('/api/orders', async (request, reply) => {
    const user = await requireUser(db, request);
    const input = parseInput(placeOrderSchema, request.body);
    const place = () => placeOrder(db, user, input, settings, metrics);
    const { order, created } = input.discountCode || input.giftCardCode ? await promotionGuesses.guard(request.ip, isUnknownCode, place) : await place();
    return reply.status(created ? 201 : 200).send({ order });
  });
}
