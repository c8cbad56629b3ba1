import { describe, expect, it } from 'vitest';
import type { OrderStatus } from './order-status.js';
import { dayText, paymentStateOf, placedOrderStatus, type Payment, type PaymentState } from './orders.js';

const payment: Payment = { paymentId: 'pay_1', method: 'card', amountMinor: 2348, processedAt: '2026-01-01T00:00:00Z', cardLast4: '4242' };

describe('paymentStateOf', () => {
  it.each<[OrderStatus, boolean, PaymentState]>([
    ['pending', false, 'payable'],
    ['paid', true, 'paid'],
    ['paid', false, 'paid'],
    ['preparing', true, 'paid'],
    ['delivered', true, 'paid'],
    ['sent', false, 'noPaymentNeeded'],
    ['ready', false, 'noPaymentNeeded'],
    ['delivered', false, 'noPaymentNeeded'],
    ['cancelled', false, 'cancelled'],
    ['cancelled', true, 'cancelled'],
  ])('%s, with a payment: %s, is %s', (status, paid, state) => {
    expect(paymentStateOf({ status, payment: paid ? payment : null })).toBe(state);
  });
});

describe('placedOrderStatus', () => {
  it('accepts a cash-on-delivery order at once and leaves an online one waiting for its payment', () => {
    expect(placedOrderStatus('cash_on_delivery')).toBe('accepted');
    expect(placedOrderStatus('card')).toBe('pending');
    expect(placedOrderStatus('pay_by_link')).toBe('pending');
  });

  it('has no payment to wait for in an accepted cash-on-delivery order, until the cash is recorded', () => {
    expect(paymentStateOf({ status: 'accepted', payment: null, paymentMethod: 'cash_on_delivery' })).toBe('cashOnDelivery');
    expect(paymentStateOf({ status: 'delivered', payment: { ...payment, method: 'cash_on_delivery' }, paymentMethod: 'cash_on_delivery' })).toBe('paid');
  });
});

describe('dayText', () => {
  it('writes a dispatch day as each language does, whatever the time zone', () => {
    expect(dayText('2026-12-03', 'en')).toBe('Thu 3 Dec');
    expect(dayText('2026-12-03', 'bg')).toBe('чт, 3 дек.');
    expect(dayText('2027-05-04', 'bg')).toBe('вт, 4 май');
    expect(dayText('2027-02-01', 'bg')).toBe('пн, 1 февр.');
    expect(dayText('2026-01-05', 'en')).toBe('Mon 5 Jan');
  });
});
