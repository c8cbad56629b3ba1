import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eurToBgnMinor, formatMinor } from '#shared/money.js';
import type { Order } from '#shared/orders.js';
import type { TaxDocumentContent, TaxDocumentSummary } from '#shared/tax-documents.js';
import { admins, orders, products, taxDocuments, users } from '#server/db/schema.js';
import { bulgarianAmountInWords } from '#server/invoices/amount-in-words.js';
import { saleQrText } from '#server/invoices/sale-qr.js';
import { fillCart, placeOrder } from './shopper.js';
import { signIn } from './sign-in.js';
import { createTestApp, databaseTargets, describeEachDatabase, type TestApp } from './test-app.js';
import { testProduct } from './test-products.js';
import { company, pdfText, SELLER } from './invoice-fixtures.js';

/** The seller with prices that include 20% VAT, invoices numbered from 41. */
const PRICES_WITH_VAT = {
  ...SELLER,
  INVOICE_START_NUMBER: '41',
  PRICES_INCLUDE_TAX: 'true',
  TAX_RATE: '0.2',
};

const pay = (testApp: TestApp, cookie: string, orderId: string) =>
  testApp.app.inject({ method: 'POST', url: `/api/orders/${orderId}/payment`, headers: { cookie }, payload: { method: 'card', cardLast4: '4242' } });

const documentsOf = (testApp: TestApp, orderId: string) =>
  testApp.database.db.select().from(taxDocuments).where(eq(taxDocuments.orderId, orderId)).orderBy(asc(taxDocuments.kind));

