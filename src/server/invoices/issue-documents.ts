import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { eurToBgnMinor, type Currency } from '#shared/money.js';
import type { InvoiceBuyer } from '#shared/invoice-buyer.js';
import type { PaymentRecordMethod } from '#shared/orders.js';
import { documentNumberText, MAX_DOCUMENT_NUMBER, type DocumentLine, type DocumentSeller, type TaxDocumentContent, type TaxDocumentKind } from '#shared/tax-documents.js';
import type { Config } from '#server/config.js';
import type { Executor } from '#server/db/client.js';
import { documentCounters, orderItems, type orders, payments, taxDocuments } from '#server/db/schema.js';
import { documentAmounts } from './document-lines.js';

/** What the shop's settings say about its documents. */
export interface DocumentSettings {
  seller: DocumentSeller;
  /** Online payments get the shop's own sale document (Н-18's alternative regime). */
  alternativeRegime: boolean;
  invoiceStartNumber: number;
  /** Euro documents state their total in leva too, as every price of the shop does while this lasts. */
  showBgnEquivalent: boolean;
}

/** A euro amount in leva at the fixed rate, for a document that shows both; a credit note's negative amounts too. */
const totalBgn = (settings: { showBgnEquivalent: boolean }, currency: string, totalMinor: number) =>
  settings.showBgnEquivalent && currency === 'EUR' ? { totalBgnMinor: Math.sign(totalMinor) * eurToBgnMinor(Math.abs(totalMinor)) } : {};

export function documentSettingsOf(config: Config): DocumentSettings {
  const { seller, taxDocuments: settings } = config;
  return {
    seller: { legalName: seller.legalName, uic: seller.uic, vatNumber: seller.vatNumber, address: seller.address, napShopNumber: settings.napShopNumber ?? null },
    alternativeRegime: settings.alternativeRegime,
    invoiceStartNumber: settings.invoiceStartNumber,
    showBgnEquivalent: config.showBgnEquivalent,
  };
}

/** Invoices and credit notes share one sequence (ЗДДС чл. 114, ал. 1, т. 2); sale documents have their own. */
type Series = 'invoice' | 'sale';
const SERIES_OF: Record<TaxDocumentKind, Series> = { invoice: 'invoice', credit_note: 'invoice', sale_document: 'sale' };

/**
 * Takes the next number of a series in the caller's transaction. The counter's row stays locked
 * until that transaction ends, so documents are numbered in the order they are committed, and a
 * transaction that rolls back gives its number back: no gap and no number twice, across any number
 * of server processes. The first number is `start`; a start set higher later moves the series on
 * to it (a shop that continues the numbers of its old one).
 */
async function takeNumber(tx: Executor, series: Series, start: number): Promise<number> {
  const [row] = await tx
    .insert(documentCounters)
    .values({ series, nextNumber: start + 1 })
    .onConflictDoUpdate({ target: documentCounters.series, set: { nextNumber: sql`greatest(${documentCounters.nextNumber}, ${start}) + 1` } })
    .returning({ nextNumber: documentCounters.nextNumber });
  const number = row!.nextNumber - 1;
  if (number > MAX_DOCUMENT_NUMBER) throw new Error(`The ${series} series has used all ten-digit numbers`);
  return number;
}

type OrderRow = typeof orders.$inferSelect;

/** The order's payment and lines, which its documents are made from. */
async function paymentAndLines(tx: Executor, orderId: string) {
  const [payment] = await tx.select().from(payments).where(eq(payments.orderId, orderId));
  if (!payment) throw new Error(`Order ${orderId} has no payment to document`);
  const lines = await tx
    .select({ nameEn: orderItems.nameEn, nameBg: orderItems.nameBg, priceMinor: orderItems.priceMinor, quantity: orderItems.quantity, discountMinor: orderItems.discountMinor, giftCard: orderItems.giftCard })
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId))
    .orderBy(asc(orderItems.position));
  return { payment, lines };
}

/**
 * Issues a document of the order's payment. Its taxable event is the payment; it is issued then too,
 * unless the buyer asked for the invoice later (`issuedAt`).
 */
