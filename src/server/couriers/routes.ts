import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { COURIERS, courierOf, DELIVERY_METHODS, OFFICE_SEARCH_MAX_LENGTH, type Courier, type DeliveryMethod } from '#shared/delivery.js';
import type { Currency } from '#shared/money.js';
import { requireAdmin, requireUser } from '#server/auth/session.js';
import type { Database } from '#server/db/client.js';
import { HttpError } from '#server/http/errors.js';
import { parseInput } from '#server/http/validation.js';
import { orderIdOf } from '#server/orders/routes.js';
import { quoteDelivery } from './delivery-quotes.js';
import { searchOffices } from './offices.js';
import { createShipment, shipmentLabel, type ShipmentSettings } from './shipments.js';

const officeQuerySchema = z.object({
  courier: z.enum(COURIERS),
  kind: z.enum(['office', 'locker']),
  // Longer input is cut rather than refused: a search is never an error.
  q: z.string().default('').transform((value) => value.slice(0, OFFICE_SEARCH_MAX_LENGTH)),
  cod: z.enum(['0', '1']).default('0'),
});

const quoteSchema = z.object({
  method: z.enum(DELIVERY_METHODS),
  officeId: z.string().regex(/^[A-Za-z0-9-]{1,20}$/).optional(),
  addressId: z.string().min(1).max(80).optional(),
});

const shipmentSchema = z.object({
  /** For the shop's own delivery: the number the parcel travels under. */
  trackingNumber: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9 -]{4,40}$/, 'admin.orders.shipment.trackingInvalid')
    .optional(),
});

/** Office search and couriers' prices for the checkout; shipments and labels for the admin. */
export function registerCourierRoutes(
  app: FastifyInstance,
  db: Database,
  couriers: readonly Courier[],
  settings: ShipmentSettings,
  pricing: { currency: Currency; quotedMethods: readonly DeliveryMethod[] },
): void {
  const { currency, quotedMethods } = pricing;
  app.get('/api/delivery/offices', async (request, reply) => {
    const query = parseInput(officeQuerySchema, request.query);
    if (!couriers.includes(query.courier)) throw new HttpError(404, 'not_found', `The shop does not send with ${query.courier}`);
    // Lists change daily at most: a minute in the browser spares the database a buyer's every keystroke again.
    reply.header('cache-control', 'public, max-age=60');
    return { offices: await searchOffices(db, { courier: query.courier, kind: query.kind, query: query.q, cashOnDelivery: query.cod === '1' }) };
  });

  app.post('/api/delivery/quotes', async (request) => {
    const user = await requireUser(db, request);
    const input = parseInput(quoteSchema, request.body ?? {});
    const api = courierOf(input.method) ? settings.couriers.get(courierOf(input.method)!) : undefined;
    if (!api || !quotedMethods.includes(input.method)) throw new HttpError(400, 'delivery_method_unavailable', `The shop does not ask a courier the price of ${input.method}.`, { field: 'method' });
    return { quote: await quoteDelivery(db, user.id, input, api, settings.sender, currency) };
  });

  app.post<{ Params: { orderId: string } }>('/api/admin/orders/:orderId/shipment', async (request, reply) => {
    await requireAdmin(db, request);
    const orderId = orderIdOf(request.params);
    const { trackingNumber } = parseInput(shipmentSchema, request.body ?? {});
    await createShipment(db, orderId, settings, trackingNumber);
    return reply.status(204).send();
  });

  app.get<{ Params: { orderId: string } }>('/api/admin/orders/:orderId/shipment/label', async (request, reply) => {
    await requireAdmin(db, request);
    const orderId = orderIdOf(request.params);
    const label = await shipmentLabel(db, orderId);
    if (!label) throw new HttpError(404, 'not_found', `Order ${orderId} has no label`);
    return reply
      .header('cache-control', 'no-store')
      .header('content-disposition', `inline; filename="label-${orderId}-${label.trackingNumber}.pdf"`)
      .type('application/pdf')
      .send(label.pdf);
  });
}
