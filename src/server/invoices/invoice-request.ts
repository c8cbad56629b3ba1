import { and, eq } from 'drizzle-orm';
import type { TextLanguage } from '#shared/catalog.js';
import { invoiceRequestRefusal, type InvoiceBuyer, type InvoiceRequestRefusal } from '#shared/invoice-buyer.js';
import { normalizeOrderStatus } from '#shared/order-status.js';
import type { Database } from '#server/db/client.js';
import { orders, payments, refunds, taxDocuments, users } from '#server/db/schema.js';
import { inTransaction } from '#server/db/transaction.js';
import { HttpError } from '#server/http/errors.js';
import { queueMails } from '#server/mail/mail-queue.js';
import { lockCustomerOrderRow } from '#server/orders/status-changes.js';
import { issueLateInvoice, type DocumentSettings } from './issue-documents.js';

/** What became of a buyer's request: the invoice was issued now, or it will be when the order is paid. */
export type InvoiceRequestOutcome = 'issued' | 'on_payment';

const refused = (message: string, messageKey: string) => new HttpError(409, 'conflict', message, { messageKey });

const REFUSALS: Record<InvoiceRequestRefusal, (orderId: string) => string> = {
  'invoice.request.notAvailable': (orderId) => `Order ${orderId} was cancelled or had money returned.`,
  'invoice.request.windowClosed': (orderId) => `The time to ask for the invoice of order ${orderId} has passed.`,
};

/**
 * A buyer asks for the invoice of her order after placing it. An unpaid order keeps the buyer and is
 * invoiced when paid, as if she had asked at checkout; a paid one is invoiced now, within the legal
 * window after the payment, and the invoice is e-mailed to her. An order that already has its invoice,
 * was cancelled, or had money returned is refused: an invoice then would need the shop's judgement.
 * The buyer is also kept in her profile for her next checkout.
 */
export async function requestInvoice(db: Database, userId: string, orderId: string, buyer: InvoiceBuyer, settings: DocumentSettings): Promise<InvoiceRequestOutcome> {
  return inTransaction(db, async (tx) => {
    const order = await lockCustomerOrderRow(tx, userId, orderId);
    if (!order) throw new HttpError(404, 'not_found', `Order ${orderId} not found`);
    const [invoice] = await tx
      .select({ id: taxDocuments.id })
      .from(taxDocuments)
      .where(and(eq(taxDocuments.orderId, orderId), eq(taxDocuments.kind, 'invoice')));
    if (invoice) throw refused(`Order ${orderId} already has its invoice.`, 'invoice.request.exists');
    const [refund] = await tx.select({ id: refunds.id }).from(refunds).where(eq(refunds.orderId, orderId)).limit(1);
    const [payment] = await tx.select({ processedAt: payments.processedAt }).from(payments).where(eq(payments.orderId, orderId));
    const now = new Date();
    const refusal = invoiceRequestRefusal({ cancelled: normalizeOrderStatus(order.status) === 'cancelled', refunded: refund !== undefined, paidAt: payment?.processedAt.toISOString() ?? null }, now.getTime());
    if (refusal) throw refused(REFUSALS[refusal](orderId), refusal);

    const [updated] = await tx.update(orders).set({ invoiceBuyer: buyer }).where(eq(orders.id, orderId)).returning();
    await tx.update(users).set({ invoiceBuyer: buyer }).where(eq(users.id, userId));
    if (!payment) return 'on_payment';
    await issueLateInvoice(tx, updated!, settings, now);
    await queueMails(tx, [{ orderId, kind: 'invoice_issued', recipient: order.customerEmail, language: order.language as TextLanguage }]);
    return 'issued';
  });
}
