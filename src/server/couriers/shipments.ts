import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { TextLanguage } from '#shared/catalog.js';
import { courierOf, type Courier, type DeliveryMethod } from '#shared/delivery.js';
import { isToBeSent, normalizeOrderStatus } from '#shared/order-status.js';
import type { Currency } from '#shared/money.js';
import type { Database, Executor } from '#server/db/client.js';
import { orders, shipmentEvents, shipments } from '#server/db/schema.js';
import { inTransaction } from '#server/db/transaction.js';
import { HttpError } from '#server/http/errors.js';
import type { DocumentSettings } from '#server/invoices/issue-documents.js';
import { queueStatusMail, type OrderMailSettings } from '#server/orders/order-mails.js';
import { goodsWeightGrams, shippingAddressOf } from '#server/orders/order-queries.js';
import { changeOrderStatus, setOrderStatus } from '#server/orders/status-changes.js';
import { moneyDue, paymentStateOfRow, recordCashPayment } from '#server/payments/service.js';
import { asHttpError, courierName, parcelGrams, UNKNOWN_PIECE_GRAMS, type CourierApi, type Sender, type TrackingReport } from './courier.js';

// An order's shipment: created once with its courier (or typed in for the shop's own delivery), its
// label kept, and its travel read back from the courier until it is delivered and its cash paid out.

export interface ShipmentSettings {
  couriers: ReadonlyMap<Courier, CourierApi>;
  sender: Sender;
  inspectBeforePaying: boolean;
  mail: OrderMailSettings;
  documents: DocumentSettings;
}


/** A shipment still being created this long after it began was left by a process that stopped; another may take it over. */
const CREATING_TAKEOVER_MS = 2 * 60 * 1000;

type ShipmentRow = typeof shipments.$inferSelect;

/** The label the courier made for the order, to print; undefined when it has none. */
export async function shipmentLabel(db: Executor, orderId: string): Promise<{ pdf: Buffer; trackingNumber: string } | undefined> {
  const [row] = await db.select({ pdf: shipments.labelPdf, trackingNumber: shipments.trackingNumber }).from(shipments).where(and(eq(shipments.orderId, orderId), eq(shipments.state, 'created')));
  return row?.pdf && row.trackingNumber ? { pdf: row.pdf, trackingNumber: row.trackingNumber } : undefined;
}

/**
 * Takes the order's shipment for this request: writes its row ('creating') if it has none, or takes
 * over one a stopped process left unfinished. False when the shipment exists already; a shipment
 * being created by another request at this moment is refused with 409.
 */
async function claimShipment(db: Database, orderId: string, courier: Courier | 'manual', codMinor: number): Promise<boolean> {
  const [claimed] = await db.insert(shipments).values({ orderId, courier, codMinor }).onConflictDoNothing().returning({ orderId: shipments.orderId });
  if (claimed) return true;
  const [takenOver] = await db
    .update(shipments)
    .set({ courier, codMinor, createdAt: sql`now()` })
    .where(and(eq(shipments.orderId, orderId), eq(shipments.state, 'creating'), lt(shipments.createdAt, sql`now() - ${`${CREATING_TAKEOVER_MS} milliseconds`}::interval`)))
    .returning({ orderId: shipments.orderId });
  if (takenOver) return true;
  const [existing] = await db.select({ state: shipments.state }).from(shipments).where(eq(shipments.orderId, orderId));
  if (existing?.state === 'creating') throw new HttpError(409, 'conflict', `The shipment of order ${orderId} is being created at this moment.`);
  return false;
}

/**
 * Creates the order's shipment, once however many times it is asked (a double click, two admins): with
 * its courier for a courier's method (the label and tracking number come back), or with the tracking
 * number the admin typed for the shop's own delivery. The order then moves to Sent, and the customer's
 * Sent e-mail carries the tracking link. A courier's refusal leaves the order as it was and answers 502
 * with the courier's message.
 */
export async function createShipment(db: Database, orderId: string, settings: ShipmentSettings, typedTrackingNumber?: string): Promise<void> {
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
  if (!order) throw new HttpError(404, 'not_found', `Order ${orderId} not found`);
  const status = normalizeOrderStatus(order.status);
  if (status === 'cancelled' || status === 'delivered') throw new HttpError(409, 'conflict', `Order ${orderId} is ${status}; it ships nothing.`);
  const courier = courierOf(order.deliveryMethod as DeliveryMethod);
  const api = courier ? settings.couriers.get(courier) : undefined;
  if (courier && !api) throw new HttpError(409, 'conflict', `The shop no longer sends with ${courierName(courier)}; set COURIERS to create this order's shipment.`);
  if (!api && !typedTrackingNumber) throw new HttpError(400, 'bad_request', 'Type the tracking number of the parcel.', { field: 'trackingNumber', messageKey: 'admin.orders.shipment.trackingRequired' });

  // Cash the courier collects: what is left to pay of an unpaid cash-on-delivery order.
  const codMinor = order.paymentMethod === 'cash_on_delivery' && (await paymentStateOfRow(db, order)) === 'cashOnDelivery' ? moneyDue(order) : 0;
  if (!(await claimShipment(db, orderId, api ? api.name : 'manual', codMinor))) return;

  let trackingNumber = typedTrackingNumber ?? null;
  let labelPdf: Buffer | null = null;
  if (api) {
    try {
      const created = await api.createShipment({
        orderId,
        sender: settings.sender,
        recipient: { name: order.shippingFullName, phone: order.shippingPhone },
        destination: order.deliveryOffice ? { office: order.deliveryOffice } : { address: shippingAddressOf(order) },
        weightGrams: parcelGrams(await goodsWeightGrams(db, orderId, UNKNOWN_PIECE_GRAMS)),
        contents: order.itemDescription,
        cashOnDeliveryMinor: codMinor,
        currency: order.currency as Currency,
        inspectBeforePaying: settings.inspectBeforePaying,
      });
      ({ trackingNumber, labelPdf } = created);
    } catch (error) {
      await db.delete(shipments).where(and(eq(shipments.orderId, orderId), eq(shipments.state, 'creating')));
      asHttpError(error);
    }
  }
  await inTransaction(db, async (tx) => {
    await tx.update(shipments).set({ state: 'created', trackingNumber, labelPdf }).where(eq(shipments.orderId, orderId));
    const [locked] = await tx.select({ status: orders.status, customerEmail: orders.customerEmail, language: orders.language }).from(orders).where(eq(orders.id, orderId)).for('update');
    const now = normalizeOrderStatus(locked!.status);
    if (!isToBeSent(now)) return;
    await setOrderStatus(tx, orderId, 'sent');
    await queueStatusMail(tx, settings.mail, { orderId, customerEmail: locked!.customerEmail, language: locked!.language as TextLanguage }, 'sent');
  });
}