async function issue(tx: Executor, kind: TaxDocumentKind, settings: DocumentSettings, order: OrderRow, { payment, lines }: Awaited<ReturnType<typeof paymentAndLines>>, issuedAt = payment.processedAt) {
  const series = SERIES_OF[kind];
  const number = await takeNumber(tx, series, series === 'invoice' ? settings.invoiceStartNumber : 1);
  const amounts = documentAmounts({ ...order, lines }, settings.seller.vatNumber !== '');
  const paidAt = payment.processedAt.toISOString();
  const content: TaxDocumentContent = {
    kind,
    number: documentNumberText(number),
    issuedAt: issuedAt.toISOString(),
    taxableEventAt: paidAt,
    seller: settings.seller,
    buyer: kind === 'sale_document' ? null : order.invoiceBuyer,
    orderId: order.id,
    orderedAt: order.orderedAt.toISOString(),
    currency: order.currency as Currency,
    ...amounts,
    ...totalBgn(settings, order.currency, amounts.totalMinor),
    ...(order.discountCode && order.discountMinor > 0 ? { discount: { code: order.discountCode, amountMinor: order.discountMinor } } : {}),
    ...(order.giftCardEnding && order.giftCardMinor > 0 ? { giftCard: { ending: order.giftCardEnding, amountMinor: order.giftCardMinor } } : {}),
    payment: { method: payment.method as PaymentRecordMethod, paidAt, reference: payment.paymentId, cardLast4: payment.cardLast4 },
    corrects: null,
  };
  await tx.insert(taxDocuments).values({ kind, series, number, orderId: order.id, issuedAt, currency: order.currency, totalMinor: amounts.totalMinor, content });
}

/**
 * Payments the alternative regime documents otherwise: cash on delivery by the courier's postal money
 * transfer, a bank transfer by the bank's own record (Н-18, чл. 3 exempts it).
 */
const PAID_WITHOUT_SALE_DOCUMENT: readonly string[] = ['cash_on_delivery', 'bank_transfer'];

/**
 * Issues, in the transaction that records an order's payment, the documents the payment calls for:
 * the invoice the buyer asked for, and under the alternative regime the sale document of an online
 * payment (cash on delivery is documented by the courier's postal money transfer instead). The order
 * is the row the caller holds locked; the amounts and buyer it is read for do not change with a payment.
 */
export async function issuePaymentDocuments(tx: Executor, order: OrderRow, settings: DocumentSettings): Promise<void> {
  const invoice = order.invoiceBuyer !== null;
  const saleDocument = settings.alternativeRegime && !PAID_WITHOUT_SALE_DOCUMENT.includes(order.paymentMethod);
  if (!invoice && !saleDocument) return;
  const paid = await paymentAndLines(tx, order.id);
  if (invoice) await issue(tx, 'invoice', settings, order, paid);
  if (saleDocument) await issue(tx, 'sale_document', settings, order, paid);
}

/**
 * Issues, now, the invoice of an order paid earlier, made out to the buyer the order now names (the
 * caller has just set it, with the order's row locked). Its taxable event stays the payment.
 */
export async function issueLateInvoice(tx: Executor, order: OrderRow, settings: DocumentSettings, issuedAt: Date): Promise<void> {
  await issue(tx, 'invoice', settings, order, await paymentAndLines(tx, order.id), issuedAt);
}

const REFUND_LINE = (orderId: string) => ({ en: `Refund for order ${orderId}`, bg: `Възстановена сума по поръчка ${orderId}` });

type InvoiceRow = { id: string; currency: string; content: TaxDocumentContent };

/** The order's invoice as it stands: the last one issued (a corrected invoice replaces the one before). */
export async function currentInvoice(tx: Executor, orderId: string): Promise<InvoiceRow | undefined> {
  const [invoice] = await tx
    .select({ id: taxDocuments.id, currency: taxDocuments.currency, content: taxDocuments.content })
    .from(taxDocuments)
    .where(and(eq(taxDocuments.orderId, orderId), eq(taxDocuments.kind, 'invoice')))
    .orderBy(desc(taxDocuments.number))
    .limit(1);
  return invoice;
}

/**
 * Issues a credit note of an invoice: the next number of the invoices' sequence, the invoice's seller
 * and buyer, and negative amounts. Of the whole invoice it negates the invoice's lines; of a part, it
 * is one line whose VAT is the invoice's in proportion (half-up).
 */
