import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import type { Address } from '#shared/addresses.js';
import type { CartResponse } from '#shared/cart.js';
import { priceLines } from '#shared/pricing.js';
import type { Order } from '#shared/orders.js';
import { orders, payments, products } from '#server/db/schema.js';
import { termsVersion } from '#server/legal/service.js';
import { sofia } from './sample-data.js';
import { signIn } from './sign-in.js';
import { describeEachDatabase, type TestApp } from './test-app.js';
import { testProduct } from './test-products.js';

const key = () => randomUUID().replace(/-/g, '');

async function addToCart(testApp: TestApp, cookie: string, productIds: string[]) {
  const operations = productIds.map((productId) => ({ id: key(), type: 'add', productId }));
  await testApp.app.inject({ method: 'POST', url: '/api/cart/operations', headers: { cookie }, payload: { operations } });
}

const cartOf = async (testApp: TestApp, cookie: string) =>
  (await testApp.app.inject({ method: 'GET', url: '/api/cart', headers: { cookie } })).json<CartResponse>().items;

/** Places an order confirming the total the cart shows now, as the checkout page does, unless the payload names one. */
async function place(testApp: TestApp, cookie: string, payload: object) {
  const expectedTotalMinor = priceLines(await cartOf(testApp, cookie)).total;
  return testApp.app.inject({ method: 'POST', url: '/api/orders', headers: { cookie }, payload: { acceptTerms: true, expectedTotalMinor, ...payload } });
}

async function saveAddress(testApp: TestApp, cookie: string, city: string): Promise<Address[]> {
  const response = await testApp.app.inject({ method: 'POST', url: '/api/addresses', headers: { cookie }, payload: { ...sofia, city } });
  return response.json<{ addresses: Address[] }>().addresses;
}

