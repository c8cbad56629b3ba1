import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminOrderDetail } from '#shared/admin.js';
import { formatMoney } from '#shared/money.js';
import type { Order } from '#shared/orders.js';
import { admins, mailQueue, products } from '#server/db/schema.js';
import { startSmtpInbox, type SmtpInbox } from '../support/smtp-inbox.js';
import { fillCart, placeOrder, signInThroughInbox } from './shopper.js';
import { createTestApp, databaseTargets, type TestApp } from './test-app.js';
import { testProduct } from './test-products.js';

// An order paid by bank transfer awaits the money: the buyer is shown the shop's account and the
// reference, never a payment button; only the admin records the transfer, once.

const BANK = { BANK_IBAN: 'BG80BNBG96611020345678', BANK_BIC: 'BNBGBGSF', BANK_ACCOUNT_NAME: 'Nail Art Atelier Ltd.' };

describe.each(databaseTargets)('bank transfer [%s]', (target) => {
  let inbox: SmtpInbox;
  let testApp: TestApp;
  let product: string;
  let admin: string;
  beforeAll(async () => {
    inbox = await startSmtpInbox();
    testApp = await createTestApp(target, { ...BANK, SMTP_URL: inbox.url, SHOP_CURRENCY: 'EUR', PRICES_INCLUDE_TAX: 'true', TAX_RATE: '0.2', PAYMENT_METHODS: 'card,bank_transfer' });
    [{ id: product }] = (await testApp.database.db.insert(products).values(testProduct({ name: 'Pearl Set', priceMinor: 1738, stock: 100 })).returning({ id: products.id })) as [{ id: string }];
    await testApp.database.db.insert(admins).values({ id: 'owner@bank.test' });
    admin = await signInThroughInbox(testApp, inbox, 'owner@bank.test');
  });
  afterAll(async () => {
    await testApp?.close();
    await inbox?.close();
  });

  it('shows the account and the reference in both languages, takes no payment from the buyer, and is paid when the admin records the transfer', async () => {
    const cookie = await signInThroughInbox(testApp, inbox, 'transfer@example.com');
    await fillCart(testApp, cookie, [product, product]);
    const order = await placeOrder(testApp, cookie, { paymentMethod: 'bank_transfer', language: 'bg' });
    expect(order).toMatchObject({ status: 'pending', paymentMethod: 'bank_transfer', checkoutUrl: null, payment: null });

    const confirmation = await inbox.waitForMail('transfer@example.com');
    for (const line of [
      `Моля, преведете ${formatMoney(order.pricing.total, 'EUR', 'bg').replace(/\u00a0/g, ' ')} по сметката по-долу`,
      'Титуляр на сметката: Nail Art Atelier Ltd.',
      'IBAN: BG80 BNBG 9661 1020 3456 78',
      'BIC: BNBGBGSF',
      `Основание за плащане: Поръчка ${order.orderId}`,
    ]) {
      expect(confirmation.text.replace(/\u00a0/g, ' ')).toContain(line);
    }
    expect(confirmation.text).not.toContain('/checkout/payment/');

    // The buyer cannot pay it online, nor say she paid.
    const online = await testApp.app.inject({ method: 'POST', url: `/api/orders/${order.orderId}/payment`, headers: { cookie }, payload: { method: 'bank_transfer' } });
    expect(online.statusCode).toBe(409);
    const session = await testApp.app.inject({ method: 'POST', url: `/api/orders/${order.orderId}/payment-session`, headers: { cookie } });
    expect(session.statusCode).toBe(409);

    // The page's settings carry the account to show.
    const page = await testApp.app.inject({ method: 'GET', url: `/checkout/payment/${order.orderId}` });
    expect(page.body).toContain('"bankAccount":{"iban":"BG80BNBG96611020345678","bic":"BNBGBGSF","accountName":"Nail Art Atelier Ltd."}');

    const record = () => testApp.app.inject({ method: 'POST', url: `/api/admin/orders/${order.orderId}/bank-transfer`, headers: { cookie: admin } });
    const [first, second] = await Promise.all([record(), record()]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 409]);
    const detail = (first.statusCode === 200 ? first : second).json<AdminOrderDetail>();
    expect(detail.order).toMatchObject({ status: 'paid', payment: { method: 'bank_transfer', amountMinor: order.pricing.total } });
    const [receipts] = await testApp.database.db
      .select({ count: sql<number>`count(*)::int` })
      .from(mailQueue)
      .where(and(eq(mailQueue.orderId, order.orderId), eq(mailQueue.kind, 'payment_received')));
    expect(receipts!.count).toBe(1);
    const receipt = await inbox.waitForMail('transfer@example.com');
    expect(receipt.subject).toContain(order.orderId);
    expect(receipt.text).toContain('Банков превод');
    const mine = (await testApp.app.inject({ method: 'GET', url: `/api/orders/${order.orderId}`, headers: { cookie } })).json<{ order: Order }>().order;
    expect(mine.status).toBe('paid');
  });

  it('records no transfer for an order paid otherwise', async () => {
    const cookie = await signInThroughInbox(testApp, inbox, 'card@example.com');
    await fillCart(testApp, cookie, [product]);
    const order = await placeOrder(testApp, cookie, { paymentMethod: 'card' });
    const answer = await testApp.app.inject({ method: 'POST', url: `/api/admin/orders/${order.orderId}/bank-transfer`, headers: { cookie: admin } });
    expect(answer.statusCode).toBe(409);
    expect(answer.json().error.code).toBe('order_not_payable');
  });
});
