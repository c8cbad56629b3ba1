import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { trackingUrl, type Courier, type OrderShipment } from '#shared/delivery.js';
import type { Executor } from '#server/db/client.js';
import { shipmentEvents, shipments } from '#server/db/schema.js';

// Orders' shipments as their pages show them (the orders module reads them with each order).

/**
 * The shipments of these orders as their pages show them, with the courier's events oldest first.
 * Two queries at most, one when no order has a shipment.
 */
export async function shipmentsOf(db: Executor, orderIds: readonly string[]): Promise<Map<string, OrderShipment>> {
  if (orderIds.length === 0) return new Map();
  const rows = await db
    .select({ orderId: shipments.orderId, courier: shipments.courier, state: shipments.state, trackingNumber: shipments.trackingNumber, createdAt: shipments.createdAt, hasLabel: sql<boolean>`${shipments.labelPdf} is not null` })
    .from(shipments)
    .where(and(inArray(shipments.orderId, [...orderIds]), eq(shipments.state, 'created')));
  if (rows.length === 0) return new Map();
  const events = await db
    .select()
    .from(shipmentEvents)
    .where(inArray(shipmentEvents.orderId, rows.map((row) => row.orderId)))
    .orderBy(asc(shipmentEvents.at));
  return new Map(
    rows.map((row) => {
      const courier = row.courier as Courier | 'manual';
      return [
        row.orderId,
        {
          courier,
          trackingNumber: row.trackingNumber,
          trackingUrl: courier !== 'manual' && row.trackingNumber ? trackingUrl(courier, row.trackingNumber) : null,
          createdAt: row.createdAt.toISOString(),
          hasLabel: row.hasLabel,
          events: events
            .filter((event) => event.orderId === row.orderId)
            .map((event) => ({ at: event.at.toISOString(), description: { bg: event.descriptionBg, en: event.descriptionEn }, place: event.place })),
        },
      ];
    }),
  );
}