describeEachDatabase('orders', (context) => {
  let ring: string;
  let oil: string;
  beforeAll(async () => {
    const rows = await context()
      .database.db.insert(products)
      .values([
        testProduct({ name: 'Ring Set', description: 'x', priceMinor: 1999 }),
        testProduct({ name: 'Cuticle Oil', description: 'x', priceMinor: 1 }),
      ])
      .returning({ id: products.id });
    [ring, oil] = rows.map((row) => row.id) as [string, string];
  });

  it('places an order from the server cart at current prices, ignoring what the browser says about money', async () => {
    const testApp = context();
    const cookie = await signIn(testApp, 'buyer@example.com');
    const [address] = await saveAddress(testApp, cookie, 'Sofia');
    await addToCart(testApp, cookie, [ring, oil, ring]);
    await testApp.database.db.update(products).set({ priceMinor: 2099 }).where(eq(products.id, ring));

    const response = await place(testApp, cookie, {
      idempotencyKey: key(),
      paymentMethod: 'card',
      pricing: { subtotal: 1, tax: 0, shipping: 0, total: 1 },
      total: 1,
      items: [{ name: 'Ring Set', price: 0.01 }],
    });
    expect(response.statusCode).toBe(201);
    const order = response.json<{ order: Order }>().order;
    expect(order.pricing).toEqual(priceLines([{ priceMinor: 2099, quantity: 2 }, { priceMinor: 1, quantity: 1 }]));
    expect(order.pricing).toMatchObject({ subtotal: 4199, tax: 210, shipping: 599, fee: 0, total: 5008, taxIncluded: false });
    expect(order.currency).toBe('BGN');
    expect(order).toMatchObject({
      orderId: expect.stringMatching(/^NA-[A-Z2-9]{8}$/),
      customerEmail: 'buyer@example.com',
      status: 'pending',
      paymentMethod: 'card',
      payment: null,
      itemSummary: { count: 3, description: 'Ring Set × 2, Cuticle Oil' },
      shippingAddress: { fullName: 'Maria Ivanova', city: 'Sofia', phone: '+359 88 812 3456' },
    });
    expect(order.checkoutUrl).toBe(`http://shop.test/mock-payment/${order.orderId}?method=card`);
    expect(order.items.map((item) => [item.name.en, item.priceMinor, item.quantity])).toEqual([
      ['Ring Set', 2099, 2],
      ['Cuticle Oil', 1, 1],
    ]);
    expect(address!.isDefault).toBe(true);
    expect(await cartOf(testApp, cookie)).toEqual([]);
  });

  it('places an order only when the customer accepts the terms, and records which terms and when', async () => {
    const testApp = context();
    const cookie = await signIn(testApp, 'terms@example.com');
    await saveAddress(testApp, cookie, 'Sofia');
    await addToCart(testApp, cookie, [oil]);
    for (const acceptTerms of [undefined, false, 'yes']) {
      const refused = await place(testApp, cookie, { idempotencyKey: key(), acceptTerms });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.message).toBe('acceptTerms: checkout.errors.termsRequired');
    }
    expect(await cartOf(testApp, cookie)).toHaveLength(1);
    const placed = await place(testApp, cookie, { idempotencyKey: key() });
    expect(placed.statusCode).toBe(201);
    const [row] = await testApp.database.db.select().from(orders).where(eq(orders.id, placed.json<{ order: Order }>().order.orderId));
    expect(row!.termsVersion).toBe(termsVersion(testApp.config));
    expect(row!.termsVersion).toMatch(/^[0-9a-f]{12}$/);
    expect(Date.now() - row!.termsAcceptedAt!.getTime()).toBeLessThan(60_000);
  });

  it('refuses an empty cart and a missing address, leaving the cart as it was', async () => {
    const testApp = context();
    const cookie = await signIn(testApp, 'nothing@example.com');
    const empty = await place(testApp, cookie, { idempotencyKey: key() });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toEqual({ code: 'cart_empty', message: 'User email and cart items are required' });
    await addToCart(testApp, cookie, [oil]);
    const noAddress = await place(testApp, cookie, { idempotencyKey: key() });
    expect(noAddress.json().error).toEqual({ code: 'address_required', message: 'Shipping address is required' });
    expect(await cartOf(testApp, cookie)).toHaveLength(1);
  });

  it('ships to the supplied address, else the default, never to another customer’s', async () => {
    const testApp = context();
    const cookie = await signIn(testApp, 'mover@example.com');
    const stranger = await signIn(testApp, 'stranger@example.com');
    const [strangersAddress] = await saveAddress(testApp, stranger, 'Burgas');
    await saveAddress(testApp, cookie, 'Sofia');
    const [sofiaAddress] = await saveAddress(testApp, cookie, 'Varna');

    await addToCart(testApp, cookie, [oil]);
    const theirs = await place(testApp, cookie, { idempotencyKey: key(), addressId: strangersAddress!.id });
    expect(theirs.json().error.code).toBe('address_required');
    const chosen = await place(testApp, cookie, { idempotencyKey: key(), addressId: sofiaAddress!.id });
    expect(chosen.json<{ order: Order }>().order.shippingAddress.city).toBe('Sofia');
    await addToCart(testApp, cookie, [oil]);
    const byDefault = await place(testApp, cookie, { idempotencyKey: key() });
    expect(byDefault.json<{ order: Order }>().order.shippingAddress.city).toBe('Varna');
  });

  it('places one order for a repeated request, even when the copies arrive together', async () => {
    const testApp = context();
    const cookie = await signIn(testApp, 'double-click@example.com');
    await saveAddress(testApp, cookie, 'Sofia');
    await addToCart(testApp, cookie, [ring]);
    const idempotencyKey = key();
    const responses = await Promise.all([1, 2, 3].map(() => place(testApp, cookie, { idempotencyKey })));
    const ids = responses.map((response) => response.json<{ order: Order }>().order.orderId);
    expect(new Set(ids).size).toBe(1);
    expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 200, 201]);
    const retry = await place(testApp, cookie, { idempotencyKey });
    expect(retry.json<{ order: Order }>().order.orderId).toBe(ids[0]);
    // Repeated after the cart was filled again: still the first order, and the new line stays in the cart.
    await addToCart(testApp, cookie, [ring]);
    const afterRefill = await place(testApp, cookie, { idempotencyKey });
    expect(afterRefill.statusCode).toBe(200);
    expect(afterRefill.json<{ order: Order }>().order.orderId).toBe(ids[0]);
    const stored = await testApp.database.db.select().from(orders).where(eq(orders.customerEmail, 'double-click@example.com'));
    expect(stored).toHaveLength(1);
    expect(await cartOf(testApp, cookie)).toHaveLength(1);
  });

  it('leaves no order and the cart intact when anything fails inside the transaction', async () => {
    const testApp = context();
    const cookie = await signIn(testApp, 'unlucky@example.com');
    await saveAddress(testApp, cookie, 'Sofia');
    await addToCart(testApp, cookie, [ring, oil]);
    await testApp.database.db.execute(
      sql.raw(`create or replace function refuse_order_items() returns trigger language plpgsql as $$
        begin raise exception 'order items are refused for this test'; end $$`),
    );
    await testApp.database.db.execute(sql.raw('create trigger refuse_order_items before insert on order_items for each row execute function refuse_order_items()'));
    try {
      const response = await place(testApp, cookie, { idempotencyKey: key() });
      expect(response.statusCode).toBe(500);
      expect(response.json().error.code).toBe('internal');
    } finally {
      await testApp.database.db.execute(sql`drop trigger refuse_order_items on order_items`);
    }
    expect(await testApp.database.db.select().from(orders).where(eq(orders.customerEmail, 'unlucky@example.com'))).toEqual([]);
    expect((await cartOf(testApp, cookie)).map((item) => item.name.en)).toEqual(['Ring Set', 'Cuticle Oil']);
  });

  it('shows customers only their own orders', async () => {
    const testApp = context();
    const owner = await signIn(testApp, 'owner-of-order@example.com');
    const other = await signIn(testApp, 'curious@example.com');
    await saveAddress(testApp, owner, 'Sofia');
    await addToCart(testApp, owner, [oil]);
    const order = (await place(testApp, owner, { idempotencyKey: key() })).json<{ order: Order }>().order;

    const peek = await testApp.app.inject({ method: 'GET', url: `/api/orders/${order.orderId}`, headers: { cookie: other } });
    expect(peek.statusCode).toBe(403);
    expect(peek.body).not.toContain('Sofia');
    expect(peek.body).not.toContain('owner-of-order');
    const pay = await testApp.app.inject({ method: 'POST', url: `/api/orders/${order.orderId}/payment`, headers: { cookie: other }, payload: { method: 'card', cardLast4: '4242' } });
    expect(pay.statusCode).toBe(404);
    const list = await testApp.app.inject({ method: 'GET', url: '/api/orders', headers: { cookie: other } });
    expect(list.json()).toEqual({ orders: [] });
    const missing = await testApp.app.inject({ method: 'GET', url: '/api/orders/NA-NOTHERE1', headers: { cookie: other } });
    expect(missing.statusCode).toBe(404);
    const anonymous = await testApp.app.inject({ method: 'GET', url: `/api/orders/${order.orderId}` });
    expect(anonymous.statusCode).toBe(401);
  });

  it('records a card payment of the order’s own total, with only the last four digits, and marks it paid once', async () => {
    const testApp = context();
    const cookie = await signIn(testApp, 'payer@example.com');
    await saveAddress(testApp, cookie, 'Sofia');
    await addToCart(testApp, cookie, [ring]);
    const order = (await place(testApp, cookie, { idempotencyKey: key(), paymentMethod: 'card' })).json<{ order: Order }>().order;
    const url = `/api/orders/${order.orderId}/payment`;

    for (const payload of [{}, { method: 'cash' }, { method: 'card', cardLast4: '42424242' }]) {
      const refused = await testApp.app.inject({ method: 'POST', url, headers: { cookie }, payload });
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect((await testApp.app.inject({ method: 'POST', url, headers: { cookie } })).json().error.message).toBe(
      'Order ID and payment information are required',
    );
    const unknown = await testApp.app.inject({ method: 'POST', url: '/api/orders/NA-UNKNOWN1/payment', headers: { cookie }, payload: { method: 'card', cardLast4: '1234' } });
    expect(unknown.statusCode).toBe(404);

    const paid = await testApp.app.inject({
      method: 'POST',
      url,
      headers: { cookie },
      payload: { method: 'card', cardLast4: '4242', cardNumber: '4242424242424242', amountMinor: 1 },
    });
    expect(paid.statusCode).toBe(200);
    const paidOrder = paid.json<{ order: Order }>().order;
    expect(paidOrder.status).toBe('paid');
    expect(paidOrder.payment).toEqual({
      paymentId: expect.stringMatching(/^pay_/),
      method: 'card',
      amountMinor: order.pricing.total,
      processedAt: expect.any(String),
      cardLast4: '4242',
    });
    expect(Date.parse(paidOrder.statusTimes.paid!)).toBeGreaterThanOrEqual(Date.parse(order.createdAt));
    expect(Date.parse(paidOrder.updatedAt)).toBeGreaterThanOrEqual(Date.parse(paidOrder.statusTimes.paid!));

    const again = await testApp.app.inject({ method: 'POST', url, headers: { cookie }, payload: { method: 'card', cardLast4: '9999' } });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('order_not_payable');
    const stored = await testApp.database.db.select().from(payments).where(eq(payments.orderId, order.orderId));
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain('42424242');
  });

  it('pays only a pending order: a cancelled or sent one answers 409 and keeps its status, even for the simulated provider', async () => {
    const testApp = context();
    const cookie = await signIn(testApp, 'late-payer@example.com');
    await saveAddress(testApp, cookie, 'Sofia');
    for (const status of ['cancelled', 'sent', 'preparing'] as const) {
      await addToCart(testApp, cookie, [oil]);
      const order = (await place(testApp, cookie, { idempotencyKey: key() })).json<{ order: Order }>().order;
      await testApp.database.db.update(orders).set({ status, createdAt: sql`now() - interval '1 minute'` }).where(eq(orders.id, order.orderId));

      const paid = await testApp.app.inject({ method: 'POST', url: `/api/orders/${order.orderId}/payment`, headers: { cookie }, payload: { method: 'pay_by_link' } });
      expect(paid.statusCode, status).toBe(409);
      expect(paid.json().error.code).toBe('order_not_payable');
      // The payment page's poll, past the simulated provider's 30 seconds, leaves it as it is too.
      const polled = (await testApp.app.inject({ method: 'GET', url: `/api/orders/${order.orderId}`, headers: { cookie } })).json<{ order: Order }>().order;
      expect(polled.status).toBe(status);
      expect(polled.payment).toBeNull();
    }
    expect(await testApp.database.db.select().from(payments).innerJoin(orders, eq(orders.id, payments.orderId)).where(eq(orders.customerEmail, 'late-payer@example.com'))).toEqual([]);
  });

  it('refuses an order whose total is not the one the customer confirmed, writing nothing and keeping the cart', async () => {
    const testApp = context();
    const cookie = await signIn(testApp, 'careful@example.com');
    await saveAddress(testApp, cookie, 'Sofia');
    const [cheap] = await testApp.database.db.insert(products).values(testProduct({ name: 'Glitter Jar', description: 'x', priceMinor: 1649 })).returning();
    await addToCart(testApp, cookie, [cheap!.id]);
    const seen = priceLines([{ priceMinor: 1649, quantity: 1 }]).total;
    await testApp.database.db.update(products).set({ priceMinor: 5849 }).where(eq(products.id, cheap!.id));

    const idempotencyKey = key();
    const refused = await testApp.app.inject({ method: 'POST', url: '/api/orders', headers: { cookie }, payload: { idempotencyKey, acceptTerms: true, expectedTotalMinor: seen } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('price_changed');
    expect(await testApp.database.db.select().from(orders).where(eq(orders.customerEmail, 'careful@example.com'))).toEqual([]);

    // The cart shows the new price beside the one the line was added at, and the new total can be confirmed.
    const [line] = await cartOf(testApp, cookie);
    expect(line).toMatchObject({ name: { en: 'Glitter Jar', bg: '' }, priceMinor: 5849, addedPriceMinor: 1649 });
    const confirmed = await testApp.app.inject({ method: 'POST', url: '/api/orders', headers: { cookie }, payload: { idempotencyKey, acceptTerms: true, expectedTotalMinor: priceLines([{ priceMinor: 5849, quantity: 1 }]).total } });
    expect(confirmed.statusCode).toBe(201);
    expect(confirmed.json<{ order: Order }>().order.pricing.total).toBe(priceLines([{ priceMinor: 5849, quantity: 1 }]).total);

    const missing = await testApp.app.inject({ method: 'POST', url: '/api/orders', headers: { cookie }, payload: { idempotencyKey: key() } });
    expect(missing.statusCode).toBe(400);
  });

  it('has the simulated provider pay a pay-by-link order left open for over 30 seconds, but not a card order', async () => {
    const testApp = context();
    const cookie = await signIn(testApp, 'patient@example.com');
    await saveAddress(testApp, cookie, 'Sofia');
    await addToCart(testApp, cookie, [oil]);
    const link = (await place(testApp, cookie, { idempotencyKey: key() })).json<{ order: Order }>().order;
    await addToCart(testApp, cookie, [oil]);
    const card = (await place(testApp, cookie, { idempotencyKey: key(), paymentMethod: 'card' })).json<{ order: Order }>().order;
    const get = async (orderId: string) =>
      (await testApp.app.inject({ method: 'GET', url: `/api/orders/${orderId}`, headers: { cookie } })).json<{ order: Order }>().order;

    expect((await get(link.orderId)).status).toBe('pending');
    await testApp.database.db.execute(sql`update orders set created_at = now() - interval '31 seconds' where customer_email = 'patient@example.com'`);
    const settled = await get(link.orderId);
    expect(settled.status).toBe('paid');
    expect(settled.payment).toMatchObject({ method: 'pay_by_link', amountMinor: link.pricing.total });
    expect(settled.payment).not.toHaveProperty('cardLast4');
    expect((await get(card.orderId)).status).toBe('pending');

    const listed = (await testApp.app.inject({ method: 'GET', url: '/api/orders', headers: { cookie } })).json<{ orders: Order[] }>().orders;
    expect(listed.map((order) => [order.orderId, order.status])).toEqual([
      [card.orderId, 'pending'],
      [link.orderId, 'paid'],
    ]);
  });
});
