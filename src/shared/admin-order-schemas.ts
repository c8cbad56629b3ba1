import { z } from 'zod';
import { ORDER_STATUSES, type OrderStatus } from './order-status.js';
import { typedText } from './text.js';

// The admin's inputs about orders, read by the dashboard and checked by the server with the same
// rules. Kept apart from order-status.ts so that the pages that only show a status do not load zod.

/**
 * A status the admin sets on an order or filters the list by: a current one, never a legacy value.
 * The message is the API's answer for any other value; the dashboard offers none, so no text of
 * the app shows it.
 */
export const orderStatusSchema = z.enum(ORDER_STATUSES, { error: 'Invalid status' });

/** The body of a status change: PATCH /api/admin/orders/:orderId/status. */
export interface ChangeOrderStatusRequest {
  status: OrderStatus;
}

/** The longest search of the order list: an e-mail address at most. */
export const ORDER_SEARCH_MAX_LENGTH = 254;

/** What the admin searches the order list for: an order number or an e-mail address, or a part of one. */
export const orderSearchSchema = typedText(ORDER_SEARCH_MAX_LENGTH, { tooLong: 'admin.orders.searchInvalid', invalid: 'admin.orders.searchInvalid' });
