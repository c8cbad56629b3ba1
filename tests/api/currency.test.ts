import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminOrderDetail } from '#shared/admin.js';
import type { CartResponse } from '#shared/cart.js';
import type { Order } from '#shared/orders.js';
import { addAdmin } from '#server/auth/roles.js';
import { checkCatalogueCurrency, convertCatalogueToEuro, CurrencyMismatchError } from '#server/catalog/currency.js';
import { openDatabase } from '#server/db/client.js';
import { cartItems, mailQueue, products } from '#server/db/schema.js';
import { projectPath } from '#server/project-path.js';
import { startSmtpInbox, type SmtpInbox } from '../support/smtp-inbox.js';
import { eventually, fillCart, placeOrder, signInThroughInbox } from './shopper.js';
import { createTestApp, databaseTargets, type TestApp } from './test-app.js';
import { testProduct } from './test-products.js';
import { serverCommand } from '../support/server-code.js';

for (const target of databaseTargets) {
  describe(`a BGN shop converted to euro [${target}]`, () => {
    let inbox: SmtpInbox;
    let bgnShop: TestApp;
    beforeAll(async () => {
      inbox = await startSmtpInbox();
      bgnShop = await createTestApp(target, { SMTP_URL: inbox.url });
    });
    afterAll(async () => {
      await bgnShop?.close();
      await inbox?.close();
    });

    it('converts every price once, half-up to the cent, with carts following and past orders kept in BGN', async () => {
      const { db } = bgnShop.database;
      await checkCatalogueCurrency(db, 'BGN');
      const [kit, tips] = await db
        .insert(products)
        .values([testProduct({ name: 'Gel Kit', priceMinor: 6900 }), testProduct({ name: 'Almond Tips', priceMinor: 599 })])
        .returning({ id: products.id });
      const cookie = await signInThroughInbox(bgnShop, inbox, 'before@example.com');
      await fillCart(bgnShop, cookie, [kit!.id]);
      const bgnOrder = await placeOrder(bgnShop, cookie);
      expect(bgnOrder).toMatchObject({ currency: 'BGN', pricing: { subtotal: 6900, total: 6900 + 345 + 599 } });
      await fillCart(bgnShop, cookie, [tips!.id]);

      const changes = await convertCatalogueToEuro(db);
      expect(changes).toEqual([
        { name: 'Almond Tips', beforeMinor: 599, afterMinor: 306 },
        { name: 'Gel Kit', beforeMinor: 6900, afterMinor: 3528 },
      ]);
      // The cart remembers the converted price, so it shows no change that is not one.
      expect((await db.select({ priceMinor: cartItems.priceMinor }).from(cartItems)).map((line) => line.priceMinor)).toEqual([306]);
      expect(await convertCatalogueToEuro(db)).toBeNull();
      expect((await db.select({ priceMinor: products.priceMinor }).from(products).where(eq(products.id, kit!.id)))[0]!.priceMinor).toBe(3528);
      await expect(checkCatalogueCurrency(db, 'BGN')).rejects.toThrow(CurrencyMismatchError);
      await checkCatalogueCurrency(db, 'EUR');

      // The same database served as a euro shop: new orders in euro, the old one still in BGN. The BGN
      // shop's mail worker stops, so that the euro shop's writes the e-mails.
      await bgnShop.app.mailWorker.stop();
      const euroShop = await createTestApp(target, { SMTP_URL: inbox.url, SHOP_CURRENCY: 'EUR', SHIPPING_FEE: '3.06', SHOW_BGN_EQUIVALENT: 'true' }, { databaseUrl: bgnShop.databaseUrl, database: bgnShop.database });
      try {
        const cart = (await euroShop.app.inject({ method: 'GET', url: '/api/cart', headers: { cookie } })).json<CartResponse>();
        expect(cart.items.map((item) => [item.priceMinor, item.addedPriceMinor])).toEqual([[306, 306]]);
        const euroOrder = await placeOrder(euroShop, cookie, { language: 'bg' });
        expect(euroOrder).toMatchObject({ currency: 'EUR', pricing: { subtotal: 306, tax: 15, shipping: 306, total: 627 } });
        const orders = (await euroShop.app.inject({ method: 'GET', url: '/api/orders', headers: { cookie } })).json<{ orders: Order[] }>().orders;
        expect(Object.fromEntries(orders.map((order) => [order.orderId, order.currency]))).toEqual({ [bgnOrder.orderId]: 'BGN', [euroOrder.orderId]: 'EUR' });
        const confirmation = await inbox.waitForMail('before@example.com', 10_000, (mail) => mail.subject.includes(euroOrder.orderId));
        expect(confirmation.body).toContain('Общо: 6,27 € / 12,26 лв.');
      } finally {
        await euroShop.app.close();
      }
    });
  });
}