describeEachDatabase(
  'invoices and sale documents',
  (context) => {
    let product: string;
    let admin: string;
    beforeAll(async () => {
      const testApp = context();
      [{ id: product }] = (await testApp.database.db.insert(products).values(testProduct({ name: 'Pearl Set', priceMinor: 2399 })).returning({ id: products.id })) as [{ id: string }];
      await testApp.database.db.insert(admins).values({ id: 'owner@shop.test' });
      admin = await signIn(testApp, 'owner@shop.test');
    });

    it('keeps the invoice details a buyer gives at checkout on the order and in her profile', async () => {
      const testApp = context();
      const cookie = await signIn(testApp, 'salon@example.com');
      await fillCart(testApp, cookie, [product]);
      const order = await placeOrder(testApp, cookie, { paymentMethod: 'card', invoiceBuyer: { ...company, uic: '123 456 786', vatNumber: 'bg123456786' } });
      expect(order.invoiceBuyer).toEqual(company);
      const [user] = await testApp.database.db.select({ invoiceBuyer: users.invoiceBuyer }).from(users).where(eq(users.email, 'salon@example.com'));
      expect(user!.invoiceBuyer).toEqual(company);
      // Nothing is issued before the payment.
      expect(await documentsOf(testApp, order.orderId)).toEqual([]);
    });

    it('refuses invoice details with a wrong ЕИК, naming the field, and places no order', async () => {
      const testApp = context();
      const cookie = await signIn(testApp, 'typo@example.com');
      await fillCart(testApp, cookie, [product]);
      const refused = await testApp.app.inject({
        method: 'POST',
        url: '/api/orders',
        headers: { cookie },
        payload: { idempotencyKey: 'typo-0123456789abcdef', acceptTerms: true, expectedTotalMinor: 2399 + 599, paymentMethod: 'card', invoiceBuyer: { ...company, uic: '123456789' } },
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error).toMatchObject({ field: 'invoiceBuyer.uic', messageKey: 'invoice.validation.invalidUic' });
      expect(await testApp.database.db.select().from(orders).where(eq(orders.customerEmail, 'typo@example.com'))).toEqual([]);
    });

    it('issues the invoice and the sale document when a card order is paid, numbered from the first number, with the order’s amounts', async () => {
      const testApp = context();
      const cookie = await signIn(testApp, 'buyer@example.com');
      await fillCart(testApp, cookie, [product, product]);
      const order = await placeOrder(testApp, cookie, { paymentMethod: 'card', invoiceBuyer: company });
      expect((await pay(testApp, cookie, order.orderId)).statusCode).toBe(200);

      const [invoice, sale] = await documentsOf(testApp, order.orderId);
      expect(invoice).toMatchObject({ kind: 'invoice', series: 'invoice', currency: 'BGN', totalMinor: order.pricing.total });
      expect(sale).toMatchObject({ kind: 'sale_document', series: 'sale', number: 1, totalMinor: order.pricing.total });
      const content = invoice!.content;
      expect(content).toMatchObject({
        number: expect.stringMatching(/^\d{10}$/),
        seller: { legalName: 'Ателие Нокти ЕООД', uic: '204567893', vatNumber: 'BG204567893', napShopNumber: 'RF0001234' },
        buyer: company,
        orderId: order.orderId,
        totalMinor: order.pricing.total,
        vatMinor: order.pricing.tax,
        netMinor: order.pricing.total - order.pricing.tax,
        payment: { method: 'card', cardLast4: '4242' },
      });
      expect(Number(content.number)).toBe(invoice!.number);
      expect(content.lines.map((line) => [line.description.bg, line.quantity, line.valueMinor])).toEqual([
        ['Pearl Set', 2, 4798],
        ['Доставка', 1, 599],
      ]);
      expect(sale!.content).toMatchObject({ kind: 'sale_document', number: '0000000001', buyer: null, totalMinor: order.pricing.total });
      expect(content.taxableEventAt).toBe(sale!.content.taxableEventAt);

      // The buyer and the admin see the order's documents; another customer sees none of them.
      const listed = await testApp.app.inject({ method: 'GET', url: `/api/orders/${order.orderId}/documents`, headers: { cookie } });
      expect(listed.json<{ documents: TaxDocumentSummary[] }>().documents).toEqual([
        { id: invoice!.id, kind: 'invoice', number: content.number, issuedAt: content.issuedAt, currency: 'BGN', totalMinor: order.pricing.total },
        { id: sale!.id, kind: 'sale_document', number: '0000000001', issuedAt: content.issuedAt, currency: 'BGN', totalMinor: order.pricing.total },
      ]);
      const opened = await testApp.app.inject({ method: 'GET', url: `/api/orders/${order.orderId}/documents/${invoice!.id}`, headers: { cookie } });
      expect(opened.json<{ document: TaxDocumentContent }>().document).toEqual(content);
      const asAdmin = await testApp.app.inject({ method: 'GET', url: `/api/admin/orders/${order.orderId}/documents`, headers: { cookie: admin } });
      expect(asAdmin.json<{ documents: TaxDocumentSummary[] }>().documents.map((document) => document.id)).toEqual([invoice!.id, sale!.id]);
      expect((await testApp.app.inject({ method: 'GET', url: `/api/admin/orders/${order.orderId}/documents`, headers: { cookie } })).statusCode).toBe(403);
      const stranger = await signIn(testApp, 'stranger@example.com');
      const theirs = await testApp.app.inject({ method: 'GET', url: `/api/orders/${order.orderId}/documents`, headers: { cookie: stranger } });
      expect(theirs.json<{ documents: TaxDocumentSummary[] }>().documents).toEqual([]);
      // The invoice as a PDF: the Bulgarian original and an English copy, for the buyer and the admin.
      const pdf = await testApp.app.inject({ method: 'GET', url: `/api/orders/${order.orderId}/documents/${invoice!.id}/pdf`, headers: { cookie } });
      expect(pdf.statusCode).toBe(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect(pdf.headers['content-disposition']).toBe(`attachment; filename="invoice-${content.number}.pdf"`);
      const original = await pdfText(pdf.rawPayload);
      const total = formatMinor(order.pricing.total, 'bg');
      for (const text of ['ФАКТУРА', 'Оригинал', content.number, 'ЕИК: 204567893', 'ИН по ДДС: BG204567893', 'ЕИК: 123456786', 'МОЛ: Мария Иванова', 'Салон Красота ООД', `Сума за плащане ${total} лв.`, 'Доставка', 'с карта']) {
        expect(original, text).toContain(text);
      }
      expect(original).toContain(`Словом: ${bulgarianAmountInWords(order.pricing.total, 'BGN')}`);
      const copy = await testApp.app.inject({ method: 'GET', url: `/api/admin/orders/${order.orderId}/documents/${invoice!.id}/pdf?language=en`, headers: { cookie: admin } });
      expect(copy.headers['content-disposition']).toBe(`attachment; filename="invoice-${content.number}-en.pdf"`);
      const english = await pdfText(copy.rawPayload);
      // The sale document carries the shop's НАП number and the QR code of Н-18, whose text is printed under it.
      const salePdf = await pdfText((await testApp.app.inject({ method: 'GET', url: `/api/orders/${order.orderId}/documents/${sale!.id}/pdf`, headers: { cookie } })).rawPayload);
      for (const text of ['ДОКУМЕНТ ЗА РЕГИСТРИРАНЕ НА ПРОДАЖБА', 'Номер: 0000000001', 'Номер на е-магазина в НАП: RF0001234', saleQrText(sale!.content)]) expect(salePdf, text).toContain(text);
      expect(saleQrText(sale!.content)).toMatch(new RegExp(`^RF0001234\\*${order.orderId}\\*pay_[0-9a-f]+\\*\\d{4}-\\d{2}-\\d{2}\\*\\d{2}:\\d{2}:\\d{2}\\*${(order.pricing.total / 100).toFixed(2).replace('.', '\\.')}$`));
      for (const text of ['INVOICE', content.number, 'UIC: 123456786', `Amount due ${formatMinor(order.pricing.total, 'en')} BGN`, 'Shipping']) expect(english, text).toContain(text);

      for (const url of [`/api/orders/${order.orderId}/documents/${invoice!.id}`, `/api/orders/${order.orderId}/documents/${invoice!.id}/pdf`, `/api/orders/${order.orderId}/documents/not-a-document`]) {
        expect((await testApp.app.inject({ method: 'GET', url, headers: { cookie: stranger } })).statusCode, url).toBe(404);
      }
    });

    it('numbers invoices one after another from INVOICE_START_NUMBER, leaves orders without an invoice out, and gives a cash order its invoice when its cash is recorded', async () => {
      const testApp = context();
      const cookie = await signIn(testApp, 'series@example.com');
      const paidOrder = async (payload: Record<string, unknown>) => {
        await fillCart(testApp, cookie, [product]);
        const order = await placeOrder(testApp, cookie, payload);
        if (payload.paymentMethod === 'cash_on_delivery') {
          const recorded = await testApp.app.inject({ method: 'POST', url: `/api/admin/orders/${order.orderId}/cash-payment`, headers: { cookie: admin } });
          expect(recorded.statusCode, recorded.body).toBeLessThan(300);
        } else expect((await pay(testApp, cookie, order.orderId)).statusCode).toBe(200);
        return documentsOf(testApp, order.orderId);
      };
      const before = await testApp.database.db.select({ number: sql<number>`max(${taxDocuments.number})` }).from(taxDocuments).where(eq(taxDocuments.series, 'invoice'));
      const first = (before[0]?.number === null ? 40 : Number(before[0]!.number)) + 1;

      const invoiced = await paidOrder({ paymentMethod: 'card', invoiceBuyer: company });
      const without = await paidOrder({ paymentMethod: 'card' });
      const cash = await paidOrder({ paymentMethod: 'cash_on_delivery', invoiceBuyer: { kind: 'person', name: 'Мария', address: 'София' } });
      expect(invoiced.find((document) => document.kind === 'invoice')!.number).toBe(first);
      // Paid by card without an invoice: the sale document only.
      expect(without.map((document) => document.kind)).toEqual(['sale_document']);
      // Cash on delivery: the invoice, and no sale document (the courier's money transfer documents it).
      expect(cash.map((document) => [document.kind, document.number])).toEqual([['invoice', first + 1]]);
      expect(first).toBeGreaterThanOrEqual(41);
    });

    it('corrects an invoice by credit notes that take the next numbers of its sequence: a part refund by one line, the rest, and a cancellation’s whole refund by its lines', async () => {
      const testApp = context();
      const cookie = await signIn(testApp, 'refunded@example.com');
      const invoicedOrder = async () => {
        await fillCart(testApp, cookie, [product]);
        const order = await placeOrder(testApp, cookie, { paymentMethod: 'card', invoiceBuyer: company });
        expect((await pay(testApp, cookie, order.orderId)).statusCode).toBe(200);
        return order;
      };
      const refund = (orderId: string, payload: object) =>
        testApp.app.inject({ method: 'POST', url: `/api/admin/orders/${orderId}/refunds`, headers: { cookie: admin }, payload: { requestId: `refund-${Math.random().toString(36).slice(2)}`, ...payload } });

      const order = await invoicedOrder();
      const [invoice] = (await documentsOf(testApp, order.orderId)).filter((document) => document.kind === 'invoice');
      expect((await refund(order.orderId, { amountMinor: 1200, reason: 'one nail broke' })).statusCode).toBe(201);
      expect((await refund(order.orderId, {})).statusCode).toBe(201);
      const notes = (await documentsOf(testApp, order.orderId)).filter((document) => document.kind === 'credit_note').sort((a, b) => a.number - b.number);
      expect(notes.map((note) => [note.number, note.totalMinor, note.correctsId])).toEqual([
        [invoice!.number + 1, -1200, invoice!.id],
        [invoice!.number + 2, -(order.pricing.total - 1200), invoice!.id],
      ]);
      const part = notes[0]!.content;
      // 20% included: the VAT of 12.00 is the invoice's VAT in proportion.
      expect(part).toMatchObject({ kind: 'credit_note', buyer: company, corrects: { number: invoice!.content.number, issuedAt: invoice!.content.issuedAt }, totalMinor: -1200 });
      expect(part.vatMinor).toBe(-Math.round((1200 * invoice!.content.vatMinor) / invoice!.content.totalMinor));
      expect(part.lines).toEqual([expect.objectContaining({ description: { en: `Refund for order ${order.orderId}`, bg: `Възстановена сума по поръчка ${order.orderId}` }, valueMinor: -1200 })]);
      expect(notes[0]!.content.totalMinor + notes[1]!.content.totalMinor).toBe(-invoice!.content.totalMinor);
      expect(notes[0]!.content.vatMinor + notes[1]!.content.vatMinor).toBe(-invoice!.content.vatMinor);

      // The buyer cancels a paid order: the refund of everything negates each line of the invoice.
      const cancelled = await invoicedOrder();
      expect((await testApp.app.inject({ method: 'POST', url: `/api/orders/${cancelled.orderId}/cancel`, headers: { cookie } })).statusCode).toBeLessThan(300);
      const documents = await documentsOf(testApp, cancelled.orderId);
      const cancelledInvoice = documents.find((document) => document.kind === 'invoice')!;
      const note = documents.find((document) => document.kind === 'credit_note')!;
      expect(note.number).toBe(cancelledInvoice.number + 1);
      expect(note.content.lines.map((line) => line.valueMinor)).toEqual(cancelledInvoice.content.lines.map((line) => -line.valueMinor));
      expect(note.content).toMatchObject({ totalMinor: -cancelledInvoice.content.totalMinor, vatMinor: -cancelledInvoice.content.vatMinor });
    });

    it('forgets the invoice details of a buyer who deletes her account, and keeps her issued invoice as the law asks', async () => {
      const testApp = context();
      const cookie = await signIn(testApp, 'leaving@example.com');
      await fillCart(testApp, cookie, [product]);
      const order = await placeOrder(testApp, cookie, { paymentMethod: 'card', invoiceBuyer: company });
      expect((await pay(testApp, cookie, order.orderId)).statusCode).toBe(200);
      const [user] = await testApp.database.db.select({ id: users.id }).from(users).where(eq(users.email, 'leaving@example.com'));
      const deleted = await testApp.app.inject({ method: 'DELETE', url: '/api/account', headers: { cookie }, payload: { email: 'leaving@example.com' } });
      expect(deleted.statusCode).toBe(204);
      const [kept] = await testApp.database.db.select({ invoiceBuyer: orders.invoiceBuyer }).from(orders).where(eq(orders.id, order.orderId));
      expect(kept!.invoiceBuyer).toBeNull();
      const [account] = await testApp.database.db.select({ invoiceBuyer: users.invoiceBuyer }).from(users).where(eq(users.id, user!.id));
      expect(account!.invoiceBuyer).toBeNull();
      const [invoice] = (await documentsOf(testApp, order.orderId)).filter((document) => document.kind === 'invoice');
      expect(invoice!.content.buyer).toEqual(company);
    });
  },
  PRICES_WITH_VAT,
);

describeEachDatabase(
  'invoices of a euro shop that shows leva too',
  (context) => {
    it('states the invoice’s and the credit note’s totals in leva at the fixed rate as well', async () => {
      const testApp = context();
      const [{ id: product }] = (await testApp.database.db.insert(products).values(testProduct({ name: 'Pearl Set', priceMinor: 2399 })).returning({ id: products.id })) as [{ id: string }];
      await testApp.database.db.insert(admins).values({ id: 'owner@shop.test' });
      const admin = await signIn(testApp, 'owner@shop.test');
      const cookie = await signIn(testApp, 'euro@example.com');
      await fillCart(testApp, cookie, [product]);
      const order = await placeOrder(testApp, cookie, { paymentMethod: 'card', invoiceBuyer: company });
      expect(order.currency).toBe('EUR');
      expect((await pay(testApp, cookie, order.orderId)).statusCode).toBe(200);
      const refunded = await testApp.app.inject({ method: 'POST', url: `/api/admin/orders/${order.orderId}/refunds`, headers: { cookie: admin }, payload: { requestId: 'euro-refund-0123456789', amountMinor: 1000, reason: 'one nail broke' } });
      expect(refunded.statusCode).toBe(201);
      const documents = await documentsOf(testApp, order.orderId);
      const [invoice, note] = (['invoice', 'credit_note'] as const).map((kind) => documents.find((document) => document.kind === kind));
      expect(invoice!.content).toMatchObject({ kind: 'invoice', currency: 'EUR', totalMinor: order.pricing.total, totalBgnMinor: eurToBgnMinor(order.pricing.total) });
      expect(note!.content).toMatchObject({ kind: 'credit_note', totalMinor: -1000, totalBgnMinor: -eurToBgnMinor(1000) });
      const text = await pdfText((await testApp.app.inject({ method: 'GET', url: `/api/orders/${order.orderId}/documents/${invoice!.id}/pdf`, headers: { cookie } })).rawPayload);
      expect(text).toContain(`Сума за плащане ${formatMinor(order.pricing.total, 'bg')} евро`);
      expect(text).toContain(`Равностойност в лева по фиксирания курс 1,95583 лв. за 1 евро ${formatMinor(eurToBgnMinor(order.pricing.total), 'bg')} лв.`);
      const english = await pdfText((await testApp.app.inject({ method: 'GET', url: `/api/orders/${order.orderId}/documents/${note!.id}/pdf?language=en`, headers: { cookie } })).rawPayload);
      expect(english).toContain(`In leva at the fixed rate of 1.95583 BGN per euro ${formatMinor(-eurToBgnMinor(1000), 'en')} BGN`);
    });
  },
  { ...PRICES_WITH_VAT, SHOP_CURRENCY: 'EUR', SHOW_BGN_EQUIVALENT: 'true' },
);

/**
 * Two app instances, each with its own connection pool, on one PostgreSQL database: as two server
 * processes, they meet only in the database, which is where the numbering must hold.
 */
describe.skipIf(!databaseTargets.includes('postgres'))('invoice numbers with many payments at once on PostgreSQL', () => {
  const ORDERS = 200;
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    first = await createTestApp('postgres', { ...PRICES_WITH_VAT, INVOICE_START_NUMBER: '1000' });
    second = await createTestApp('postgres', { ...PRICES_WITH_VAT, INVOICE_START_NUMBER: '1000' }, { databaseUrl: first.databaseUrl });
  }, 60_000);

  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it(`gives ${ORDERS} orders paid at once through two apps ${ORDERS} consecutive invoice numbers and sale document numbers, none twice`, async () => {
    const { db } = first.database;
    const [{ id: product }] = (await db.insert(products).values(testProduct({ name: 'Rush Set', priceMinor: 1500 })).returning({ id: products.id })) as [{ id: string }];
    const cookie = await signIn(first, 'rush@example.com');
    await fillCart(first, cookie, [product]);
    const model: Order = await placeOrder(first, cookie, { paymentMethod: 'card', invoiceBuyer: company });
    // The other orders are copies of the first, each with its own id and lines.
    const ids = [model.orderId, ...Array.from({ length: ORDERS - 1 }, (_, index) => `NA-RUSH${String(index).padStart(4, '0')}`)];
    const copies = ids.slice(1).join(',');
    await db.execute(sql`
      insert into orders select (jsonb_populate_record(o, jsonb_build_object('id', copy.id, 'idempotency_key', copy.id))).*
      from orders o, unnest(string_to_array(${copies}, ',')) as copy(id) where o.id = ${model.orderId}`);
    await db.execute(sql`
      insert into order_items (order_id, position, product_id, name_en, name_bg, price_minor, quantity, choices, return_rule)
      select copy.id, i.position, i.product_id, i.name_en, i.name_bg, i.price_minor, i.quantity, i.choices, i.return_rule
      from order_items i, unnest(string_to_array(${copies}, ',')) as copy(id) where i.order_id = ${model.orderId}`);

    const answers = await Promise.all(ids.map((id, index) => pay(index % 2 === 0 ? first : second, cookie, id)));
    expect(answers.map((answer) => answer.statusCode)).toEqual(ids.map(() => 200));

    const numbers = async (series: string) =>
      (await db.select({ number: taxDocuments.number, orderId: taxDocuments.orderId }).from(taxDocuments).where(eq(taxDocuments.series, series)).orderBy(asc(taxDocuments.number)));
    const invoices = await numbers('invoice');
    expect(invoices.map((row) => row.number)).toEqual(Array.from({ length: ORDERS }, (_, index) => 1000 + index));
    expect(new Set(invoices.map((row) => row.orderId)).size).toBe(ORDERS);
    const sales = await numbers('sale');
    expect(sales.map((row) => row.number)).toEqual(Array.from({ length: ORDERS }, (_, index) => 1 + index));
  }, 120_000);
});
