import type { PaymentNotice } from './payments.js';
import type { OrderStatus } from './order-status.js';
import type { Currency } from './money.js';
import type { OrderMail } from './order-mails.js';
import type { Order, PaymentMethod } from './orders.js';
import type { StockChange } from './stock.js';

/** A line of the admin's order list: enough to find an order, without its items. */
interface AdminOrderSummary {
  orderId: string;
  customerEmail: string;
  status: OrderStatus;
  createdAt: string;
  totalMinor: number;
  currency: Currency;
  itemCount: number;
  paymentMethod: PaymentMethod;
}

/**
 * A page of the admin's order list, newest first. Pages are reached by cursors (a position in the
 * list, opaque to the client) rather than page numbers, so that a deep page costs what the first
 * does and orders placed meanwhile do not shift the pages that follow.
 */
export interface AdminOrderPage {
  orders: AdminOrderSummary[];
  /** The matching orders, counted up to ADMIN_ORDER_COUNT_LIMIT; totalIsLowerBound says there are more. */
  total: number;
  totalIsLowerBound: boolean;
  /** The `after` of the next (older) page; null on the last page. */
  nextCursor: string | null;
  /** The `before` of the previous (newer) page; null on the first page. */
  previousCursor: string | null;
  pageSize: number;
}

export const ADMIN_ORDERS_PAGE_SIZE = 25;
export const MAX_ADMIN_PAGE_SIZE = 100;
/** Counting every match of a broad filter costs a scan of the whole table; beyond this many the list says "1,000+". */
export const ADMIN_ORDER_COUNT_LIMIT = 1000;

/**
 * An order as the admin sees it: with the stock changes it made (pieces sold, returned, taken again)
 * and the e-mails it caused, oldest first.
 */
export interface AdminOrderDetail {
  order: Order;
  stockChanges: StockChange[];
  mails: OrderMail[];
  /** What payment providers said about the order, newest first. */
  paymentNotices: PaymentNotice[];
}
