import { z } from 'zod';
import type { LocalizedText } from './catalog.js';
import type { Currency } from './money.js';
import type { OrderStatus } from './order-status.js';

/*
 * The admin's dashboard: how the shop sells, what sells, what runs out and what is still to make.
 * Sales are the orders placed in a period (in Sofia's days) that were not cancelled, at their totals,
 * in the shop's currency: an order placed in the other one is converted at the fixed rate.
 */

/** The longest range the dashboard compares, in days. */
export const DASHBOARD_MAX_DAYS = 366;
/** Ranges longer than this are charted per week rather than per day. */
export const DASHBOARD_DAILY_MAX_DAYS = 62;

const isoDate = z.iso.date({ error: 'admin.dashboard.errors.invalidRange' });
export const dashboardQuerySchema = z
  .object({ from: isoDate.optional(), to: isoDate.optional() })
  .refine((range) => !range.from || !range.to || range.from <= range.to, { error: 'admin.dashboard.errors.invalidRange', path: ['to'] });

export interface SalesFigures {
  revenueMinor: number;
  orders: number;
  /** Revenue per order, rounded half-up; 0 without orders. */
  averageMinor: number;
}

/** A period's sales (days from–to, inclusive) beside those of the period of the same length just before it. */
export interface SalesComparison {
  from: string;
  to: string;
  current: SalesFigures;
  previous: SalesFigures;
}

export interface SalesPoint {
  /** The first day of the day or week. */
  start: string;
  revenueMinor: number;
  orders: number;
}

export interface BestSeller {
  productId: string | null;
  name: LocalizedText;
  pieces: number;
  revenueMinor: number;
}

export interface StockAlert {
  productId: string;
  name: LocalizedText;
  stock: number;
}

export interface Dashboard {
  currency: Currency;
  today: SalesComparison;
  last7: SalesComparison;
  last30: SalesComparison;
  /** The chosen range (the last 30 days unless another was asked for). */
  range: SalesComparison;
  chart: { unit: 'day' | 'week'; points: SalesPoint[] };
  bestSellers: { byPieces: BestSeller[]; byRevenue: BestSeller[] };
  lowStock: StockAlert[];
  soldOut: StockAlert[];
  openOrders: { status: OrderStatus; count: number }[];
  /** Lines of open orders still to be made and sent (the work list's), how many are late, and the next day one is due. */
  work: { lines: number; pieces: number; overdue: number; nextDue: string | null };
}

/** The change from the previous period in whole percent, or null when there was nothing before. */
export function changePercent(current: number, previous: number): number | null {
  if (previous === 0) return null;
  return Math.round(((current - previous) / previous) * 100);
}
