import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Currency } from '#shared/money.js';
import { fromSofiaDateTime, sofiaClockTime, sofiaDate } from '#shared/sofia-time.js';

/*
 * ePay.bg's merchant protocol, as its communication package for merchants ("комуникационен пакет за
 * търговци") documents it. A payment request is KEY=value lines, sent base64-encoded without line
 * breaks as ENCODED and signed by CHECKSUM: the HMAC-SHA1 of ENCODED (the base64 text, not the lines)
 * with the merchant's secret word, in lowercase hex. ePay's notifications of payments arrive signed
 * the same way, one invoice per line, and are answered with one line per invoice: OK or NO stop
 * ePay from sending that notification again, ERR makes it try again later.
 */

/** What a payment request asks ePay for. */
export interface EpayPaymentRequest {
  /** The merchant's customer number (KIN), from the merchant's profile. */
  min: string;
  /** The request's own number: digits only, unique per payment asked for. */
  invoice: string;
  amountMinor: number;
  currency: Currency;
  /** When ePay stops accepting the payment. */
  expiresAt: Date;
  /** Shown to the buyer: at most 100 characters. */
  description: string;
}

type EpayStatus = 'PAID' | 'DENIED' | 'EXPIRED';

/** One invoice's line of a notification. */
interface EpayNotice {
  invoice: string;
  status: EpayStatus;
  /** For a payment: when it was made, ePay's transaction number (STAN) and the bank's authorisation code (BCODE). */
  paidAt?: Date;
  stan?: string;
  bcode?: string;
}

/** How the shop answers one invoice's line: taken (OK), unknown to the shop (NO), or to be sent again later (ERR). */
export type EpayAnswerStatus = 'OK' | 'NO' | 'ERR';

/** The answer to a notification whose checksum is wrong: the whole of it refused, with the description ePay requires. */
export const EPAY_BAD_CHECKSUM_ANSWER = 'ERR=Not valid CHECKSUM\n';

const DESCRIPTION_MAX = 100;

export const epayChecksum = (encoded: string, secret: string): string => createHmac('sha1', secret).update(encoded, 'utf8').digest('hex');

/** An amount in minor units as ePay reads it: 22.80. */
const epayAmount = (minor: number): string => `${Math.trunc(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;

/** A moment as Sofia's clock shows it, DD.MM.YYYY hh:mm:ss. */
function epayTime(moment: Date): string {
  const [year, month, day] = sofiaDate(moment).split('-');
  return `${day}.${month}.${year} ${sofiaClockTime(moment)}`;
}

/** The form fields of a payment request (ENCODED and CHECKSUM), for the buyer's browser to send to ePay. */
export function encodeEpayRequest(request: EpayPaymentRequest, secret: string): { ENCODED: string; CHECKSUM: string } {
  if (!/^\d+$/.test(request.invoice)) throw new RangeError(`An ePay invoice is digits only: ${request.invoice}`);
  if (!Number.isInteger(request.amountMinor) || request.amountMinor < 1) throw new RangeError(`Not an amount ePay takes: ${request.amountMinor}`);
  // One request per line: a line break in the description would add a line of its own.
  const description = [...request.description.replace(/\s+/g, ' ').trim()].slice(0, DESCRIPTION_MAX).join('');
  const lines = [
    `MIN=${request.min}`,
    `INVOICE=${request.invoice}`,
    `AMOUNT=${epayAmount(request.amountMinor)}`,
    `CURRENCY=${request.currency}`,
    `EXP_TIME=${epayTime(request.expiresAt)}`,
    `DESCR=${description}`,
    // Without it, ePay reads the description as Windows-1251.
    'ENCODING=utf-8',
  ];
  const encoded = Buffer.from(lines.join('\n'), 'utf8').toString('base64');
  return { ENCODED: encoded, CHECKSUM: epayChecksum(encoded, secret) };
}

const NOTICE_LINE = /^INVOICE=(\d+):STATUS=(PAID|DENIED|EXPIRED)(?::PAY_TIME=(\d{14}):STAN=(\d+):BCODE=([0-9A-Za-z]+))?(?::.*)?$/;

/** ePay's PAY_TIME (YYYYMMDDhhmmss, Sofia's clock) as a moment. */
function fromEpayTime(text: string): Date {
  const [year, month, day, hour, minute, second] = [text.slice(0, 4), text.slice(4, 6), text.slice(6, 8), text.slice(8, 10), text.slice(10, 12), text.slice(12, 14)];
  return new Date(fromSofiaDateTime(`${year}-${month}-${day}T${hour}:${minute}`).getTime() + Number(second) * 1000);
}

export type EpayNotification =
  | { valid: false }
  /** The invoices' lines read, and any line that names no invoice the shop could answer for. */
  | { valid: true; notices: EpayNotice[]; unreadable: string[] };

/**
 * A notification as ePay posts it (form fields encoded and checksum; its documentation spells them in
 * capitals, its own examples and its servers in lowercase, so both are read), checked against the
 * secret in constant time before anything in it is read.
 */
export function readEpayNotification(fields: Record<string, unknown>, secret: string): EpayNotification {
  const encoded = fields.encoded ?? fields.ENCODED;
  const checksum = fields.checksum ?? fields.CHECKSUM;
  if (typeof encoded !== 'string' || typeof checksum !== 'string') return { valid: false };
  const expected = Buffer.from(epayChecksum(encoded, secret), 'utf8');
  const given = Buffer.from(checksum.toLowerCase(), 'utf8');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { valid: false };
  const notices: EpayNotice[] = [];
  const unreadable: string[] = [];
  for (const line of Buffer.from(encoded, 'base64').toString('utf8').split('\n')) {
    const text = line.trim();
    if (text === '') continue;
    const match = NOTICE_LINE.exec(text);
    if (!match) {
      unreadable.push(text);
      continue;
    }
    const [, invoice, status, payTime, stan, bcode] = match;
    notices.push({ invoice: invoice!, status: status as EpayStatus, ...(payTime ? { paidAt: fromEpayTime(payTime), stan, bcode } : {}) });
  }
  return { valid: true, notices, unreadable };
}

/** The answer to a notification: one line per invoice, in the order ePay sent them. */
export const epayAnswer = (answers: { invoice: string; status: EpayAnswerStatus }[]): string => answers.map(({ invoice, status }) => `INVOICE=${invoice}:STATUS=${status}\n`).join('');
