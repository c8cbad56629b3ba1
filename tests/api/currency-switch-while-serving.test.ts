import { execFile } from 'node:child_process';
import { count, eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CartResponse } from '#shared/cart.js';
import { priceLines } from '#shared/pricing.js';
import { checkCatalogueCurrency, convertCatalogueToEuro } from '#server/catalog/currency.js';
import { orders, products } from '#server/db/schema.js';
import { projectPath } from '#server/project-path.js';
import { eventually, fillCart, operationKey } from './shopper.js';
import { someoneWaitsFor } from './lock-waits.js';
import { signIn } from './sign-in.js';
import { createTestApp, databaseTargets, type TestApp } from './test-app.js';
import { testProduct } from './test-products.js';
import { serverCommand } from '../support/server-code.js';

// `npm run currency:euro` run while BGN servers serve: a server must not go on selling the converted
// prices as leva (a 19.56 BGN item sold as "BGN 10.00"). It hears the change at once and refuses
// prices and orders until restarted with SHOP_CURRENCY=EUR; an order already under way is placed
// before the conversion or refused after it, never priced in one currency and recorded in another.

/** `npm run currency:euro` (its script, without npm around it) on a PostgreSQL database. */
function currencyCommand(databaseUrl: string, args: string[] = []): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      serverCommand('currency-cli.ts', ...args),
      { cwd: projectPath(), env: { ...process.env, NODE_ENV: 'test', DATABASE_URL: databaseUrl }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

const checkout = (testApp: TestApp, cookie: string, expectedTotalMinor: number) =>
  testApp.app.inject({ method: 'POST', url: '/api/orders', headers: { cookie }, payload: { idempotencyKey: operationKey(), acceptTerms: true, expectedTotalMinor } });

for (const target of databaseTargets) {
  describe(`a BGN server whose catalogue is converted to euro while it serves [${target}]`, () => {
    let shop: TestApp;
    let productId: string;
    let customer: string;
    /** What the customer was shown and confirms: 19.56 BGN, with tax and shipping. */
    let bgnTotal: number;

    beforeAll(async () => {
      shop = await createTestApp(target);
      await checkCatalogueCurrency(shop.database.db, 'BGN');
      const [product] = await shop.database.db.insert(products).values(testProduct({ name: 'Pearl Set', priceMinor: 1956 })).returning({ id: products.id });
      productId = product!.id;
      customer = await signIn(shop, 'ana@example.com');
      await fillCart(shop, customer, [productId]);
      const cart = (await shop.app.inject({ method: 'GET', url: '/api/cart', headers: { cookie: customer } })).json<CartResponse>();
      bgnTotal = priceLines(cart.items, shop.config.pricing).total;
    });
    afterAll(async () => {
      await shop?.close();
    });

    it('hears of it at once and refuses the catalogue, the cart and orders with currency_changed, placing none', { timeout: 120_000 }, async () => {
      if (shop.databaseUrl) {
        // Another process's command: refused while this server is connected, done when told --force.
        const refused = await currencyCommand(shop.databaseUrl);
        expect(refused.code, refused.output).toBe(1);
        expect(refused.output).toMatch(/\d+ other session\(s\) are connected to this database/);
        expect(refused.output).toContain('npm run currency:euro -- --force');
        expect((await shop.database.db.select({ priceMinor: products.priceMinor }).from(products).where(eq(products.id, productId)))[0]!.priceMinor).toBe(1956);
        const forced = await currencyCommand(shop.databaseUrl, ['--force']);
        expect(forced.code, forced.output).toBe(0);
        expect(forced.output).toContain('Pearl Set: BGN 19.56 → €10.00');
      } else {
        // The embedded database serves one process: the conversion is made on the server's own handle.
        expect(await convertCatalogueToEuro(shop.database.db)).toEqual([{ name: 'Pearl Set', beforeMinor: 1956, afterMinor: 1000 }]);
      }

      const cart = await eventually(async () => {
        const response = await shop.app.inject({ method: 'GET', url: '/api/cart', headers: { cookie: customer } });
        return response.statusCode === 503 && response;
      }, 10_000, 'the server to refuse the cart');
      expect(cart.json().error.code).toBe('currency_changed');
      for (const expected of [bgnTotal, priceLines([{ priceMinor: 1000, quantity: 1 }], shop.config.pricing).total]) {
        const order = await checkout(shop, customer, expected);
        expect(order.statusCode, order.body).toBe(503);
        expect(order.json().error).toMatchObject({ code: 'currency_changed', message: expect.stringContaining('restart it with SHOP_CURRENCY=EUR') });
      }
      for (const url of ['/api/products', '/api/products/by-slug/pearl-set', '/api/cart/operations']) {
        const response = await shop.app.inject({ method: url.endsWith('operations') ? 'POST' : 'GET', url, headers: { cookie: customer }, payload: url.endsWith('operations') ? { operations: [] } : undefined });
        expect(response.statusCode, url).toBe(503);
      }
      expect((await shop.database.db.select({ n: count() }).from(orders))[0]!.n).toBe(0);
      // A load balancer is told to send visitors elsewhere.
      const ready = await shop.app.inject({ method: 'GET', url: '/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'unavailable', reason: 'currency' });
      // What does not show the catalogue's prices goes on.
      expect((await shop.app.inject({ method: 'GET', url: '/api/orders', headers: { cookie: customer } })).statusCode).toBe(200);
    });
  });
}

describe.runIf(databaseTargets.includes('postgres'))('an order under way while the prices are converted [postgres]', () => {
  let shop: TestApp;
  beforeAll(async () => {
    shop = await createTestApp('postgres');
    // As a server's start records it.
    await checkCatalogueCurrency(shop.database.db, 'BGN');
  });
  afterAll(async () => {
    await shop?.close();
  });

  it('waits for the conversion, then is refused rather than priced in euro and recorded in leva', { timeout: 60_000 }, async () => {
    const [product] = await shop.database.db.insert(products).values(testProduct({ name: 'Gold Tips', priceMinor: 1956 })).returning({ id: products.id });
    const customer = await signIn(shop, 'boris@example.com');
    await fillCart(shop, customer, [product!.id]);
    const cart = (await shop.app.inject({ method: 'GET', url: '/api/cart', headers: { cookie: customer } })).json<CartResponse>();
    const shown = priceLines(cart.items, shop.config.pricing).total;

    // The conversion's transaction, held open: it has the currency lock and has written the euro prices.
    const converter = new pg.Client({ connectionString: shop.databaseUrl });
    await converter.connect();
    try {
      await converter.query('begin');
      await converter.query('select pg_advisory_xact_lock(7260003)');
      await converter.query('update products set price_minor = 1000');
      await converter.query(`update shop_state set value = 'EUR' where key = 'catalogue_currency'`);
      const placing = checkout(shop, customer, shown);
      await someoneWaitsFor(converter, 'the order to wait for the currency lock', 'advisory');
      await converter.query('commit');
      const order = await placing;
      expect(order.statusCode, order.body).toBe(503);
      expect(order.json().error.code).toBe('currency_changed');
    } finally {
      await converter.end();
    }
    expect((await shop.database.db.select({ n: count() }).from(orders))[0]!.n).toBe(0);
  });
});
