import { describe, expect, it } from 'vitest';
import { firstCardError, formatCardNumber, formatExpiry, lastFourDigits } from './card.js';

const valid = { number: '4242 4242 4242 4242', holder: 'Maria Ivanova', expiry: '12/28', cvv: '123' };

describe('card form', () => {
  it.each([
    ['a short number', { ...valid, number: '4242 4242' }, 'mockPayment.validation.cardNumber'],
    ['letters in the number', { ...valid, number: '4242 4242 4242 424x' }, 'mockPayment.validation.cardNumber'],
    ['a 17-digit number', { ...valid, number: '42424242424242424' }, 'mockPayment.validation.cardNumber'],
    ['no holder', { ...valid, holder: ' ' }, 'mockPayment.validation.cardHolder'],
    ['month 13', { ...valid, expiry: '13/28' }, 'mockPayment.validation.expiry'],
    ['no slash', { ...valid, expiry: '1228' }, 'mockPayment.validation.expiry'],
    ['a 2-digit CVV', { ...valid, cvv: '12' }, 'mockPayment.validation.cvv'],
    ['a 4-digit CVV', { ...valid, cvv: '1234' }, 'mockPayment.validation.cvv'],
  ])('refuses %s', (_case, card, messageKey) => {
    expect(firstCardError(card)).toBe(messageKey);
  });

  it('accepts a complete card, with or without spaces', () => {
    expect(firstCardError(valid)).toBeNull();
    expect(firstCardError({ ...valid, number: '4242424242424242' })).toBeNull();
  });

  it('checks the rules in order', () => {
    expect(firstCardError({ number: '', holder: '', expiry: '', cvv: '' })).toBe('mockPayment.validation.cardNumber');
  });

  it('groups the number in fours and slashes the expiry as they are typed', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('4242-42')).toBe('4242 42');
    expect(formatCardNumber('42424242424242429999')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('4242 4242 4242 4242')).toHaveLength(19);
    expect(formatExpiry('1')).toBe('1');
    expect(formatExpiry('12')).toBe('12');
    expect(formatExpiry('122')).toBe('12/2');
    expect(formatExpiry('12/28')).toBe('12/28');
    expect(formatExpiry('122899')).toBe('12/28');
  });

  it('keeps only the last four digits', () => {
    expect(lastFourDigits('4242 4242 4242 1234')).toBe('1234');
  });
});
