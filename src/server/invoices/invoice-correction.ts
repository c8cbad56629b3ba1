import { eq } from 'drizzle-orm';
import type { TextLanguage } from '#shared/catalog.js';
import type { InvoiceBuyer } from '#shared/invoice-buyer.js';
import type { Database } from '#server/db/client.js';
import { orders, refunds } from '#server/db/schema.js';
import { inTransaction } from '#server/db/transaction.js';
import { HttpError } from '#server/http/errors.js';
import { queueMails } from '#server/mail/mail-queue.js';
import { currentInvoice, replaceInvoice } from './issue-documents.js';

const refused = (message: string, messageKey: string) => new HttpError(409, 'conflict', message, { messageKey });

/** The same buyer, whatever order its fields came in. */
const sameBuyer = (a: InvoiceBuyer | null, b: InvoiceBuyer) => a !== null && JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());

/**
 * The admin corrects the buyer of an order's invoice (a company's name typed wrong, another ЕИК): a
 * credit note cancels the invoice and a new one is issued in its place, both e-mailed to the buyer.
 * An order with money returned is refused: its credit notes already correct the invoice, and a new
 * one would have to say how much of it still stands, which needs the shop's judgement.
 */
export async function correctInvoiceBuyer(db: Database, orderId: string, buyer: InvoiceBuyer): Promise<void> {
  await inTransaction(db, async (tx) => {
    const [order] = await tx.select({ customerEmail: orders.customerEmail, language: orders.language }).from(orders).where(eq(orders.id, orderId)).for('update');
    if (!order) throw new HttpError(404, 'not_found', `Order ${orderId} not found`);
    const invoice = await currentInvoice(tx, orderId);
    if (!invoice) throw refused(`Order ${orderId} has no invoice to correct.`, 'invoice.correction.noInvoice');
    const [refund] = await tx.select({ id: refunds.id }).from(refunds).where(eq(refunds.orderId, orderId)).limit(1);
    if (refund) throw refused(`Money was returned for order ${orderId}; its invoice is corrected by credit notes.`, 'invoice.correction.refunded');
    if (sameBuyer(invoice.content.buyer, buyer)) throw refused(`The invoice of order ${orderId} is already made out to this buyer.`, 'invoice.correction.unchanged');
    const replacementId = await replaceInvoice(tx, invoice, buyer, new Date());
    await tx.update(orders).set({ invoiceBuyer: buyer }).where(eq(orders.id, orderId));
    await queueMails(tx, [{ orderId, kind: 'invoice_corrected', subjectId: replacementId, recipient: order.customerEmail, language: order.language as TextLanguage }]);
  });
}
