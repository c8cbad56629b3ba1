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

export interface AdminOrderPage {
  orders: AdminOrderSummary[];
  total: number;
  page: number;
  pageSize: number;
}

export const ADMIN_ORDERS_PAGE_SIZE = 25;
export const MAX_ADMIN_PAGE_SIZE = 100;

/**
 * An order as the admin sees it: with the stock changes it made (pieces sold, returned, taken again)
 * and the e-mails it caused, oldest first.
 */
export interface AdminOrderDetail {
  order: Order;
  stockChanges: StockChange[];
  mails: OrderMail[];
}