async function issueCreditNoteOf(tx: Executor, invoice: InvoiceRow, amountMinor: number, at: Date, refundId: string | null): Promise<void> {
  const corrected = invoice.content;
  const whole = amountMinor === corrected.totalMinor;
  const vatMinor = whole ? corrected.vatMinor : Math.floor((2 * amountMinor * corrected.vatMinor + corrected.totalMinor) / (2 * corrected.totalMinor));
  const lines: DocumentLine[] = whole
    ? corrected.lines.map((line) => ({ ...line, unitNetMinor: -line.unitNetMinor, netMinor: -line.netMinor, vatMinor: -line.vatMinor, valueMinor: -line.valueMinor }))
    : [
        {
          description: REFUND_LINE(corrected.orderId),
          quantity: 1,
          unitNetMinor: -(amountMinor - vatMinor),
          vatRateBasisPoints: vatMinor === 0 ? 0 : Math.max(...corrected.lines.map((line) => line.vatRateBasisPoints)),
          netMinor: -(amountMinor - vatMinor),
          vatMinor: -vatMinor,
          valueMinor: -amountMinor,
        },
      ];
  const number = await takeNumber(tx, 'invoice', 1);
  // A gift card paid the invoice, so it is no part of what is credited; a discount code is, but only
  // on the invoice's own lines, which a partial refund's single line is not.
  const { giftCard: _paidWithGiftCard, discount, ...invoiceParts } = corrected;
  const content: TaxDocumentContent = {
    ...invoiceParts,
    ...(whole && discount ? { discount } : {}),
    kind: 'credit_note',
    number: documentNumberText(number),
    issuedAt: at.toISOString(),
    taxableEventAt: at.toISOString(),
    lines,
    netMinor: -(amountMinor - vatMinor),
    vatMinor: -vatMinor,
    totalMinor: -amountMinor,
    ...totalBgn({ showBgnEquivalent: corrected.totalBgnMinor !== undefined }, corrected.currency, -amountMinor),
    corrects: { number: corrected.number, issuedAt: corrected.issuedAt },
  };
  await tx.insert(taxDocuments).values({
    kind: 'credit_note',
    series: 'invoice',
    number,
    orderId: corrected.orderId,
    correctsId: invoice.id,
    refundId,
    issuedAt: at,
    currency: invoice.currency,
    totalMinor: -amountMinor,
    content,
  });
}

/**
 * Issues, in the refund's transaction, the credit note that corrects the order's invoice by the amount
 * refunded. An order without an invoice needs none.
 */
export async function issueCreditNote(tx: Executor, orderId: string, refund: { id: string; amountMinor: number; createdAt: Date }): Promise<void> {
  const invoice = await currentInvoice(tx, orderId);
  if (invoice) await issueCreditNoteOf(tx, invoice, refund.amountMinor, refund.createdAt, refund.id);
}

/**
 * Corrects the buyer of an invoice, as the law has it (an issued invoice is never changed): a credit
 * note cancels the whole invoice, and a new invoice with the next number, made out to the corrected
 * buyer, is issued in its place, for the same payment. The caller holds the order's row and has
 * checked that nothing was refunded. Returns the new invoice's id.
 */
export async function replaceInvoice(tx: Executor, invoice: InvoiceRow, buyer: InvoiceBuyer, at: Date): Promise<string> {
  const replaced = invoice.content;
  await issueCreditNoteOf(tx, invoice, replaced.totalMinor, at, null);
  const number = await takeNumber(tx, 'invoice', 1);
  const content: TaxDocumentContent = {
    ...replaced,
    number: documentNumberText(number),
    issuedAt: at.toISOString(),
    buyer,
    corrects: { number: replaced.number, issuedAt: replaced.issuedAt },
  };
  const [row] = await tx
    .insert(taxDocuments)
    .values({ kind: 'invoice', series: 'invoice', number, orderId: replaced.orderId, correctsId: invoice.id, issuedAt: at, currency: invoice.currency, totalMinor: replaced.totalMinor, content })
    .returning({ id: taxDocuments.id });
  return row!.id;
}
