import { randomUUID } from 'node:crypto';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { eq, inArray, lt } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import type { InvoiceBuyer } from '#shared/invoice-buyer.js';
import { bgnToEurMinor } from '#shared/money.js';
import { priceLines } from '#shared/pricing.js';
import type { Order } from '#shared/orders.js';
import { admins, orders, payments, products, refunds, taxDocuments } from '#server/db/schema.js';
import { projectPath } from '#server/project-path.js';
import { fillCart, placeOrder } from './shopper.js';
import { signIn } from './sign-in.js';
import { describeEachDatabase, type TestApp } from './test-app.js';
import { testProduct } from './test-products.js';
import { serverCommand } from '../support/server-code.js';

// The month's audit file for НАП: valid by the agency's schema, and its sums those of the month's
// orders and refunds, whatever their currencies.

const SCHEMA = projectPath('tests/fixtures/nra/dec_audit.xsd');
const company: InvoiceBuyer = { kind: 'company', name: 'Салон „Красота“ & Ко ООД', uic: '123456786', vatNumber: 'BG123456786', responsiblePerson: 'Мария Иванова', address: 'ул. Шипка 7, София' };

const SELLER = {
  SHOP_CURRENCY: 'EUR',
  SHOP_LEGAL_NAME: 'Ателие Нокти ЕООД',
  SHOP_UIC: '204567893',
  SHOP_VAT_NUMBER: 'BG204567893',
  SHOP_NAP_NUMBER: 'RF0001234',
  NRA_ALTERNATIVE_REGIME: 'true',
  PRICES_INCLUDE_TAX: 'true',
  TAX_RATE: '0.2',
  PAYMENT_METHODS: 'card,cash_on_delivery,bank_transfer',
  BANK_IBAN: 'BG80BNBG96611020345678',
  BANK_ACCOUNT_NAME: 'Ателие Нокти ЕООД',
};

/** Validates the file's text against НАП's schema; libxml2 reads UTF-8 only, so the declaration says so. */
async function schemaErrors(xml: string): Promise<string[]> {
  const result = await validateXML({
    xml: [{ fileName: 'audit.xml', contents: xml.replace('encoding="WINDOWS-1251"', 'encoding="UTF-8"') }],
    schema: [{ fileName: 'dec_audit.xsd', contents: await readFile(SCHEMA, 'utf8') }],
  });
  return result.errors.map((error) => error.message);
}

/** Every element's text by its name, in the order written. */
const values = (xml: string, element: string) => [...xml.matchAll(new RegExp(`<${element}>([^<]*)</${element}>`, 'g'))].map((match) => match[1]!);
const cents = (text: string) => Math.round(Number(text) * 100);
const total = (texts: string[]) => texts.reduce((sum, text) => sum + cents(text), 0);

