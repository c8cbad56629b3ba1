import { and, asc, eq, gte, inArray, lt, ne } from 'drizzle-orm';
import { bgnToEurMinor, eurToBgnMinor, type Currency } from '#shared/money.js';
import { sofiaDate, sofiaMidnight } from '#shared/sofia-time.js';
import type { Executor } from '#server/db/client.js';
import { orderItems, orders, payments, refunds, taxDocuments } from '#server/db/schema.js';
import { documentAmounts } from './document-lines.js';
import type { DocumentSettings } from './issue-documents.js';
import { taxContainedIn } from '#shared/pricing.js';

/**
 * The month's standardised audit file for the revenue agency (Наредба Н-18, Приложение № 38), as its
 * schema (dec_audit.xsd) has it: every order paid in the month with its lines, and every order with
 * money returned in the month. Amounts are in leva up to 2025 and in euro from 2026, when Annex 38's
 * amounts became euro; an order in the other currency is converted at the fixed rate, line by line,
 * and the file's sums are the sums of what it lists, so they reconcile to the cent.
 */

/** Why a month's file cannot be made, with the message key that says so in the admin. */
export class AuditFileError extends Error {
  constructor(
    message: string,
    readonly messageKey: 'admin.monthlyFiles.errors.invalidMonth' | 'admin.monthlyFiles.errors.noOrders' | 'admin.monthlyFiles.errors.noNapNumber',
  ) {
    super(message);
  }
}

/**
 * "2026-11": a calendar month the monthly files can be made for, with the moments it begins and ends
 * in Sofia.
 */
export function parseTaxMonth(text: string): { year: number; month: number; start: Date; end: Date } {
  const match = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(text.trim());
  if (!match || Number(match[1]) < 2020) throw new AuditFileError(`"${text}" is no month: write it as 2026-11 (the audit file begins in 2020)`, 'admin.monthlyFiles.errors.invalidMonth');
  const year = Number(match[1]);
  const month = Number(match[2]);
  const start = sofiaMidnight(`${year}-${pad(month)}-01`);
  const end = sofiaMidnight(month === 12 ? `${year + 1}-01-01` : `${year}-${pad(month + 1)}-01`);
  return { year, month, start, end };
}

const pad = (number: number) => String(number).padStart(2, '0');

/** The file's currency: leva until the euro's introduction on 1 January 2026, euro from then on. */
const fileCurrency = (year: number): Currency => (year >= 2026 ? 'EUR' : 'BGN');

function convert(minor: number, from: Currency, to: Currency): number {
  if (from === to) return minor;
  return to === 'EUR' ? bgnToEurMinor(minor) : eurToBgnMinor(minor);
}

/**
 * A discount code's reduction without VAT: as it is, where VAT was added after it or the seller
 * charges none; less the VAT it contains, where the prices included VAT.
 */
function discountWithoutVat(order: { discountMinor: number; taxIncluded: boolean; taxRateBasisPoints: number }, vatRegistered: boolean): number {
  if (!vatRegistered || !order.taxIncluded) return order.discountMinor;
  return order.discountMinor - taxContainedIn(order.discountMinor, order.taxRateBasisPoints);
}

/** An amount in minor units as the files write it: 12.34, with a point. */
export const decimal = (minor: number) => (minor / 100).toFixed(2);

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * НАП's payment codes (paym): 1 a payment exempt under чл. 3 (a transfer to the shop's payment
 * account), 3 cash on delivery with a postal money transfer, 4 a payment service provider.
 */
const PAYMENT_CODES: Record<string, number> = { bank_transfer: 1, cash_on_delivery: 3 };
const paymentCode = (method: string) => PAYMENT_CODES[method] ?? 4;

/** НАП's codes for how money went back (r_paym): 1 to a payment account (bank transfer), 2 to the card. */
const refundCode = (method: string) => (method === 'bank_transfer' ? 1 : 2);

export interface AuditFileSettings extends DocumentSettings {
  /** The shop's address, whose host is its domain name in the file. */
  publicUrl: string;
}

