import { describe, expect, it } from 'vitest';
import { EPAY_BAD_CHECKSUM_ANSWER, encodeEpayRequest, epayAnswer, epayChecksum, readEpayNotification } from './epay.js';

// Fixed values published with open-source ePay.bg integrations, computed there by their own code:
// boyko/epaybg-node-utils (tests/utils.test.ts) for the request, and yanosh-k/epay
// (tests/TestCase/EpayTest.php) for a notification captured from ePay's demo system.

describe('an ePay.bg payment request', () => {
  it('signs with HMAC-SHA1 in lowercase hex', () => {
    expect(epayChecksum('test-message', 'some-secret')).toBe('33ca6a84fc0b06a9506b79147faad49b53149657');
  });

  it('encodes its lines as published, with the amount in units and the time on Sofia’s clock', () => {
    const fields = encodeEpayRequest(
      { min: '1234', invoice: '00001', amountMinor: 3323, currency: 'BGN', expiresAt: new Date('2020-08-01T20:15:30Z'), description: 'some-description' },
      'some-secret',
    );
    expect(fields).toEqual({
      ENCODED: 'TUlOPTEyMzQKSU5WT0lDRT0wMDAwMQpBTU9VTlQ9MzMuMjMKQ1VSUkVOQ1k9QkdOCkVYUF9USU1FPTAxLjA4LjIwMjAgMjM6MTU6MzAKREVTQ1I9c29tZS1kZXNjcmlwdGlvbgpFTkNPRElORz11dGYtOA==',
      CHECKSUM: '9d09db1b61bfd7947ed390d6464ca7953d0bf3f2',
    });
  });

  it('keeps the description to one line of 100 characters, in UTF-8, and the amount to two decimals', () => {
    const { ENCODED } = encodeEpayRequest(
      { min: '1234', invoice: '42', amountMinor: 2280, currency: 'EUR', expiresAt: new Date('2026-12-01T10:00:00Z'), description: `Поръчка NA-7K2M\nPearl ${'x'.repeat(200)}` },
      's',
    );
    const lines = Buffer.from(ENCODED, 'base64').toString('utf8').split('\n');
    expect(lines).toHaveLength(7);
    expect(lines.slice(2, 5)).toEqual(['AMOUNT=22.80', 'CURRENCY=EUR', 'EXP_TIME=01.12.2026 12:00:00']);
    expect(lines[5]).toMatch(/^DESCR=Поръчка NA-7K2M Pearl x+$/);
    expect([...lines[5]!.slice('DESCR='.length)]).toHaveLength(100);
    const fiveCents = encodeEpayRequest({ min: '1', invoice: '7', amountMinor: 5, currency: 'BGN', expiresAt: new Date(), description: '' }, 's');
    expect(Buffer.from(fiveCents.ENCODED, 'base64').toString('utf8')).toContain('\nAMOUNT=0.05\n');
  });

  it('refuses an invoice that is not digits and an amount that is none', () => {
    const request = { min: '1', invoice: 'NA-7K2M', amountMinor: 100, currency: 'EUR' as const, expiresAt: new Date(), description: '' };
    expect(() => encodeEpayRequest(request, 's')).toThrow(RangeError);
    expect(() => encodeEpayRequest({ ...request, invoice: '1', amountMinor: 0 }, 's')).toThrow(RangeError);
  });
});

describe('an ePay.bg notification', () => {
  const secret = 'DSY6AJN6XOT7VEMV2H77LXVMC2D4B9X4JSDSCNEQ7WPYYJZ5JF1FR5JZS6P23M99';
  const encoded =
    'SU5WT0lDRT0xNjE5MDk5MTc2OlNUQVRVUz1QQUlEOlBBWV9USU1FPTIwMjEwNDIyMTY0ODA4OlNUQU49MDk0MzM4OkJDT0RFPTA5NDMzOApJTlZPSUNFPTE2MTkwOTg5MDg6U1RBVFVTPVBBSUQ6UEFZX1RJTUU9MjAyMTA0MjIxNjQyNTE6U1RBTj0wOTQzMzU6QkNPREU9MDk0MzM1Cg==';
  const checksum = '36111407441559cdb9d1aedafcdb2f4c93e3d017';

  it('is read once its checksum holds: each invoice, its status and the payment’s time and codes', () => {
    expect(readEpayNotification({ encoded, checksum }, secret)).toEqual({
      valid: true,
      notices: [
        { invoice: '1619099176', status: 'PAID', paidAt: new Date('2021-04-22T13:48:08Z'), stan: '094338', bcode: '094338' },
        { invoice: '1619098908', status: 'PAID', paidAt: new Date('2021-04-22T13:42:51Z'), stan: '094335', bcode: '094335' },
      ],
      unreadable: [],
    });
    // As the documentation spells the fields.
    expect(readEpayNotification({ ENCODED: encoded, CHECKSUM: checksum.toUpperCase() }, secret)).toMatchObject({ valid: true });
  });

  it('is answered one line per invoice, as that integration expects', () => {
    expect(epayAnswer([{ invoice: '1619099176', status: 'OK' }, { invoice: '1619098908', status: 'OK' }])).toBe('INVOICE=1619099176:STATUS=OK\nINVOICE=1619098908:STATUS=OK\n');
    expect(epayAnswer([{ invoice: '5', status: 'NO' }, { invoice: '6', status: 'ERR' }])).toBe('INVOICE=5:STATUS=NO\nINVOICE=6:STATUS=ERR\n');
  });

  it('is refused whole when tampered with, signed with another secret, or missing a field', () => {
    const tampered = `${encoded.slice(0, 10)}${encoded[10] === 'A' ? 'B' : 'A'}${encoded.slice(11)}`;
    expect(readEpayNotification({ encoded: tampered, checksum }, secret)).toEqual({ valid: false });
    expect(readEpayNotification({ encoded, checksum }, 'another secret')).toEqual({ valid: false });
    expect(readEpayNotification({ encoded, checksum: checksum.slice(0, 20) }, secret)).toEqual({ valid: false });
    expect(readEpayNotification({ encoded }, secret)).toEqual({ valid: false });
    expect(readEpayNotification({ encoded: ['x'], checksum }, secret)).toEqual({ valid: false });
    expect(EPAY_BAD_CHECKSUM_ANSWER).toBe('ERR=Not valid CHECKSUM\n');
  });

  it('reads refusals and expiries, and sets apart a line that names no invoice', () => {
    const text = 'INVOICE=101:STATUS=DENIED\nINVOICE=102:STATUS=EXPIRED\nINVOICE=103:STATUS=LOST\ngarbage\n';
    const sent = Buffer.from(text).toString('base64');
    expect(readEpayNotification({ encoded: sent, checksum: epayChecksum(sent, 'k') }, 'k')).toEqual({
      valid: true,
      notices: [
        { invoice: '101', status: 'DENIED' },
        { invoice: '102', status: 'EXPIRED' },
      ],
      unreadable: ['INVOICE=103:STATUS=LOST', 'garbage'],
    });
  });
});
