import type { LocalizedText } from './catalog.js';
import type { OrderStatus } from './order-status.js';
import type { ChoiceSummary } from './product-options.js';

/** The order statuses whose lines are still to be made or sent: the maker's work list shows these. */
export const WORK_LIST_STATUSES = ['pending', 'accepted', 'paid', 'preparing'] as const satisfies readonly OrderStatus[];

/** One ordered line still to be made, as the admin's work list shows it, soonest due first. */
export interface WorkListLine {
  orderId: string;
  orderStatus: OrderStatus;
  orderedAt: string;
  customerEmail: string;
  shippingFullName: string;
  position: number;
  name: LocalizedText;
  quantity: number;
  choices: ChoiceSummary;
  /** yyyy-mm-dd, or null for lines ordered before lead times. */
  dispatchBy: string | null;
}

export interface WorkListResponse {
  lines: WorkListLine[];
}
