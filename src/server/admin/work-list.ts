import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { normalizeOrderStatus, storedValuesOf } from '#shared/order-status.js';
import { WORK_LIST_STATUSES, type WorkListLine, type WorkListResponse } from '#shared/work-list.js';
import type { Executor } from '#server/db/client.js';
import { orderItems, orders } from '#server/db/schema.js';

/** The most lines the work list shows: far more than a maker has open at once. */
const WORK_LIST_LIMIT = 500;

export type WorkListStatus = (typeof WORK_LIST_STATUSES)[number];

/**
 * The lines of open orders (or of one open status) that are still to be made, soonest due first:
 * by dispatch date, lines ordered before lead times last, then by when they were ordered and their
 * place in the order. The orders are found by status through orders_status_created_id_idx and their
 * lines through order_items_order_position_idx; open orders are few, so sorting them costs little.
 */
export async function workList(db: Executor, status?: WorkListStatus): Promise<WorkListResponse> {
  const stored = (status ? [status] : [...WORK_LIST_STATUSES]).flatMap(storedValuesOf);
  const rows = await db
    .select({
      orderId: orders.id,
      status: orders.status,
      orderedAt: orders.orderedAt,
      customerEmail: orders.customerEmail,
      shippingFullName: orders.shippingFullName,
      position: orderItems.position,
      nameEn: orderItems.nameEn,
      nameBg: orderItems.nameBg,
      quantity: orderItems.quantity,
      choices: orderItems.choices,
      dispatchBy: orderItems.dispatchBy,
    })
    .from(orders)
    .innerJoin(orderItems, eq(orderItems.orderId, orders.id))
    // Gift cards sold are sent by e-mail once paid: nothing to make or pack.
    .where(and(inArray(orders.status, stored), eq(orderItems.giftCard, false)))
    .orderBy(sql`${orderItems.dispatchBy} asc nulls last`, asc(orders.orderedAt), asc(orders.id), asc(orderItems.position))
    .limit(WORK_LIST_LIMIT);
  return {
    lines: rows.map(
      (row): WorkListLine => ({
        orderId: row.orderId,
        orderStatus: normalizeOrderStatus(row.status),
        orderedAt: row.orderedAt.toISOString(),
        customerEmail: row.customerEmail,
        shippingFullName: row.shippingFullName,
        position: row.position,
        name: { en: row.nameEn, bg: row.nameBg },
        quantity: row.quantity,
        choices: row.choices,
        dispatchBy: row.dispatchBy,
      }),
    ),
  };
}