describe.each(databaseTargets)('prices that include VAT, and cash on delivery [%s]', (target) => {
  let inbox: SmtpInbox;
  let shop: TestApp;
  let admin: string;
  let product: string;
  beforeAll(async () => {
    inbox = await startSmtpInbox();
    shop = await createTestApp(target, {
      SMTP_URL: inbox.url,
      SHOP_CURRENCY: 'EUR',
      TAX_RATE: '0.2',
      PRICES_INCLUDE_TAX: 'true',
      SHIPPING_FEE: '4.50',
      COD_FEE: '1.99',
      PAYMENT_METHODS: 'card,cash_on_delivery',
      STATUS_MAIL_DELAY_SECONDS: '0',
    });
    [{ id: product }] = (await shop.database.db.insert(products).values(testProduct({ name: 'Pearl Set', priceMinor: 1738 })).returning({ id: products.id })) as [{ id: string }];
    await addAdmin(shop.database.db, 'owner@shop.test');
    admin = await signInThroughInbox(shop, inbox, 'owner@shop.test');
  });
  afterAll(async () => {
    await shop?.close();
    await inbox?.close();
  });

  it('charges the final price with the fee, needs no online payment, and takes the cash the admin records', async () => {
    const cookie = await signInThroughInbox(shop, inbox, 'cash@example.com');
    await fillCart(shop, cookie, [product, product]);
    const order = await placeOrder(shop, cookie, { paymentMethod: 'cash_on_delivery' });
    // 34.76 + 4.50 + 1.99 = 41.25, of which 20% VAT is 6.88 (41.25 × 20 / 120 = 6.875).
    expect(order).toMatchObject({
      currency: 'EUR',
      paymentMethod: 'cash_on_delivery',
      checkoutUrl: null,
      pricing: { subtotal: 3476, shipping: 450, fee: 199, total: 4125, tax: 688, taxIncluded: true, taxRateBasisPoints: 2000 },
    });
    const confirmation = await inbox.waitForMail('cash@example.com', 10_000, (mail) => mail.subject.includes(order.orderId));
    expect(confirmation.body).toContain('You pay €41.25 in cash to the courier when the order is delivered.');
    expect(confirmation.body).toContain('Cash on delivery fee: €1.99');
    expect(confirmation.body).toContain('Incl. VAT (20%): €6.88');
    expect(confirmation.body).not.toContain('Pay now');
    // Each line is quantity × unit price = line total; the total is the last, bold row, and the VAT it contains a plain row above it.
    const text = confirmation.body.replace(/\u00a0/g, ' ');
    expect(text).toContain('Pearl Set: 2 × €17.38 = €34.76');
    expect(text).toMatch(/Incl\. VAT \(20%\): €6\.88\r?\nTotal: €41\.25\r?\n/);
    expect([...text.matchAll(/font-weight:bold;font-size:17px[^"]*">([^<]*)</g)].map((match) => match[1])).toEqual(['Total', '€41.25']);

    const online = await shop.app.inject({ method: 'POST', url: `/api/orders/${order.orderId}/payment`, headers: { cookie }, payload: { method: 'card', cardLast4: '4242' } });
    expect(online.statusCode).toBe(409);
    expect(online.json().error.code).toBe('order_not_payable');
    const early = await shop.app.inject({ method: 'POST', url: `/api/admin/orders/${order.orderId}/cash-payment`, headers: { cookie } });
    expect(early.statusCode).toBe(403);

    const recorded = await shop.app.inject({ method: 'POST', url: `/api/admin/orders/${order.orderId}/cash-payment`, headers: { cookie: admin } });
    expect(recorded.statusCode).toBe(200);
    const detail = recorded.json<AdminOrderDetail>();
    expect(detail.order.status).toBe('delivered');
    expect(detail.order.payment).toMatchObject({ method: 'cash_on_delivery', amountMinor: 4125 });
    const again = await shop.app.inject({ method: 'POST', url: `/api/admin/orders/${order.orderId}/cash-payment`, headers: { cookie: admin } });
    expect(again.statusCode).toBe(409);
    const receipt = await inbox.waitForMail('cash@example.com', 10_000, (mail) => mail.subject.startsWith('Payment received'));
    expect(receipt.body).toContain('Paid by: Cash on delivery');
    await eventually(async () => (await shop.database.db.select().from(mailQueue).where(eq(mailQueue.orderId, order.orderId))).every((row) => row.state === 'sent'));
  });

  it('refuses a payment method the shop does not offer, writing nothing', async () => {
    const cookie = await signInThroughInbox(shop, inbox, 'link@example.com');
    await fillCart(shop, cookie, [product]);
    const response = await shop.app.inject({ method: 'POST', url: '/api/orders', headers: { cookie }, payload: { idempotencyKey: 'k'.repeat(20), paymentMethod: 'pay_by_link', acceptTerms: true, expectedTotalMinor: 1738 + 450 } });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('payment_method_unavailable');
    expect((await shop.app.inject({ method: 'GET', url: '/api/orders', headers: { cookie } })).json().orders).toEqual([]);
  });

  it('prices the card order without the fee', async () => {
    const cookie = await signInThroughInbox(shop, inbox, 'card@example.com');
    await fillCart(shop, cookie, [product]);
    const order = await placeOrder(shop, cookie, { paymentMethod: 'card' });
    expect(order.pricing).toMatchObject({ subtotal: 1738, shipping: 450, fee: 0, total: 2188, tax: 365 });
  });
});

describe('npm run currency:euro', () => {
  it('refuses while a server holds the embedded database, then converts once', { timeout: 60_000 }, async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'shop-currency-'));
    try {
      const command = () => spawnSync(process.execPath, serverCommand('currency-cli.ts'), { cwd: projectPath(), env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' }, encoding: 'utf8' });
      const held = await openDatabase({ dataDir });
      await held.db.insert(products).values(testProduct({ name: 'Gel Kit', priceMinor: 6900 }));
      const refused = command();
      expect(refused.status).toBe(1);
      expect(refused.stderr).toMatch(/in use/i);
      await held.close();

      const first = command();
      expect(first.status, first.stderr).toBe(0);
      expect(first.stderr).toContain('Gel Kit: BGN 69.00 → €35.28');
      expect(first.stderr).toContain('SHIPPING_FEE=3.06');
      const second = command();
      expect(second.status).toBe(0);
      expect(second.stderr).toContain('already priced in euro');
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

for (const target of databaseTargets) {
  describe(`a shop that charges no tax [${target}]`, () => {
    let inbox: SmtpInbox;
    let shop: TestApp;
    beforeAll(async () => {
      inbox = await startSmtpInbox();
      // A seller not registered for VAT charges none: TAX_RATE=0, without a VAT number.
      shop = await createTestApp(target, { SMTP_URL: inbox.url, SHOP_CURRENCY: 'EUR', TAX_RATE: '0', PRICES_INCLUDE_TAX: 'true', SHIPPING_FEE: '4.50' });
    });
    afterAll(async () => {
      await shop?.close();
      await inbox?.close();
    });

    it('shows no tax row in the order e-mail, neither added nor included', async () => {
      const [{ id: product }] = (await shop.database.db.insert(products).values(testProduct({ name: 'Lilac Set', priceMinor: 2000 })).returning({ id: products.id })) as [{ id: string }];
      const cookie = await signInThroughInbox(shop, inbox, 'untaxed@example.com');
      await fillCart(shop, cookie, [product]);
      const order = await placeOrder(shop, cookie);
      expect(order.pricing).toMatchObject({ subtotal: 2000, tax: 0, total: 2450, taxRateBasisPoints: 0 });
      const confirmation = await inbox.waitForMail('untaxed@example.com', 10_000, (mail) => mail.subject.includes(order.orderId));
      const text = confirmation.body.replace(/\u00a0/g, ' ');
      expect(text).toContain('Total: €24.50');
      expect(text.split('\n').filter((line) => /VAT|Tax/.test(line))).toEqual([]);
    });
  });
}
