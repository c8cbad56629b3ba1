import { describe, expect, it } from 'vitest';
import { EMPTY_CHOICE_SUMMARY } from '#shared/product-options.js';
import type { WorkListLine } from '#shared/work-list.js';
import { groupByOrder, isOverdue } from './work-list-panel.js';

const line = (orderId: string, position: number, dispatchBy: string | null): WorkListLine => ({
  orderId,
  orderStatus: 'paid',
  orderedAt: '2026-11-20T09:00:00Z',
  customerEmail: 'maria@example.com',
  shippingFullName: 'Maria Ivanova',
  position,
  name: { en: `Line ${position}`, bg: '' },
  quantity: 1,
  choices: EMPTY_CHOICE_SUMMARY,
  dispatchBy,
});

describe('the work list by order', () => {
  it('keeps the server’s order of the soonest line, lists each order’s lines by position, and ships an order by its latest line', () => {
    const orders = groupByOrder([line('B', 1, '2026-11-24'), line('A', 0, '2026-11-25'), line('B', 0, '2026-12-02'), line('C', 0, null)]);
    expect(orders.map((order) => [order.orderId, order.dispatchBy, order.lines.map((entry) => entry.position)])).toEqual([
      ['B', '2026-12-02', [0, 1]],
      ['A', '2026-11-25', [0]],
      ['C', null, [0]],
    ]);
  });

  it('calls a date overdue once its day is past, not on the day', () => {
    expect(isOverdue('2026-11-24', '2026-11-25')).toBe(true);
    expect(isOverdue('2026-11-25', '2026-11-25')).toBe(false);
    expect(isOverdue(null, '2026-11-25')).toBe(false);
  });
});