/** Drops the labels of these orders' shipments, in the caller's transaction: a label carries the buyer's name, phone and address. */
export async function forgetShipmentLabels(tx: Executor, orderIds: readonly string[]): Promise<void> {
  await tx.update(shipments).set({ labelPdf: null }).where(inArray(shipments.orderId, [...orderIds]));
}

/** Shipments read from their courier at most this often. */
const TRACKING_INTERVAL_MS = 60 * 60 * 1000;
/** Shipments read in one round. */
const TRACKING_BATCH = 100;

/**
 * Reads the travel of the shipments due (created, with a courier, not yet delivered or with cash not yet
 * paid out, last read an hour ago or never): their new events go to the order's timeline, a delivery
 * makes the order Delivered (with its e-mail), and the cash a courier reports transferred is recorded
 * as the order's payment. Each shipment is claimed by its read time, so two processes read it once.
 * A courier that cannot be reached is tried again in the next round; the others go on.
 */
export async function trackShipments(db: Database, settings: ShipmentSettings, log: { warn(object: object, message: string): void }): Promise<number> {
  const due = await db
    .update(shipments)
    .set({ trackedAt: sql`now()` })
    .where(
      inArray(
        shipments.orderId,
        db
          .select({ orderId: shipments.orderId })
          .from(shipments)
          .where(
            and(
              eq(shipments.state, 'created'),
              sql`${shipments.courier} <> 'manual'`,
              or(isNull(shipments.deliveredAt), and(sql`${shipments.codMinor} > 0`, isNull(shipments.codPaidAt))),
              or(isNull(shipments.trackedAt), lt(shipments.trackedAt, sql`now() - ${`${TRACKING_INTERVAL_MS} milliseconds`}::interval`)),
            ),
          )
          .orderBy(sql`${shipments.trackedAt} asc nulls first`)
          .limit(TRACKING_BATCH)
          .for('update', { skipLocked: true }),
      ),
    )
    .returning();
  for (const [courier, api] of settings.couriers) {
    const mine = due.filter((row) => row.courier === courier && row.trackingNumber);
    if (mine.length === 0) continue;
    let reports;
    try {
      reports = await api.track(mine.map((row) => row.trackingNumber!));
    } catch (error) {
      log.warn({ err: error, courier }, `Could not read the tracking of ${mine.length} shipments from ${courierName(courier)}`);
      continue;
    }
    for (const row of mine) {
      const report = reports.get(row.trackingNumber!);
      if (report) await applyTracking(db, row, report, settings);
    }
  }
  return due.length;
}

async function applyTracking(db: Database, row: ShipmentRow, report: TrackingReport, settings: ShipmentSettings): Promise<void> {
  if (report.events.length > 0) {
    await db
      .insert(shipmentEvents)
      .values(report.events.map((event) => ({ orderId: row.orderId, at: event.at, code: event.code, descriptionBg: event.description.bg, descriptionEn: event.description.en, place: event.place })))
      .onConflictDoNothing();
  }
  if (report.deliveredAt && !row.deliveredAt) {
    await db.update(shipments).set({ deliveredAt: report.deliveredAt }).where(eq(shipments.orderId, row.orderId));
    const [order] = await db.select({ status: orders.status }).from(orders).where(eq(orders.id, row.orderId));
    if (order && normalizeOrderStatus(order.status) !== 'cancelled') await changeOrderStatus(db, row.orderId, 'delivered', settings.mail);
  }
  if (report.cashOnDeliveryPaidAt && row.codMinor > 0 && !row.codPaidAt) {
    await db.update(shipments).set({ codPaidAt: report.cashOnDeliveryPaidAt }).where(eq(shipments.orderId, row.orderId));
    try {
      await recordCashPayment(db, row.orderId, settings.mail, settings.documents);
    } catch (error) {
      // Recorded already (by the admin, say): the courier's word changes nothing.
      if (!(error instanceof HttpError && error.code === 'order_not_payable')) throw error;
    }
  }
}
