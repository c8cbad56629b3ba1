import { describe, expect, it } from 'vitest';
import type { OrderStatus } from './order-status.js';
import { paymentStateOf, type Payment, type PaymentState } from './orders.js';

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