describeEachDatabase(
  'the monthly audit file',
  (context) => {
    let admin: string;
    let cookie: string;
    let product: string;
    beforeAll(async () => {
      const testApp = context();
      [{ id: product }] = (await testApp.database.db.insert(products).values(testProduct({ name: 'Стилето с перли', priceMinor: 2399 })).returning({ id: products.id })) as [{ id: string }];
      await testApp.database.db.insert(admins).values({ id: 'owner@shop.test' });
      admin = await signIn(testApp, 'owner@shop.test');
      cookie = await signIn(testApp, 'buyer@example.com');
    });

    const paidOrder = async (testApp: TestApp, payload: Record<string, unknown>, paidAt: string, before?: (order: Order) => Promise<void>) => {
      await fillCart(testApp, cookie, [product, product, product]);
      const order = await placeOrder(testApp, cookie, payload);
      await before?.(order);
      if (payload.paymentMethod === 'cash_on_delivery' || payload.paymentMethod === 'bank_transfer') {
        const recording = payload.paymentMethod === 'cash_on_delivery' ? 'cash-payment' : 'bank-transfer';
        expect((await testApp.app.inject({ method: 'POST', url: `/api/admin/orders/${order.orderId}/${recording}`, headers: { cookie: admin } })).statusCode).toBeLessThan(300);
      } else {
        const paid = await testApp.app.inject({ method: 'POST', url: `/api/orders/${order.orderId}/payment`, headers: { cookie }, payload: { method: 'card', cardLast4: '4242' } });
        expect(paid.statusCode).toBe(200);
      }
      await testApp.database.db.update(payments).set({ processedAt: new Date(paidAt) }).where(eq(payments.orderId, order.orderId));
      return order;
    };
    const download = (testApp: TestApp, month: string) => testApp.app.inject({ method: 'GET', url: `/api/admin/audit-file?month=${month}`, headers: { cookie: admin } });

    it('lists the orders paid in the month in Sofia with their lines and documents, and the money returned, valid by НАП’s schema', async () => {
      const testApp = context();
      const card = await paidOrder(testApp, { paymentMethod: 'card', invoiceBuyer: company }, '2026-11-03T10:00:00Z');
      const plain = await paidOrder(testApp, { paymentMethod: 'card' }, '2026-11-15T12:00:00Z');
      const cash = await paidOrder(testApp, { paymentMethod: 'cash_on_delivery' }, '2026-11-20T09:00:00Z');
      const transfer = await paidOrder(testApp, { paymentMethod: 'bank_transfer' }, '2026-11-22T09:00:00Z');
      // Placed in leva before the changeover and paid in November: its amounts go in the file in euro.
      const leva = await paidOrder(testApp, { paymentMethod: 'card' }, '2026-11-30T21:59:00Z', async (order) => {
        await testApp.database.db.update(orders).set({ currency: 'BGN' }).where(eq(orders.id, order.orderId));
      });
      // 23:30 in Sofia on 30 November is already 1 December there.
      const december = await paidOrder(testApp, { paymentMethod: 'card' }, '2026-11-30T22:30:00Z');
      // Money returned in November: part of one order, all of another.
      const refund = (orderId: string, payload: object) =>
        testApp.app.inject({ method: 'POST', url: `/api/admin/orders/${orderId}/refunds`, headers: { cookie: admin }, payload: { requestId: randomUUID(), ...payload } });
      expect((await refund(card.orderId, { amountMinor: 1000, reason: 'a broken nail' })).statusCode).toBe(201);
      expect((await refund(plain.orderId, {})).statusCode).toBe(201);
      await testApp.database.db.update(refunds).set({ createdAt: new Date('2026-11-28T10:00:00Z') }).where(inArray(refunds.orderId, [card.orderId, plain.orderId]));

      const response = await download(testApp, '2026-11');
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-type']).toBe('application/xml; charset=windows-1251');
      expect(response.headers['content-disposition']).toBe('attachment; filename="nra-audit-2026-11.xml"');
      const xml = new TextDecoder('windows-1251').decode(response.rawPayload);
      expect(xml).toContain('<art_name>Стилето с перли</art_name>');
      expect(await schemaErrors(xml)).toEqual([]);
      // The schema does refuse a file it does not describe.
      expect(await schemaErrors(xml.replace(/<paym>4<\/paym>/, '<paym>9</paym>'))).not.toEqual([]);

      expect(values(xml, 'eik')).toEqual(['204567893']);
      expect(values(xml, 'e_shop_n')).toEqual(['RF0001234']);
      expect(values(xml, 'domain_name')).toEqual(['shop.test']);
      expect([values(xml, 'mon'), values(xml, 'god')]).toEqual([['11'], ['2026']]);
      expect(values(xml, 'ord_n')).toEqual([card.orderId, plain.orderId, cash.orderId, transfer.orderId, leva.orderId]);
      expect(values(xml, 'ord_n')).not.toContain(december.orderId);
      // A bank transfer is a payment exempt under чл. 3 (1), and, like cash on delivery, gets no sale document.
      expect(values(xml, 'paym')).toEqual(['4', '4', '3', '1', '4']);
      expect(values(xml, 'doc_n').map(Number)).toEqual([1, 2, 0, 0, 3]);

      // Each order: its lines add up to its total, net and VAT make the total, and the total is what was paid (in euro).
      const orderTexts = xml.split('<orderenum>').slice(1);
      const paidTotals = [card, plain, cash, transfer].map((order) => order.pricing.total).concat([bgnToEurMinor(leva.pricing.total)]);
      orderTexts.forEach((text, index) => {
        const [net, discount, vat, gross] = [values(text, 'ord_total1'), values(text, 'ord_disc'), values(text, 'ord_vat'), values(text, 'ord_total2')].map((entry) => cents(entry[0]!));
        expect(discount, `order ${index}`).toBe(0);
        expect(net! + vat!, `order ${index}`).toBe(gross);
        expect(total(values(text, 'art_sum'))).toBe(gross);
        expect(total(values(text, 'art_vat'))).toBe(vat);
        expect(gross).toBe(paidTotals[index]);
      });
      expect(values(orderTexts[0]!, 'art_quant')[0]).toBe('3.00');
      expect(values(orderTexts[0]!, 'art_vat_rate')).toEqual(['20', '20']);

      expect(values(xml, 'r_ord')).toEqual(['2']);
      expect(values(xml, 'r_ord_n')).toEqual([card.orderId, plain.orderId]);
      expect(values(xml, 'r_amount').map(cents)).toEqual([1000, plain.pricing.total]);
      expect(values(xml, 'r_paym')).toEqual(['2', '2']);
      expect(cents(values(xml, 'r_total')[0]!)).toBe(1000 + plain.pricing.total);
      expect(values(xml, 'r_date')).toEqual(['2026-11-28', '2026-11-28']);

      // December holds the order paid after midnight in Sofia, and no returns.
      const next = new TextDecoder('windows-1251').decode((await download(testApp, '2026-12')).rawPayload);
      expect(values(next, 'ord_n')).toEqual([december.orderId]);
      expect([values(next, 'r_ord'), values(next, 'r_total')]).toEqual([['0'], ['0.00']]);
      expect(await schemaErrors(next)).toEqual([]);
    });

    it('writes the accountant’s CSV of the month: the invoices and credit notes issued and the payments received', async () => {
      const testApp = context();
      // Issued today by the test above; moved into its November like its payments and refunds.
      await testApp.database.db.update(taxDocuments).set({ issuedAt: new Date('2026-11-28T10:00:00Z') });
      const response = await testApp.app.inject({ method: 'GET', url: '/api/admin/accounting-export?month=2026-11', headers: { cookie: admin } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(response.headers['content-disposition']).toBe('attachment; filename="accounting-2026-11.csv"');
      expect(response.body.startsWith('\uFEFF')).toBe(true);
      const [header, ...rows] = response.body.slice(1).trimEnd().split('\r\n').map((line) => line.split(','));
      expect(header).toEqual(['type', 'number', 'date', 'order', 'corrects', 'buyer', 'buyer_uic', 'buyer_vat_number', 'net', 'vat', 'total', 'currency', 'payment_method', 'reference']);
      expect(rows.map((row) => row[0])).toEqual(['invoice', 'credit_note', 'payment', 'payment', 'payment', 'payment', 'payment']);
      const [invoice, note] = rows as [string[], string[]];
      expect([invoice[5], invoice[6], invoice[7], invoice[11]]).toEqual(['Салон „Красота“ & Ко ООД', '123456786', 'BG123456786', 'EUR']);
      expect(cents(invoice[8]!) + cents(invoice[9]!)).toBe(cents(invoice[10]!));
      expect([note[1], note[4], note[10]]).toEqual([String(Number(invoice[1]) + 1).padStart(10, '0'), invoice[1], '-10.00']);
      // Every payment of November in Sofia, the one after midnight there (December) left out.
      const november = await testApp.database.db.select({ orderId: payments.orderId, amount: payments.amountMinor }).from(payments).where(lt(payments.processedAt, new Date('2026-11-30T22:00:00Z')));
      expect(rows.slice(2).map((row) => [row[3], cents(row[10]!)])).toEqual(expect.arrayContaining(november.map((row) => [row.orderId, row.amount])));
      expect(rows.slice(2)).toHaveLength(november.length);
      expect((await testApp.app.inject({ method: 'GET', url: '/api/admin/accounting-export?month=2026-1', headers: { cookie: admin } })).statusCode).toBe(400);
    });

    it('gives a discount code’s reduction without VAT in ord_disc, the articles at what was paid for them', async () => {
      const testApp = context();
      const created = await testApp.app.inject({ method: 'POST', url: '/api/admin/discount-codes', headers: { cookie: admin }, payload: { code: 'AUTUMN', kind: 'percent', value: 1500 } });
      expect(created.statusCode).toBe(201);
      // 3 × 23.99 = 71.97, 15% off: 10.80 (10.7955 rounded half-up), of which 1.80 is VAT at 20% included.
      const discounted = priceLines([{ priceMinor: 2399, quantity: 3 }], testApp.config.pricing, 'card', { code: 'AUTUMN', productsMinor: 1080, freeShipping: false });
      const order = await paidOrder(testApp, { paymentMethod: 'card', discountCode: 'autumn', expectedTotalMinor: discounted.total }, '2026-10-10T10:00:00Z');
      expect(order.pricing).toMatchObject({ discount: 1080, discountCode: 'AUTUMN', total: discounted.total });

      const xml = new TextDecoder('windows-1251').decode((await download(testApp, '2026-10')).rawPayload);
      expect(await schemaErrors(xml)).toEqual([]);
      const [net, discount, vat, gross] = ['ord_total1', 'ord_disc', 'ord_vat', 'ord_total2'].map((element) => cents(values(xml, element)[0]!));
      expect(discount).toBe(1080 - 180);
      expect(net! - discount! + vat!).toBe(gross);
      expect(gross).toBe(order.pricing.total);
      expect(total(values(xml, 'art_sum'))).toBe(gross);
      // The set's line is at what was paid for it: 71.97 − 10.80.
      expect(cents(values(xml, 'art_sum')[0]!)).toBe(7197 - 1080);
    });

    it('refuses a month with no order paid, a month written otherwise, and anyone but an admin', async () => {
      const testApp = context();
      const empty = await download(testApp, '2025-02');
      expect(empty.statusCode).toBe(409);
      expect(empty.json().error).toMatchObject({ message: 'No order was paid in 2025-02; the audit file lists at least one', messageKey: 'admin.monthlyFiles.errors.noOrders' });
      for (const month of ['2026-13', '26-11', 'november', '2019-12']) {
        const refused = await download(testApp, month);
        expect(refused.statusCode, month).toBe(409);
        expect(refused.json().error.message, month).toMatch(/is no month: write it as 2026-11/);
        expect(refused.json().error.messageKey, month).toBe('admin.monthlyFiles.errors.invalidMonth');
      }
      expect((await testApp.app.inject({ method: 'GET', url: '/api/admin/audit-file?month=2026-11', headers: { cookie } })).statusCode).toBe(403);
    });

    it('is written by npm run nra:audit, to standard output or a file', async (test) => {
      const testApp = context();
      // The embedded database is this test's own while it runs; a command beside it needs PostgreSQL.
      if (!testApp.databaseUrl) return test.skip();
      const command = (args: string[]) =>
        promisify(execFile)(process.execPath, serverCommand('nra-audit-cli.ts', ...args), {
          env: { ...process.env, ...SELLER, DATABASE_URL: testApp.databaseUrl, PUBLIC_URL: 'http://shop.test' },
          encoding: 'buffer',
        });
      const { stdout, stderr } = await command(['2026-11']);
      const xml = new TextDecoder('windows-1251').decode(stdout);
      expect(await schemaErrors(xml)).toEqual([]);
      expect(values(xml, 'ord_n')).toHaveLength(5);
      expect(stderr.toString()).toContain('The audit file of 2026-11: 5 orders paid, 2 with money returned.');
      await expect(command(['2026-13'])).rejects.toMatchObject({ code: 1 });
      await expect(command([])).rejects.toMatchObject({ code: 2 });
    });
  },
  SELLER,
);
