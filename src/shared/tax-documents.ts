import type { InvoiceBuyer } from './invoice-buyer.js';
import type { Currency } from './money.js';
import type { PaymentRecordMethod } from './payment-methods.js';

/**
 * The documents a sale leaves: an invoice (фактура) when the buyer asks for one, a credit note
 * (кредитно известие) for a refund of an invoiced order, and the sale document (документ за
 * регистриране на продажба) that Наредба Н-18 asks for each online payment under its alternative
 * regime.
 */
export type TaxDocumentKind = 'invoice' | 'credit_note' | 'sale_document';

/** Tax document numbers are ten digits, zero-padded (ЗДДС чл. 114, ал. 1, т. 2; Н-18 чл. 52о). */
const DOCUMENT_NUMBER_DIGITS = 10;
export const MAX_DOCUMENT_NUMBER = 9_999_999_999;

export const documentNumberText = (number: number) => String(number).padStart(DOCUMENT_NUMBER_DIGITS, '0');

/** The seller as the document names it: a snapshot of the settings when it was issued. */
export interface DocumentSeller {
  legalName: string;
  uic: string;
  /** Empty for a seller not registered for VAT, whose documents show no VAT. */
  vatNumber: string;
  address: string;
  napShopNumber: string | null;
}

/** One line of a document, in the document's currency; the amounts add up to the document's totals. */
export interface DocumentLine {
  /** The product's name in each language, or what the line is for (shipping, the cash-on-delivery fee). */
  description: { en: string; bg: string };
  quantity: number;
  /** The price of one piece without VAT, in minor units, to two more decimals (net ÷ quantity). */
  unitNetMinor: number;
  vatRateBasisPoints: number;
  netMinor: number;
  vatMinor: number;
  /** Net and VAT together: what the buyer paid for the line. */
  valueMinor: number;
}

interface DocumentPayment {
  method: PaymentRecordMethod;
  paidAt: string;
  /** The payment's transaction reference. */
  reference: string;
  cardLast4: string | null;
}

/** Everything an issued document says, frozen when it was issued. */
export interface TaxDocumentContent {
  kind: TaxDocumentKind;
  number: string;
  issuedAt: string;
  /** The date of the taxable event: the payment (or, for a credit note, the refund). */
  taxableEventAt: string;
  seller: DocumentSeller;
  /** Who an invoice or credit note is made out to; null on a sale document. */
  buyer: InvoiceBuyer | null;
  orderId: string;
  orderedAt: string;
  currency: Currency;
  lines: DocumentLine[];
  netMinor: number;
  vatMinor: number;
  totalMinor: number;
  /**
   * A euro document's total in leva at the fixed rate, while the shop shows both currencies
   * (SHOW_BGN_EQUIVALENT); absent otherwise.
   */
  totalBgnMinor?: number;
  /** A discount code's reduction, already taken off the lines' amounts; absent without one. */
  discount?: { code: string; amountMinor: number };
  /**
   * What a gift card paid of the total; absent without one. A means of payment, not a discount: the
   * lines, the VAT and the total are the sale's in full, and the payment below is of the rest.
   */
  giftCard?: { ending: string; amountMinor: number };
  payment: DocumentPayment;
  /** The invoice a credit note corrects, or that a corrected invoice is issued in place of. */
  corrects: { number: string; issuedAt: string } | null;
}

/** A document as the profile and the admin list it. */
export interface TaxDocumentSummary {
  id: string;
  kind: TaxDocumentKind;
  number: string;
  issuedAt: string;
  currency: Currency;
  totalMinor: number;
}
