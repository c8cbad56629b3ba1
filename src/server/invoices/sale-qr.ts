import type { TaxDocumentContent } from '#shared/tax-documents.js';
import { sofiaClockTime, sofiaDate } from '#shared/sofia-time.js';

/**
 * The text of a sale document's QR code (Наредба Н-18, чл. 52о, ал. 1, т. 6, in the form of
 * Приложение № 18а): the e-shop's number in the НАП register, the order, the payment's transaction
 * reference, the date and time of the sale in Sofia, and the amount, joined by "*", in ASCII.
 */
export function saleQrText(document: Pick<TaxDocumentContent, 'seller' | 'orderId' | 'payment' | 'totalMinor'>): string {
  const paidAt = new Date(document.payment.paidAt);
  return [document.seller.napShopNumber ?? '', document.orderId, document.payment.reference, sofiaDate(paidAt), sofiaClockTime(paidAt), (document.totalMinor / 100).toFixed(2)].join('*');
}
