import { describe, expect, it } from 'vitest';
import { courierOf, deliveryKindOf, deliveryMethodsFor, officeSearchKey, openingHours, trackingUrl } from './delivery.js';

describe('office search key', () => {
  it('meets Cyrillic and the Latin spellings people type for it', () => {
    for (const typed of ['София', 'Sofia', 'Sofiya', 'SOFIA', 'sofija']) expect(officeSearchKey(typed)).toBe('sofia');
    expect(officeSearchKey('Пловдив')).toBe(officeSearchKey('Plovdiv'));
    expect(officeSearchKey('Варна')).toBe(officeSearchKey('varna'));
    expect(officeSearchKey('Шумен')).toBe(officeSearchKey('Shumen'));
    expect(officeSearchKey('Пещера')).toBe(officeSearchKey('Peshtera'));
    expect(officeSearchKey('Люлин')).toBe(officeSearchKey('Lyulin'));
    expect(officeSearchKey('Кършияка')).toBe(officeSearchKey('Karshiyaka'));
    expect(officeSearchKey('Тракия')).toBe(officeSearchKey('Trakia'));
    expect(officeSearchKey('Цариградско')).toBe(officeSearchKey('Tsarigradsko'));
    expect(officeSearchKey('Чайка')).toBe(officeSearchKey('Chaika'));
    expect(officeSearchKey('Жълтица')).toBe(officeSearchKey('Zhaltitsa'));
  });

  it('keeps only letters, digits and single spaces, so that a search is never a pattern', () => {
    expect(officeSearchKey('  ж.к. "Младост" 1, бл. 10%_\\ ')).toBe('zh k mladost 1 bl 10');
    expect(officeSearchKey('%%%___')).toBe('');
    expect(officeSearchKey('Crème Brûlée')).toBe(officeSearchKey('creme brulee'));
  });
});

describe('delivery methods', () => {
  it('are the shop’s own delivery without couriers, and each courier’s office, locker and address with them', () => {
    expect(deliveryMethodsFor([])).toEqual(['address']);
    expect(deliveryMethodsFor(['econt', 'speedy'])).toEqual(['econt_office', 'econt_locker', 'econt_address', 'speedy_office', 'speedy_locker', 'speedy_address']);
    expect([courierOf('speedy_locker'), deliveryKindOf('speedy_locker')]).toEqual(['speedy', 'locker']);
    expect([courierOf('address'), deliveryKindOf('address')]).toEqual([null, 'address']);
  });

  it('writes hours as a range, and a day given as 00:00–00:00 as closed', () => {
    expect(openingHours('09:00', '19:00')).toBe('09:00–19:00');
    expect(openingHours('00:00', '00:00')).toBeNull();
    expect(openingHours(null, '18:00')).toBeNull();
  });

  it('links each courier’s tracking page, the number escaped', () => {
    expect(trackingUrl('econt', '1055215517881')).toBe('https://www.econt.com/services/track-shipment/1055215517881');
    expect(trackingUrl('speedy', '299 999/990')).toBe('https://www.speedy.bg/bg/track-shipment?shipmentNumber=299%20999%2F990');
  });
});
