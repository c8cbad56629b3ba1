import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaxDocumentSummary } from '#shared/tax-documents.js';
import { addAdmin } from '#server/auth/roles.js';
import { payments, products, taxDocuments, users } from '#server/db/schema.js';
import { startSmtpInbox, type ReceivedMail, type SmtpInbox } from '../support/smtp-inbox.js';
import { fillCart, placeOrder, signInThroughInbox } from './shopper.js';
import { createTestApp, databaseTargets, type TestApp } from './test-app.js';
import { testProduct } from './test-products.js';
import { company, pdfText, SELLER } from './invoice-fixtures.js';


for (const target of databaseTargets) {
  describe(`documents by e-mail, and invoices asked for after checkout [${target}]`, () => {
    let inbox: SmtpInbox;
    let testApp: TestApp;
    let product: string;
    let admin: string;
    beforeAll(async () => {
      inbox = await startSmtpInbox();
      testApp = await createTestApp(target, { ...SELLER, SMTP_URL: inbox.url });
      [{ id: product }] = (await testApp.database.db.insert(products).values(testProduct({ name: 'Pearl Set', priceMinor: 2399 })).returning({ id: products.id })) as [{ id: string }];
      await addAdmin(testApp.database.db, 'owner@shop.test');
      admin = await signInThroughInbox(testApp, inbox, 'owner@shop.test');
    });
    afterAll(async () => {
      await testApp?.close();
      await inbox?.close();
    });

    const pay = (cookie: string, orderId: string) => testApp.app.inject({ method: 'POST', url: `/api/orders/${orderId}/payment`, headers: { cookie }, payload: { method: 'card', cardLast4: '4242' } });
    const askForInvoice = (cookie: string, orderId: string, invoiceBuyer: unknown) => testApp.app.inject({ method: 'POST', url: `/api/orders/${orderId}/invoice`, headers: { cookie }, payload: { invoiceBuyer } });
    const documentsOf = (orderId: string) => testApp.database.db.select().from(taxDocuments).where(eq(taxDocuments.orderId, orderId)).orderBy(asc(taxDocuments.number));
    const pdfsOf = (mail: ReceivedMail) => mail.attachments.filter((file) => file.contentType === 'application/pdf');

    it('attaches the invoice and the sale document to the receipt: the Bulgarian originals, and for a buyer writing in English their English copies', async () => {
      for (const language of ['en', 'bg'] as const) {
        const email = `receipt-${language}@example.com`;
        const cookie = await signInThroughInbox(testApp, inbox, email);
        await fillCart(testApp, cookie, [product]);
        const order = await placeOrder(testApp, cookie, { paymentMethod: 'card', invoiceBuyer: company, language });
        expect((await pay(cookie, order.orderId)).statusCode).toBe(200);
        const [invoice, sale] = [...(await documentsOf(order.orderId))].sort((a, b) => a.kind.localeCompare(b.kind));
        const receipt = await inbox.waitForMail(email, 15_000, (mail) => pdfsOf(mail).length > 0);
        const names = pdfsOf(receipt).map((file) => file.filename);
        const { number } = invoice!.content;
        const saleNumber = sale!.content.number;
        expect(names).toEqual(
          language === 'en'
            ? [`invoice-${number}.pdf`, `invoice-${number}-en.pdf`, `sale-document-${saleNumber}.pdf`, `sale-document-${saleNumber}-en.pdf`]
            : [`invoice-${number}.pdf`, `sale-document-${saleNumber}.pdf`],
        );
        expect(receipt.text).toContain(language === 'en' ? `invoice No. ${number}, sale document No. ${saleNumber}` : `фактура № ${number}, документ за регистриране на продажба № ${saleNumber}`);
        const original = await pdfText(pdfsOf(receipt)[0]!.content);
        for (const text of ['ФАКТУРА', number, 'ЕИК: 123456786', 'Салон Красота ООД']) expect(original, text).toContain(text);

        // The original sent is the one the shop keeps, and the one the buyer downloads from then on.
        const kept = async () => (await testApp.database.db.select({ originalPdf: taxDocuments.originalPdf }).from(taxDocuments).where(eq(taxDocuments.id, invoice!.id)))[0]!.originalPdf;
        expect(Buffer.compare((await kept())!, pdfsOf(receipt)[0]!.content)).toBe(0);
        const asKept = Buffer.from('%PDF-1.3 as kept');
        await testApp.database.db.update(taxDocuments).set({ originalPdf: asKept }).where(eq(taxDocuments.id, invoice!.id));
        const downloaded = await testApp.app.inject({ method: 'GET', url: `/api/orders/${order.orderId}/documents/${invoice!.id}/pdf`, headers: { cookie } });
        expect(downloaded.rawPayload.toString()).toBe('%PDF-1.3 as kept');
      }
    });

    it('issues at once the invoice of a paid order asked for afterwards, dated now for the payment’s taxable event, e-mails it, and issues no second one', async () => {
      const email = 'later@example.com';
      const cookie = await signInThroughInbox(testApp, inbox, email);
      await fillCart(testApp, cookie, [product]);
      const order = await placeOrder(testApp, cookie, { paymentMethod: 'card', language: 'bg' });
      expect((await pay(cookie, order.orderId)).statusCode).toBe(200);
      expect((await documentsOf(order.orderId)).map((document) => document.kind)).toEqual(['sale_document']);

      const wrong = await askForInvoice(cookie, order.orderId, { ...company, uic: '123456789' });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().error).toMatchObject({ field: 'invoiceBuyer.uic', messageKey: 'invoice.validation.invalidUic' });

      // Two requests at once (a double click): one invoice, and the other is told there is one.
      const answers = await Promise.all([askForInvoice(cookie, order.orderId, company), askForInvoice(cookie, order.orderId, company)]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
      const issued = answers.find((answer) => answer.statusCode === 200)!.json<{ outcome: string; documents: TaxDocumentSummary[] }>();
      expect(issued.outcome).toBe('issued');
      expect(issued.documents.map((document) => document.kind).sort()).toEqual(['invoice', 'sale_document']);
      expect(answers.find((answer) => answer.statusCode === 409)!.json().error).toMatchObject({ messageKey: 'invoice.request.exists' });

      const invoice = (await documentsOf(order.orderId)).find((document) => document.kind === 'invoice')!;
      const [payment] = await testApp.database.db.select().from(payments).where(eq(payments.orderId, order.orderId));
      expect(invoice.content).toMatchObject({ buyer: company, taxableEventAt: payment!.processedAt.toISOString(), totalMinor: order.pricing.total });
      expect(Date.parse(invoice.content.issuedAt)).toBeGreaterThan(payment!.processedAt.getTime());
      const [user] = await testApp.database.db.select({ invoiceBuyer: users.invoiceBuyer }).from(users).where(eq(users.email, email));
      expect(user!.invoiceBuyer).toEqual(company);

      const mail = await inbox.waitForMail(email, 15_000, (received) => received.subject.startsWith('Фактура'));
      expect(mail.subject).toBe(`Фактура № ${invoice.content.number} за поръчка № ${order.orderId}`);
      expect(mail.text).toContain('Салон Красота ООД');
      expect(pdfsOf(mail).map((file) => file.filename)).toEqual([`invoice-${invoice.content.number}.pdf`]);
      expect(await pdfText(pdfsOf(mail)[0]!.content)).toContain(invoice.content.number);

      expect((await askForInvoice(cookie, order.orderId, company)).json().error).toMatchObject({ messageKey: 'invoice.request.exists' });
    });

    it('keeps the buyer of an unpaid order for the invoice its payment issues, and refuses after the legal window, for a cancelled order and for someone else’s', async () => {
      const cookie = await signInThroughInbox(testApp, inbox, 'unpaid@example.com');
      await fillCart(testApp, cookie, [product]);
      const unpaid = await placeOrder(testApp, cookie, { paymentMethod: 'card' });
      const kept = await askForInvoice(cookie, unpaid.orderId, company);
      expect(kept.statusCode).toBe(200);
      expect(kept.json()).toEqual({ outcome: 'on_payment', documents: [] });
      expect((await pay(cookie, unpaid.orderId)).statusCode).toBe(200);
      const invoice = (await documentsOf(unpaid.orderId)).find((document) => document.kind === 'invoice')!;
      expect(invoice.content).toMatchObject({ buyer: company, issuedAt: invoice.content.taxableEventAt });

      // Paid six days ago: the five days for an invoice have passed.
      await fillCart(testApp, cookie, [product]);
      const old = await placeOrder(testApp, cookie, { paymentMethod: 'card' });
      expect((await pay(cookie, old.orderId)).statusCode).toBe(200);
      await testApp.database.db
        .update(payments)
        .set({ processedAt: sql`now() - interval '6 days'` })
        .where(eq(payments.orderId, old.orderId));
      const late = await askForInvoice(cookie, old.orderId, company);
      expect(late.statusCode).toBe(409);
      expect(late.json().error).toMatchObject({ messageKey: 'invoice.request.windowClosed' });

      await fillCart(testApp, cookie, [product]);
      const cancelled = await placeOrder(testApp, cookie, { paymentMethod: 'card' });
      expect((await testApp.app.inject({ method: 'POST', url: `/api/orders/${cancelled.orderId}/cancel`, headers: { cookie } })).statusCode).toBeLessThan(300);
      expect((await askForInvoice(cookie, cancelled.orderId, company)).json().error).toMatchObject({ messageKey: 'invoice.request.notAvailable' });

      const stranger = await signInThroughInbox(testApp, inbox, 'stranger@example.com');
      expect((await askForInvoice(stranger, old.orderId, company)).statusCode).toBe(404);
      expect((await documentsOf(old.orderId)).map((document) => document.kind)).toEqual(['sale_document']);
      expect((await documentsOf(cancelled.orderId)).map((document) => document.kind)).toEqual([]);
    });

    it('corrects an invoice’s buyer by a credit note that cancels it and a new invoice in its place, next in the sequence, both e-mailed; later refunds correct the new one', async () => {
      const email = 'corrected@example.com';
      const cookie = await signInThroughInbox(testApp, inbox, email);
      await fillCart(testApp, cookie, [product]);
      const order = await placeOrder(testApp, cookie, { paymentMethod: 'card', invoiceBuyer: { ...company, name: 'Салон Красотa ООД' }, language: 'bg' });
      expect((await pay(cookie, order.orderId)).statusCode).toBe(200);
      const correct = (who: string, invoiceBuyer: unknown) => testApp.app.inject({ method: 'POST', url: `/api/admin/orders/${order.orderId}/invoice-correction`, headers: { cookie: who }, payload: { invoiceBuyer } });

      expect((await correct(cookie, company)).statusCode).toBe(403);
      expect((await correct(admin, { ...company, uic: '123456789' })).json().error).toMatchObject({ field: 'invoiceBuyer.uic', messageKey: 'invoice.validation.invalidUic' });
      const corrected = await correct(admin, company);
      expect(corrected.statusCode).toBe(200);
      const invoices = (await documentsOf(order.orderId)).filter((document) => document.series === 'invoice');
      const [first, cancelling, replacement] = invoices;
      expect(invoices.map((document) => [document.kind, document.number - first!.number, document.correctsId, document.refundId, document.totalMinor])).toEqual([
        ['invoice', 0, null, null, order.pricing.total],
        ['credit_note', 1, first!.id, null, -order.pricing.total],
        ['invoice', 2, first!.id, null, order.pricing.total],
      ]);
      expect(cancelling!.content.lines.map((line) => line.valueMinor)).toEqual(first!.content.lines.map((line) => -line.valueMinor));
      expect(replacement!.content).toMatchObject({ buyer: company, taxableEventAt: first!.content.taxableEventAt, corrects: { number: first!.content.number }, lines: first!.content.lines });
      expect(corrected.json<{ documents: TaxDocumentSummary[] }>().documents.map((document) => document.number)).toEqual(
        expect.arrayContaining([first!.content.number, cancelling!.content.number, replacement!.content.number]),
      );
      expect((await correct(admin, company)).json().error).toMatchObject({ messageKey: 'invoice.correction.unchanged' });
      expect(await pdfText((await testApp.app.inject({ method: 'GET', url: `/api/orders/${order.orderId}/documents/${replacement!.id}/pdf`, headers: { cookie } })).rawPayload)).toContain(
        `Издадена вместо фактура ${first!.content.number}`,
      );

      const mail = await inbox.waitForMail(email, 15_000, (received) => received.subject.startsWith('Коригирана фактура'));
      expect(mail.subject).toBe(`Коригирана фактура № ${replacement!.content.number} за поръчка № ${order.orderId}`);
      expect(mail.text).toContain(`кредитно известие № ${cancelling!.content.number} анулира фактура № ${first!.content.number}`);
      expect(pdfsOf(mail).map((file) => file.filename)).toEqual([`credit-note-${cancelling!.content.number}.pdf`, `invoice-${replacement!.content.number}.pdf`]);

      // A refund now corrects the invoice that stands; and an order with money returned is not corrected again.
      const refunded = await testApp.app.inject({ method: 'POST', url: `/api/admin/orders/${order.orderId}/refunds`, headers: { cookie: admin }, payload: { requestId: 'refund-after-correction', amountMinor: 500, reason: 'late' } });
      expect(refunded.statusCode).toBe(201);
      const note = (await documentsOf(order.orderId)).find((document) => document.refundId !== null)!;
      expect(note).toMatchObject({ kind: 'credit_note', correctsId: replacement!.id, totalMinor: -500 });
      expect((await correct(admin, { ...company, name: 'Друг салон ООД' })).json().error).toMatchObject({ messageKey: 'invoice.correction.refunded' });
    });

    it('attaches a refund’s credit note to the refund’s e-mail', async () => {
      const email = 'refund@example.com';
      const cookie = await signInThroughInbox(testApp, inbox, email);
      await fillCart(testApp, cookie, [product]);
      const order = await placeOrder(testApp, cookie, { paymentMethod: 'card', invoiceBuyer: company, language: 'bg' });
      expect((await pay(cookie, order.orderId)).statusCode).toBe(200);
      const refunded = await testApp.app.inject({ method: 'POST', url: `/api/admin/orders/${order.orderId}/refunds`, headers: { cookie: admin }, payload: { requestId: 'refund-credit-note-mail', amountMinor: 1000, reason: 'one nail broke' } });
      expect(refunded.statusCode).toBe(201);
      const note = (await documentsOf(order.orderId)).find((document) => document.kind === 'credit_note')!;
      const mail = await inbox.waitForMail(email, 15_000, (received) => pdfsOf(received).some((file) => file.filename.startsWith('credit-note')));
      expect(pdfsOf(mail).map((file) => file.filename)).toEqual([`credit-note-${note.content.number}.pdf`]);
      expect(mail.text).toContain(`кредитно известие № ${note.content.number}`);
      const text = await pdfText(pdfsOf(mail)[0]!.content);
      for (const expected of ['КРЕДИТНО ИЗВЕСТИЕ', note.content.number]) expect(text, expected).toContain(expected);
    });
  });
}
