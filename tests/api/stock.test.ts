import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AdminOrderDetail } from '#shared/admin.js';
import type { CartItem, CartOperation } from '#shared/cart.js';
import type { Product } from '#shared/catalog.js';
import type { LiveReadyEvent, StockEvent } from '#shared/live.js';
import { priceLines } from '#shared/pricing.js';
import type { Order } from '#shared/orders.js';
import type { StockChange, StockShortage } from '#shared/stock.js';
import { admins, orderItems, orders, products, stockChanges } from '#server/db/schema.js';
import { openEventStream } from '../support/event-stream.js';
import { pngImage, productForm } from './product-form.js';
import { sofia } from './sample-data.js';
import { someoneWaitsFor } from './lock-waits.js';
import { signIn } from './sign-in.js';
import { describeEachDatabase, type TestApp } from './test-app.js';
import { testProduct } from './test-products.js';

// Pieces are never sold twice: the counts hold with many buyers at once (on PostgreSQL the requests
// really overlap; PGlite runs one query at a time and proves the counts only), cancelling gives
// pieces back once, and the admin's form never undoes a sale.

const opId = () => randomUUID().replace(/-/g, '');

const operate = (testApp: TestApp, cookie: string, operations: CartOperation[]) =>
  testApp.app.inject({ method: 'POST', url: '/api/cart/operations', headers: { cookie }, payload: { operations } });

const cartOf = async (testApp: TestApp, cookie: string) =>
  (await testApp.app.inject({ method: 'GET', url: '/api/cart', headers: { cookie } })).json<{ items: CartItem[] }>().items;

/** Places the order of the cart as the checkout shows it, confirming its total. */
async function checkout(testApp: TestApp, cookie: string): Promise<LightMyRequestResponse> {
  const expectedTotalMinor = priceLines(await cartOf(testApp, cookie)).total;
  return testApp.app.inject({ method: 'POST', url: '/api/orders', headers: { cookie }, payload: { idempotencyKey: opId(), acceptTerms: true, expectedTotalMinor } });
}

/** A signed-in customer with an address and the given pieces in the cart. */
async function customerWith(testApp: TestApp, email: string, lines: Array<[productId: string, quantity: number]>): Promise<string> {
  const cookie = await signIn(testApp, email);
  await testApp.app.inject({ method: 'POST', url: '/api/addresses', headers: { cookie }, payload: sofia });
  const filled = await operate(
    testApp,
    cookie,
    lines.map(([productId, quantity]) => ({ id: opId(), type: 'set', productId, quantity })),
  );
  expect(filled.json().outcomes.every((outcome: { outcome: string }) => outcome.outcome === 'applied'), filled.body).toBe(true);
  return cookie;
}

async function newProduct(testApp: TestApp, name: string, stock: number | null, priceMinor = 2500): Promise<string> {
  const [row] = await testApp.database.db.insert(products).values(testProduct({ name, priceMinor, stock })).returning({ id: products.id });
  return row!.id;
}

const stockOf = async (testApp: TestApp, productId: string) =>
  (await testApp.database.db.select({ stock: products.stock }).from(products).where(eq(products.id, productId)))[0]?.stock;

const serverErrors = (responses: LightMyRequestResponse[]) => responses.filter((response) => response.statusCode >= 500).map((response) => response.body);

