import { describe, expect, it } from 'vitest';
import { saleQrText } from './sale-qr.js';

const sale = (paidAt: string, totalMinor: number) => ({
  seller: { legalName: 'Ателие', uic: '204567893', vatNumber: '', address: 'София', napShopNumber: 'RF0001234' },
  orderId: 'NA-ABCDEFGH',
  payment: { method: 'card' as const, paidAt, reference: 'pay_0123abcd', cardLast4: '4242' },
  totalMinor,
});

describe('saleQrText', () => {
  it.each([
    ['a winter afternoon', '2026-11-26T10:05:03Z', 12345, 'RF0001234*NA-ABCDEFGH*pay_0123abcd*2026-11-26*12:05:03*123.45'],
    ['a summer night after midnight in Sofia', '2026-07-09T21:30:00Z', 500, 'RF0001234*NA-ABCDEFGH*pay_0123abcd*2026-07-10*00:30:00*5.00'],
  ])('writes the shop, order, reference, date and time in Sofia and amount for %s', (_case, paidAt, total, text) => {
    expect(saleQrText(sale(paidAt, total))).toBe(text);
  });
});
