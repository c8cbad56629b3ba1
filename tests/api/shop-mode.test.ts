import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Product } from '#shared/catalog.js';
import type { Order } from '#shared/orders.js';
import type { PublicSettings } from '#shared/settings.js';
import { orders, products } from '#server/db/schema.js';
import { prepareShop } from '#server/prepare-shop.js';
import { placeOrder, fillCart } from './shopper.js';
import { signIn } from './sign-in.js';
import { createTestApp, databaseTargets, type TestApp } from './test-app.js';
import { testProduct } from './test-products.js';

/** A shop as `npm start` makes it: the app, then what a start does to its database. */
async function startShop(target: (typeof databaseTargets)[number], environment: Record<string, string>): Promise<TestApp> {
  const testApp = await createTestApp(target, environment);
  await prepareShop(testApp.config, testApp.database, testApp.images, testApp.app.log);
  return testApp;
}

/** The settings the server writes into the page for the browser. */
async function pageSettings(testApp: TestApp): Promise<PublicSettings> {
  const page = (await testApp.app.inject({ method: 'GET', url: '/' })).body;
  return JSON.parse(/<script id="shop-settings" type="application\/json">(.*?)<\/script>/s.exec(page)![1]!) as PublicSettings;
}

const catalogue = async (testApp: TestApp) => (await testApp.app.inject({ method: 'GET', url: '/api/products' })).json<{ products: Product[]; total: number }>();

for (const target of databaseTargets) {
  describe(`demo and live shops [${target}]`, () => {
    let testApp: TestApp | undefined;
    afterEach(async () => {
      await testApp?.close();
      testApp = undefined;
    });

    it('a first start is the demo: the demo catalogue on the empty database, the banner and the simulated payments', async () => {
      testApp = await startShop(target, {});
      expect((await catalogue(testApp)).total).toBeGreaterThanOrEqual(12);
      expect(await pageSettings(testApp)).toMatchObject({ shopMode: 'demo', paymentMethods: ['pay_by_link', 'card'] });
    });

    it('a live shop on an empty database has no products, no banner, and takes cash on delivery only', async () => {
      testApp = await startShop(target, { SHOP_MODE: 'live' });
      expect(await catalogue(testApp)).toMatchObject({ products: [], total: 0 });
      expect(await testApp.database.db.select().from(products)).toEqual([]);
      const settings = await pageSettings(testApp);
      expect(settings).toMatchObject({ shopMode: 'live', paymentMethods: ['cash_on_delivery'] });
      // The browser sees only the allowlisted settings.
      expect(Object.keys(settings).sort()).toEqual(['bankAccount', 'deliveryMethods', 'devMailbox', 'paymentMethods', 'paymentProvider', 'pricing', 'publicUrl', 'shopMode', 'supportEmail', 'showBgnEquivalent'].sort());

      // A simulated payment is neither offered nor settled, not even for an order placed while the shop was a demo.
      const [product] = await testApp.database.db.insert(products).values(testProduct({ name: 'Gold Foil', priceMinor: 1000 })).returning();
      const cookie = await signIn(testApp, 'first-customer@example.com');
      await fillCart(testApp, cookie, [product!.id]);
      const refused = await testApp.app.inject({ method: 'POST', url: '/api/orders', headers: { cookie }, payload: { idempotencyKey: 'k'.repeat(32), acceptTerms: true, paymentMethod: 'card', expectedTotalMinor: 1 } });
      expect(refused.json()).toMatchObject({ error: { code: 'payment_method_unavailable' } });
      const order: Order = await placeOrder(testApp, cookie, { paymentMethod: 'cash_on_delivery' });
      await testApp.database.db.update(orders).set({ paymentMethod: 'pay_by_link', status: 'pending', createdAt: new Date(Date.now() - 60_000) }).where(eq(orders.id, order.orderId));
      const paid = await testApp.app.inject({ method: 'POST', url: `/api/orders/${order.orderId}/payment`, headers: { cookie }, payload: { method: 'pay_by_link' } });
      expect(paid.json()).toMatchObject({ error: { code: 'payment_method_unavailable' } });
      const polled = await testApp.app.inject({ method: 'GET', url: `/api/orders/${order.orderId}`, headers: { cookie } });
      expect(polled.json<{ order: Order }>().order).toMatchObject({ status: 'pending', payment: null });
    });

    it('a live shop keeps the simulated payments the owner keeps explicitly', async () => {
      testApp = await startShop(target, { SHOP_MODE: 'live', PAYMENT_METHODS: 'cash_on_delivery,card', KEEP_SIMULATED_PAYMENTS: 'true' });
      expect(await pageSettings(testApp)).toMatchObject({ shopMode: 'live', paymentMethods: ['cash_on_delivery', 'card'] });
      expect((await catalogue(testApp)).total).toBe(0);
    });
  });
}

describe(`a live shop's start [${databaseTargets[0]}]`, () => {
  it('warns when its prices charge VAT and it has no VAT number, which its invoices would contradict', async () => {
    const warningsOf = async (environment: Record<string, string>) => {
      const testApp = await createTestApp(databaseTargets[0]!, environment);
      try {
        const warn = vi.fn();
        await prepareShop(testApp.config, testApp.database, testApp.images, { info: vi.fn(), warn } as unknown as FastifyBaseLogger);
        return warn.mock.calls.map(([message]) => String(message));
      } finally {
        await testApp.close();
      }
    };
    const charged = await warningsOf({ SHOP_MODE: 'live', TAX_RATE: '0.2' });
    expect(charged).toHaveLength(1);
    expect(charged[0]).toContain('prices charge VAT at 20% (TAX_RATE) while SHOP_VAT_NUMBER is empty');
    expect(await warningsOf({ SHOP_MODE: 'live', TAX_RATE: '0' })).toEqual([]);
    expect(await warningsOf({ SHOP_MODE: 'live', TAX_RATE: '0.2', SHOP_VAT_NUMBER: 'BG123456786' })).toEqual([]);
    // The demo shows the specification's prices, with its VAT, for a seller it does not name.
    expect(await warningsOf({ TAX_RATE: '0.2' })).toEqual([]);
  });
});
