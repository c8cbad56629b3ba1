import { describe, expect, it } from 'vitest';
import { isOrderStatus, isToBeSent, normalizeOrderStatus, orderStatusRank, ORDER_STATUSES, storedValuesOf } from './order-status.js';

describe('normalizeOrderStatus', () => {
  it.each([
    ['ordered', 'pending'],
    ['shipped', 'sent'],
    ['completed', 'delivered'],
    [null, 'pending'],
    [undefined, 'pending'],
    ['', 'pending'],
    ['paid', 'paid'],
    ['accepted', 'accepted'],
    ['ready', 'ready'],
    ['cancelled', 'cancelled'],
  ])('reads %j as %s', (stored, status) => {
    expect(normalizeOrderStatus(stored)).toBe(status);
  });
});

describe('storedValuesOf', () => {
  it('includes the legacy values that read as the status', () => {
    expect(storedValuesOf('pending')).toEqual(['pending', 'ordered']);
    expect(storedValuesOf('sent')).toEqual(['sent', 'shipped']);
    expect(storedValuesOf('delivered')).toEqual(['delivered', 'completed']);
    expect(storedValuesOf('paid')).toEqual(['paid']);
    expect(storedValuesOf('accepted')).toEqual(['accepted']);
  });
});

describe('order statuses', () => {
  it('has the seven statuses of the specification and accepted (cash on delivery), in display order', () => {
    expect(ORDER_STATUSES).toEqual(['pending', 'accepted', 'paid', 'preparing', 'ready', 'sent', 'delivered', 'cancelled']);
    expect(orderStatusRank('pending')).toBeLessThan(orderStatusRank('accepted'));
    expect(orderStatusRank('accepted')).toBeLessThan(orderStatusRank('preparing'));
    expect(orderStatusRank('pending')).toBeLessThan(orderStatusRank('paid'));
    expect(orderStatusRank('delivered')).toBeLessThan(orderStatusRank('cancelled'));
  });

  it('accepts only current statuses as input', () => {
    expect(isOrderStatus('sent')).toBe(true);
    expect(isOrderStatus('shipped')).toBe(false);
    expect(isOrderStatus(3)).toBe(false);
  });
});

describe('isToBeSent', () => {
  it('holds until an order is sent, delivered or cancelled', () => {
    expect(ORDER_STATUSES.filter(isToBeSent)).toEqual(['pending', 'accepted', 'paid', 'preparing', 'ready']);
  });
});