describeEachDatabase('stock', (context) => {
  let admin: string;

  beforeAll(async () => {
    const testApp = context();
    await testApp.database.db.insert(admins).values({ id: 'maker@example.com' });
    admin = await signIn(testApp, 'maker@example.com');
  });

  const setStatus = (testApp: TestApp, orderId: string, status: string) =>
    testApp.app.inject({ method: 'PATCH', url: `/api/admin/orders/${orderId}/status`, headers: { cookie: admin }, payload: { status } });

  it('sells a one-of-a-kind piece to exactly one of 200 customers checking out at once; the others are told it is gone', async () => {
    const testApp = context();
    const unique = await newProduct(testApp, 'Opal Moon Set', 1);
    const buyers = await Promise.all(Array.from({ length: 200 }, (_, index) => customerWith(testApp, `rush${index}@example.com`, [[unique, 1]])));

    const answers = await Promise.all(buyers.map((cookie) => checkout(testApp, cookie)));

    expect(serverErrors(answers)).toEqual([]);
    const placed = answers.filter((answer) => answer.statusCode === 201);
    const refused = answers.filter((answer) => answer.statusCode === 409);
    expect(placed).toHaveLength(1);
    expect(refused).toHaveLength(199);
    for (const answer of refused) {
      expect(answer.json().error).toMatchObject({ code: 'stock_short', shortages: [{ productId: unique, name: { en: 'Opal Moon Set', bg: '' }, wanted: 1, left: 0 }] });
    }
    expect(await stockOf(testApp, unique)).toBe(0);
    const sold = await testApp.database.db.select().from(orderItems).where(eq(orderItems.productId, unique));
    expect(sold).toHaveLength(1);
    const ledger = await testApp.database.db.select().from(stockChanges).where(eq(stockChanges.productId, unique));
    expect(ledger.map((entry) => [entry.reason, entry.change, entry.stockAfter, entry.orderId])).toEqual([['sold', -1, 0, sold[0]!.orderId]]);
    // A refused customer keeps the cart, and sees that the piece is gone.
    const winner = buyers[answers.indexOf(placed[0]!)]!;
    const loser = buyers.find((cookie) => cookie !== winner)!;
    expect((await cartOf(testApp, loser)).map((line) => [line.productId, line.quantity, line.stock])).toEqual([[unique, 1, 0]]);
  }, 180_000);

  it('sells never more than 5 pieces to 100 customers buying 1 or 2 at once', async () => {
    const testApp = context();
    const batch = await newProduct(testApp, 'Small Batch Tips', 5);
    const buyers = await Promise.all(
      Array.from({ length: 100 }, async (_, index) => ({ wanted: 1 + (index % 2), cookie: await customerWith(testApp, `batch${index}@example.com`, [[batch, 1 + (index % 2)]]) })),
    );

    const answers = await Promise.all(buyers.map(({ cookie }) => checkout(testApp, cookie)));

    expect(serverErrors(answers)).toEqual([]);
    expect(answers.every((answer) => answer.statusCode === 201 || answer.statusCode === 409)).toBe(true);
    const left = (await stockOf(testApp, batch))!;
    const soldInOrders = answers.reduce((sum, answer, index) => sum + (answer.statusCode === 201 ? buyers[index]!.wanted : 0), 0);
    expect(left).toBeGreaterThanOrEqual(0);
    // Only a two-piece buyer can be refused while a piece is left.
    expect(left).toBeLessThanOrEqual(1);
    expect(soldInOrders).toBe(5 - left);
    const items = await testApp.database.db.select({ quantity: orderItems.quantity }).from(orderItems).where(eq(orderItems.productId, batch));
    expect(items.reduce((sum, item) => sum + item.quantity, 0)).toBe(5 - left);
    for (const answer of answers.filter((response) => response.statusCode === 409)) {
      const [shortage] = answer.json<{ error: { shortages: StockShortage[] } }>().error.shortages;
      expect(shortage!.left).toBeLessThan(shortage!.wanted);
    }
  }, 180_000);

  it('refuses an order with any line short, writing nothing and keeping the cart, and names every short line', async () => {
    const testApp = context();
    const plenty = await newProduct(testApp, 'Plenty Set', 3);
    const pair = await newProduct(testApp, 'Pair Charms', 2);
    const last = await newProduct(testApp, 'Last Lemon', 1);
    const madeToOrder = await newProduct(testApp, 'Custom Set', null);
    const late = await customerWith(testApp, 'late@example.com', [
      [plenty, 2],
      [pair, 2],
      [last, 1],
      [madeToOrder, 4],
    ]);
    const early = await customerWith(testApp, 'early@example.com', [
      [last, 1],
      [pair, 1],
    ]);
    expect((await checkout(testApp, early)).statusCode).toBe(201);

    const refused = await checkout(testApp, late);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.shortages).toEqual(
      expect.arrayContaining([
        { productId: pair, name: { en: 'Pair Charms', bg: '' }, wanted: 2, left: 1 },
        { productId: last, name: { en: 'Last Lemon', bg: '' }, wanted: 1, left: 0 },
      ]),
    );
    expect(refused.json().error.shortages).toHaveLength(2);
    expect(await stockOf(testApp, plenty)).toBe(3);
    expect(await testApp.database.db.select().from(orders).where(eq(orders.customerEmail, 'late@example.com'))).toEqual([]);
    expect((await cartOf(testApp, late)).map((line) => line.quantity)).toEqual([2, 2, 1, 4]);

    // With the short lines set to what is left, the order goes through, and made to order takes any number.
    await operate(testApp, late, [
      { id: opId(), type: 'set', productId: pair, quantity: 1 },
      { id: opId(), type: 'set', productId: last, quantity: 0 },
    ]);
    const placed = await checkout(testApp, late);
    expect(placed.statusCode, placed.body).toBe(201);
    expect(placed.json<{ order: Order }>().order.itemSummary).toEqual({ count: 7, description: 'Plenty Set × 2, Pair Charms, Custom Set × 4' });
    expect([await stockOf(testApp, plenty), await stockOf(testApp, pair), await stockOf(testApp, madeToOrder)]).toEqual([1, 0, null]);
  });

  it('returns the pieces when an order is cancelled, once however often, and takes them again when it is reopened', async () => {
    const testApp = context();
    const gem = await newProduct(testApp, 'Gem Set', 3);
    const custom = await newProduct(testApp, 'Made For You', null);
    const buyer = await customerWith(testApp, 'changes-mind@example.com', [
      [gem, 2],
      [custom, 1],
    ]);
    const order = (await checkout(testApp, buyer)).json<{ order: Order }>().order;
    expect(await stockOf(testApp, gem)).toBe(1);

    for (const status of ['cancelled', 'cancelled']) expect((await setStatus(testApp, order.orderId, status)).statusCode).toBe(200);
    expect(await stockOf(testApp, gem)).toBe(3);

    const reopened = await setStatus(testApp, order.orderId, 'preparing');
    expect(reopened.statusCode).toBe(200);
    expect(await stockOf(testApp, gem)).toBe(1);
    // Moving between open statuses changes no count.
    await setStatus(testApp, order.orderId, 'sent');
    expect(await stockOf(testApp, gem)).toBe(1);
    const cancelledAgain = (await setStatus(testApp, order.orderId, 'cancelled')).json<AdminOrderDetail>();
    expect(await stockOf(testApp, gem)).toBe(3);

    expect(cancelledAgain.stockChanges.map((change) => [change.reason, change.productName.en, change.change, change.stockAfter])).toEqual([
      ['sold', 'Gem Set', -2, 1],
      ['returned', 'Gem Set', 2, 3],
      ['retaken', 'Gem Set', -2, 1],
      ['returned', 'Gem Set', 2, 3],
    ]);
    expect(cancelledAgain.stockChanges.every((change) => change.orderId === order.orderId)).toBe(true);
  });

  it('refuses to reopen a cancelled order whose pieces were sold meanwhile, leaving it cancelled', async () => {
    const testApp = context();
    const single = await newProduct(testApp, 'Single Star', 1);
    const first = await customerWith(testApp, 'first@example.com', [[single, 1]]);
    const order = (await checkout(testApp, first)).json<{ order: Order }>().order;
    await setStatus(testApp, order.orderId, 'cancelled');
    const second = await customerWith(testApp, 'second@example.com', [[single, 1]]);
    expect((await checkout(testApp, second)).statusCode).toBe(201);

    const reopen = await setStatus(testApp, order.orderId, 'paid');
    expect(reopen.statusCode).toBe(409);
    expect(reopen.json().error).toMatchObject({ code: 'stock_short', shortages: [{ productId: single, name: { en: 'Single Star', bg: '' }, wanted: 1, left: 0 }] });
    const detail = (await testApp.app.inject({ method: 'GET', url: `/api/admin/orders/${order.orderId}`, headers: { cookie: admin } })).json<AdminOrderDetail>();
    expect(detail.order.status).toBe('cancelled');
    expect(await stockOf(testApp, single)).toBe(0);
  });

  it('lets the admin set counts, which the form never writes back over a sale, and keeps a history of why each changed', async () => {
    const testApp = context();
    const create = await testApp.app.inject({
      method: 'POST',
      url: '/api/admin/products',
      ...productForm({ nameEn: 'Ruby Set', descriptionEn: 'Red.', price: '30.00', category: 'nails', stock: '2' }, await pngImage(), admin),
    });
    expect(create.statusCode, create.body).toBe(201);
    const ruby = create.json<{ product: Product }>().product;
    expect(ruby.stock).toBe(2);
    const edit = (fields: Record<string, string>) =>
      testApp.app.inject({
        method: 'PUT',
        url: `/api/admin/products/${ruby.id}`,
        ...productForm({ nameEn: 'Ruby Set', descriptionEn: 'Red.', price: '30.00', category: 'nails', ...fields }, undefined, admin),
      });

    // The form was opened at 2; a piece sells; saving the form with the count untouched keeps the sale.
    const buyer = await customerWith(testApp, 'ruby-buyer@example.com', [[ruby.id, 1]]);
    const sale = (await checkout(testApp, buyer)).json<{ order: Order }>().order;
    expect((await edit({ descriptionEn: 'Deep red.', stock: '2', stockSeen: '2' })).json<{ product: Product }>().product).toMatchObject({ stock: 1, description: { en: 'Deep red.', bg: '' } });

    // Changing the count from a stale form is refused with the count now; from a fresh one it is set.
    const stale = await edit({ stock: '5', stockSeen: '2' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error).toMatchObject({ code: 'stock_changed', stock: 1 });
    expect(await stockOf(testApp, ruby.id)).toBe(1);
    expect((await edit({ stock: '5', stockSeen: '1' })).json<{ product: Product }>().product.stock).toBe(5);
    expect((await edit({ stock: '', stockSeen: '5' })).json<{ product: Product }>().product.stock).toBeNull();
    for (const stock of ['-1', '1.5', 'many', '100001']) {
      const bad = await edit({ stock });
      expect(bad.statusCode, stock).toBe(400);
      expect(bad.json().error.code).toBe('bad_request');
    }

    const history = (await testApp.app.inject({ method: 'GET', url: `/api/admin/products/${ruby.id}/stock-changes`, headers: { cookie: admin } })).json<{
      stockChanges: StockChange[];
    }>().stockChanges;
    expect(history.map((change) => [change.reason, change.change, change.stockAfter, change.orderId, change.changedBy])).toEqual([
      ['set', -5, null, null, 'maker@example.com'],
      ['set', 4, 5, null, 'maker@example.com'],
      ['sold', -1, 1, sale.orderId, null],
      ['set', 2, 2, null, 'maker@example.com'],
    ]);
    const customerAsks = await testApp.app.inject({ method: 'GET', url: `/api/admin/products/${ruby.id}/stock-changes`, headers: { cookie: buyer } });
    expect(customerAsks.statusCode).toBe(403);
  });

  it('filters the admin’s product list to sold-out and low-stock products', async () => {
    const testApp = context();
    const names = { 'Filter Gone': 0, 'Filter Low': 3, 'Filter Plenty': 4, 'Filter Custom': null } as const;
    for (const [name, stock] of Object.entries(names)) await newProduct(testApp, name, stock);
    const list = async (query: string) =>
      (await testApp.app.inject({ method: 'GET', url: `/api/admin/products${query}`, headers: { cookie: admin } }))
        .json<{ products: Product[] }>()
        .products.map((product) => product.name.en)
        .filter((name) => name.startsWith('Filter'));
    expect(await list('?stock=soldOut')).toEqual(['Filter Gone']);
    expect(await list('?stock=low')).toEqual(['Filter Low']);
    expect(await list('')).toEqual(['Filter Custom', 'Filter Gone', 'Filter Low', 'Filter Plenty']);
    expect(await list('?stock=whatever')).toEqual(['Filter Custom', 'Filter Gone', 'Filter Low', 'Filter Plenty']);
  });

  it('tells every open page the new counts when an order takes pieces or cancelling returns them, and a new stream the counts now', async () => {
    const testApp = context();
    const address = await testApp.app.listen({ port: 0, host: '127.0.0.1' });
    const live = await newProduct(testApp, 'Live Lily', 2);
    const visitor = await openEventStream(`${address}/api/events`, null, { 'x-forwarded-for': '10.31.0.1' });
    try {
      await visitor.waitFor('ready');
      expect((visitor.data[visitor.events.indexOf('ready')] as LiveReadyEvent).stock[live]).toBe(2);
      const buyer = await customerWith(testApp, 'lily@example.com', [[live, 2]]);
      const order = (await checkout(testApp, buyer)).json<{ order: Order }>().order;
      await visitor.waitFor('stock', 2000);
      expect(visitor.data[visitor.events.lastIndexOf('stock')]).toEqual({ stock: { [live]: 0 } } satisfies StockEvent);
      await setStatus(testApp, order.orderId, 'cancelled');
      await visitor.waitFor('stock', 2000);
      expect(visitor.data[visitor.events.lastIndexOf('stock')]).toEqual({ stock: { [live]: 2 } } satisfies StockEvent);
    } finally {
      visitor.close();
    }
  });

  it('lets checkouts of different products go on while one product’s row is busy', async (test) => {
    const testApp = context();
    // PGlite runs one transaction at a time, so nothing there can go on while a row is held.
    if (testApp.database.kind !== 'postgres') return test.skip();
    const busy = await newProduct(testApp, 'Busy Set', 5);
    const free = await newProduct(testApp, 'Free Set', 5);
    const waiting = await customerWith(testApp, 'waits@example.com', [[busy, 1]]);
    const passing = await customerWith(testApp, 'passes@example.com', [[free, 1]]);
    // Another connection holds the busy product's row, as a long checkout of it would.
    const holder = new pg.Client({ connectionString: testApp.databaseUrl });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('update products set stock = stock where id = $1', [busy]);
      let waitingDone = false;
      const waitingOrder = checkout(testApp, waiting).then((answer) => ((waitingDone = true), answer));
      const started = Date.now();
      const passed = await checkout(testApp, passing);
      expect(passed.statusCode).toBe(201);
      expect(Date.now() - started).toBeLessThan(2000);
      // The other checkout is not merely slow: PostgreSQL has it waiting for the row the holder locked.
      await someoneWaitsFor(holder, 'the checkout of the busy product to wait for its row');
      expect(waitingDone).toBe(false);
      await holder.query('commit');
      expect((await waitingOrder).statusCode).toBe(201);
    } finally {
      await holder.end();
    }
    expect([await stockOf(testApp, busy), await stockOf(testApp, free)]).toEqual([4, 4]);
  });

  afterAll(async () => {
    // The shop's constraint, whatever a bug might try: no count below zero.
    const testApp = context();
    const [negative] = await testApp.database.db.select({ count: sql<number>`count(*)::int` }).from(products).where(sql`${products.stock} < 0`);
    expect(negative!.count).toBe(0);
  });
});