/** The XML of the month's audit file, and how many orders and returns it lists. */
export async function auditFileXml(db: Executor, monthText: string, settings: AuditFileSettings, createdAt = new Date()): Promise<{ xml: string; orders: number; returns: number }> {
  const { year, month, start, end } = parseTaxMonth(monthText);
  const napShopNumber = settings.seller.napShopNumber;
  if (!napShopNumber) throw new AuditFileError('SHOP_NAP_NUMBER is not set: the audit file names the shop by its number in the НАП register', 'admin.monthlyFiles.errors.noNapNumber');
  const currency = fileCurrency(year);

  const paid = await db
    .select({ order: orders, payment: payments })
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    // An order a gift card paid whole brought no money in: the card's money came in when it was sold.
    .where(and(gte(payments.processedAt, start), lt(payments.processedAt, end), ne(payments.method, 'gift_card')))
    .orderBy(asc(payments.processedAt), asc(orders.id));
  if (paid.length === 0) throw new AuditFileError(`No order was paid in ${monthText}; the audit file lists at least one`, 'admin.monthlyFiles.errors.noOrders');
  const orderIds = paid.map((row) => row.order.id);
  const items = await db.select().from(orderItems).where(inArray(orderItems.orderId, orderIds)).orderBy(asc(orderItems.orderId), asc(orderItems.position));
  const documents = await db
    .select({ orderId: taxDocuments.orderId, kind: taxDocuments.kind, number: taxDocuments.number, issuedAt: taxDocuments.issuedAt })
    .from(taxDocuments)
    .where(and(inArray(taxDocuments.orderId, orderIds), inArray(taxDocuments.kind, ['sale_document', 'invoice'])))
    // An order's first invoice documents its sale; one issued in its place later does not change that.
    .orderBy(asc(taxDocuments.number));
  const returned = await db
    .select({ orderId: refunds.orderId, amountMinor: refunds.amountMinor, method: refunds.method, createdAt: refunds.createdAt, currency: orders.currency })
    .from(refunds)
    .innerJoin(orders, eq(orders.id, refunds.orderId))
    .where(and(gte(refunds.createdAt, start), lt(refunds.createdAt, end)))
    .orderBy(asc(refunds.createdAt));

  const orderElements = paid.map(({ order, payment }) => {
    const from = order.currency as Currency;
    const lines = items.filter((item) => item.orderId === order.id);
    const amounts = documentAmounts({ ...order, lines }, settings.seller.vatNumber !== '');
    const articles = amounts.lines.map((line) => {
      const value = convert(line.valueMinor, from, currency);
      const vat = convert(line.vatMinor, from, currency);
      return { name: line.description.bg, quantity: line.quantity, net: value - vat, vat, value, rate: Math.round(line.vatRateBasisPoints / 100) };
    });
    // The sale document's number, or else the invoice's; an order paid in cash on delivery or by bank
    // transfer without an invoice has neither (the courier's money transfer, or the bank, documents
    // it), and the schema still asks for the element, which the annex leaves empty: 0.
    const ownDocuments = documents.filter((document) => document.orderId === order.id);
    const document = ownDocuments.find((entry) => entry.kind === 'sale_document') ?? ownDocuments.find((entry) => entry.kind === 'invoice');
    const sum = (pick: (article: (typeof articles)[number]) => number) => articles.reduce((total, article) => total + pick(article), 0);
    // The articles are at what was paid for them, the discount taken off; the order's total before it
    // adds the discount back, without its VAT, so that ord_total1 − ord_disc + ord_vat = ord_total2.
    const discount = convert(discountWithoutVat(order, settings.seller.vatNumber !== ''), from, currency);
    return [
      '<orderenum>',
      `<ord_n>${escapeXml(order.id)}</ord_n>`,
      `<ord_d>${sofiaDate(order.orderedAt)}</ord_d>`,
      `<doc_n>${document ? String(document.number).padStart(10, '0') : '0'}</doc_n>`,
      `<doc_date>${sofiaDate(document?.issuedAt ?? payment.processedAt)}</doc_date>`,
      '<art>',
      ...articles.map((article) =>
        [
          '<artenum>',
          `<art_name>${escapeXml(article.name.slice(0, 200))}</art_name>`,
          `<art_quant>${article.quantity.toFixed(2)}</art_quant>`,
          `<art_price>${decimal(Math.round(article.net / article.quantity))}</art_price>`,
          `<art_vat_rate>${article.rate}</art_vat_rate>`,
          `<art_vat>${decimal(article.vat)}</art_vat>`,
          `<art_sum>${decimal(article.value)}</art_sum>`,
          '</artenum>',
        ].join(''),
      ),
      '</art>',
      `<ord_total1>${decimal(sum((article) => article.net) + discount)}</ord_total1>`,
      `<ord_disc>${decimal(discount)}</ord_disc>`,
      `<ord_vat>${decimal(sum((article) => article.vat))}</ord_vat>`,
      `<ord_total2>${decimal(sum((article) => article.value))}</ord_total2>`,
      `<paym>${paymentCode(payment.method)}</paym>`,
      `<trans_n>${escapeXml(payment.paymentId)}</trans_n>`,
      '</orderenum>',
    ].join('\n');
  });

  // One entry per order with money returned in the month: what went back, when it last did, and how.
  const byOrder = new Map<string, { amountMinor: number; date: Date; method: string }>();
  for (const refund of returned) {
    const amount = convert(refund.amountMinor, refund.currency as Currency, currency);
    const earlier = byOrder.get(refund.orderId);
    byOrder.set(refund.orderId, { amountMinor: (earlier?.amountMinor ?? 0) + amount, date: refund.createdAt, method: refund.method });
  }
  const returnElements = [...byOrder].map(([orderId, entry]) =>
    [
      '<rorderenum>',
      `<r_ord_n>${escapeXml(orderId)}</r_ord_n>`,
      `<r_amount>${decimal(entry.amountMinor)}</r_amount>`,
      `<r_date>${sofiaDate(entry.date)}</r_date>`,
      `<r_paym>${refundCode(entry.method)}</r_paym>`,
      '</rorderenum>',
    ].join(''),
  );
  const returnedTotal = [...byOrder.values()].reduce((total, entry) => total + entry.amountMinor, 0);

  const xml = [
    '<?xml version="1.0" encoding="WINDOWS-1251"?>',
    '<audit>',
    `<eik>${escapeXml(settings.seller.uic)}</eik>`,
    `<e_shop_n>${escapeXml(napShopNumber)}</e_shop_n>`,
    `<domain_name>${escapeXml(new URL(settings.publicUrl).host)}</domain_name>`,
    // 1: the shop's own domain, not an online platform's.
    '<e_shop_type>1</e_shop_type>',
    `<creation_date>${sofiaDate(createdAt)}</creation_date>`,
    `<mon>${pad(month)}</mon>`,
    `<god>${year}</god>`,
    '<order>',
    ...orderElements,
    '</order>',
    // The annex asks for the count and total of returns even when they are none, which the schema allows.
    `<r_ord>${byOrder.size}</r_ord>`,
    ...(returnElements.length > 0 ? ['<rorder>', ...returnElements, '</rorder>'] : []),
    `<r_total>${decimal(returnedTotal)}</r_total>`,
    '</audit>',
    '',
  ].join('\n');
  return { xml, orders: paid.length, returns: byOrder.size };
}

/**
 * Text in windows-1251, the encoding of НАП's own files: Cyrillic and Latin letters are one byte each;
 * a character the encoding has no byte for becomes "?".
 */
export function windows1251(text: string): Buffer {
  return Buffer.from(Array.from(text, (character) => (character.charCodeAt(0) < 0x80 ? character.charCodeAt(0) : (WINDOWS_1251_BYTES.get(character) ?? 0x3f))));
}

/** The upper half of windows-1251, by the character each byte stands for. */
const WINDOWS_1251_BYTES = (() => {
  const decoder = new TextDecoder('windows-1251');
  const bytes = new Map<string, number>();
  for (let byte = 0x80; byte <= 0xff; byte += 1) bytes.set(decoder.decode(Uint8Array.of(byte)), byte);
  return bytes;
})();
