import { describe, expect, it } from 'vitest';
import { isValidIban, lineExemption, refundStateOf, withdrawalDeadline, withdrawalOpen } from './withdrawals.js';

describe('the withdrawal period', () => {
  const delivered = new Date('2026-11-01T10:00:00Z');
  it('stays open 14 whole days from delivery, and without a delivery', () => {
    expect(withdrawalDeadline(delivered)?.toISOString()).toBe('2026-11-15T10:00:00.000Z');
    expect(withdrawalOpen({ status: 'delivered', deliveredAt: delivered }, new Date('2026-11-15T10:00:00Z'))).toBe(true);
    expect(withdrawalOpen({ status: 'delivered', deliveredAt: delivered }, new Date('2026-11-15T10:00:01Z'))).toBe(false);
    expect(withdrawalOpen({ status: 'sent', deliveredAt: null })).toBe(true);
    expect(withdrawalOpen({ status: 'cancelled', deliveredAt: null })).toBe(false);
  });
});

describe('exempt lines', () => {
  it('are made to measure with sizes, personalised with answers or by the product', () => {
    expect(lineExemption({ options: [], sizes: [1, 2, 3, 4, 5, 1, 2, 3, 4, 5], answers: [] }, false)).toBe('made_to_measure');
    expect(lineExemption({ options: [], sizes: null, answers: [{ question: { en: 'Initials', bg: '' }, answer: { en: 'MI', bg: '' } }] }, false)).toBe('personalised');
    expect(lineExemption({ options: [], sizes: null, answers: [] }, true)).toBe('personalised');
    expect(lineExemption({ options: [], sizes: null, answers: [] }, false)).toBeNull();
    expect(lineExemption({ options: [], sizes: null, answers: [] }, false, true)).toBe('gift_card');
  });
});

describe('IBAN', () => {
  it('checks the mod-97 digits, with spaces and lower case allowed', () => {
    expect(isValidIban('BG80 BNBG 9661 1020 3456 78')).toBe(true);
    expect(isValidIban('bg80bnbg96611020345678')).toBe(true);
    expect(isValidIban('BG81 BNBG 9661 1020 3456 78')).toBe(false);
    expect(isValidIban('BG00')).toBe(false);
  });
});

it('names the refund state from what was paid and refunded', () => {
  expect(refundStateOf(1000, 0)).toBe('none');
  expect(refundStateOf(1000, 400)).toBe('partly_refunded');
  expect(refundStateOf(1000, 1000)).toBe('refunded');
});
