import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import type { CartOperation, CartOperationsResponse, CartResponse } from '#shared/cart.js';
import { DEFAULT_LEAD_TIME, EMPTY_CHOICE_SUMMARY, NO_CHOICES } from '#shared/product-options.js';
import { dispatchDate } from '#shared/working-days.js';
import { products } from '#server/db/schema.js';
import { openEventStream } from '../support/event-stream.js';
import { deliverMarker } from './live-marker.js';
import { signIn } from './sign-in.js';
import { describeEachDatabase, type TestApp } from './test-app.js';
import { testProduct } from './test-products.js';

const opId = () => randomUUID().replace(/-/g, '');

async function operate(testApp: TestApp, cookie: string, operations: unknown[]) {
  return testApp.app.inject({ method: 'POST', url: '/api/cart/operations', headers: { cookie }, payload: { operations } });
}

async function cartOf(testApp: TestApp, cookie: string) {
  return (await testApp.app.inject({ method: 'GET', url: '/api/cart', headers: { cookie } })).json<CartResponse>().items;
}

describeEachDatabase('cart', (context) => {
  let rose: { id: string; slug: string };
  let lemon: { id: string; slug: string };
  let alice: string;
  let bob: string;

  beforeAll(async () => {
    const testApp = context();
    [rose, lemon] = await testApp.database.db
      .insert(products)
      .values([
        testProduct({ name: 'Rose Set', description: 'Pink', priceMinor: 2450, category: 'nails' }),
        testProduct({ name: 'Lemon Tips', description: 'Yellow', priceMinor: 1999, category: 'nail-art' }),
      ])
      .returning({ id: products.id, slug: products.slug }) as [{ id: string; slug: string }, { id: string; slug: string }];
    alice = await signIn(testApp, 'alice@example.com');
    bob = await signIn(testApp, 'bob@example.com');
  });

  it('answers 401 to every cart endpoint without a session', async () => {
    const { app } = context();
    for (const [method, url] of [
      ['GET', '/api/cart'],
      ['POST', '/api/cart/operations'],
    ] as const) {
      const response = await app.inject({ method, url, payload: method === 'POST' ? { operations: [] } : undefined });
      expect(response.statusCode, url).toBe(401);
      expect(response.json().error.code).toBe('unauthorized');
    }
  });

  it('adds with the name and price of the product table, whatever the request says', async () => {
    const testApp = context();
    const response = await operate(testApp, alice, [
      { id: opId(), type: 'add', productId: rose.id, name: 'Free stuff', price: 1, priceMinor: 1 },
    ]);
    expect(response.statusCode).toBe(200);
    const body = response.json<CartOperationsResponse>();
    expect(body.outcomes.map((outcome) => outcome.outcome)).toEqual(['applied']);
    expect(body.items).toEqual([
      {
        id: expect.any(String),
        productId: rose.id,
        slug: rose.slug,
        name: { en: 'Rose Set', bg: '' },
        priceMinor: 2450,
        addedPriceMinor: 2450,
        quantity: 1,
        stock: null,
        addedAt: expect.any(String),
        // A product sold as it is: no choices, nothing to check, ready within the usual days.
        choices: NO_CHOICES,
        choiceKey: '',
        summary: EMPTY_CHOICE_SUMMARY,
        problem: null,
        dispatchBy: dispatchDate(DEFAULT_LEAD_TIME, new Date()),
        returnRule: 'standard',
        giftCard: false,
      },
    ]);
    expect(await cartOf(testApp, alice)).toEqual(body.items);
  });

  it('refuses malformed operations and product ids with 400', async () => {
    const testApp = context();
    for (const operations of [
      [{ id: opId(), type: 'add', productId: 'not-a-uuid' }],
      [{ id: 'short', type: 'add', productId: rose.id }],
      [{ id: opId(), type: 'steal', productId: rose.id }],
      [],
      'everything',
    ]) {
      const response = await operate(testApp, alice, operations as unknown[]);
      expect(response.statusCode, JSON.stringify(operations)).toBe(400);
    }
  });

  it('drops an add for a product that does not exist, and remembers that it did', async () => {
    const testApp = context();
    const ghost: CartOperation = { id: opId(), type: 'add', productId: randomUUID() };
    const first = (await operate(testApp, bob, [ghost])).json<CartOperationsResponse>();
    expect(first.outcomes).toEqual([{ id: ghost.id, outcome: 'product_missing' }]);
    expect(first.items).toEqual([]);
    const replay = (await operate(testApp, bob, [ghost])).json<CartOperationsResponse>();
    expect(replay.outcomes).toEqual([{ id: ghost.id, outcome: 'duplicate' }]);
  });

  it('takes an offline queue naming a product deleted meanwhile: that product’s changes are left out, the rest applied, and a replay changes nothing', async () => {
    const testApp = context();
    const carol = await signIn(testApp, 'offline-carol@example.com');
    const [vanishing] = await testApp.database.db.insert(products).values(testProduct({ name: 'Vanishing Set', priceMinor: 1200 })).returning({ id: products.id });
    const held = (await operate(testApp, carol, [{ id: opId(), type: 'add', productId: vanishing!.id }])).json<CartOperationsResponse>().items[0]!;
    // Offline, the customer changed the line of the product, added it again, and changed other lines;
    // meanwhile the shop deleted the product, and its line with it.
    const queue: CartOperation[] = [
      { id: opId(), type: 'set', productId: vanishing!.id, quantity: 2 },
      { id: opId(), type: 'add', productId: rose.id },
      { id: opId(), type: 'remove', itemId: held.id },
      { id: opId(), type: 'add', productId: vanishing!.id },
      { id: opId(), type: 'set', productId: lemon.id, quantity: 3 },
    ];
    await testApp.database.db.delete(products).where(eq(products.id, vanishing!.id));

    // One answer for the whole queue, never a 404 or 410 that would cost the browser the other changes.
    const sent = await operate(testApp, carol, queue);
    expect(sent.statusCode, sent.body).toBe(200);
    const answer = sent.json<CartOperationsResponse>();
    expect(answer.outcomes.map(({ outcome }) => outcome)).toEqual(['product_missing', 'applied', 'item_missing', 'product_missing', 'applied']);
    expect(answer.items.map((item) => [item.productId, item.quantity])).toEqual([
      [rose.id, 1],
      [lemon.id, 3],
    ]);

    // A browser that lost the answer sends the queue again: nothing is applied twice, nothing fails.
    const replayed = await operate(testApp, carol, queue);
    expect(replayed.statusCode).toBe(200);
    expect(replayed.json<CartOperationsResponse>().outcomes.map(({ outcome }) => outcome)).toEqual(Array(queue.length).fill('duplicate'));
    expect(await cartOf(testApp, carol)).toEqual(answer.items);
  });

  it('applies a replayed operation once, even when the copies arrive together', async () => {
    const testApp = context();
    const add: CartOperation = { id: opId(), type: 'add', productId: lemon.id };
    await operate(testApp, bob, [add]);
    const replay = (await operate(testApp, bob, [add])).json<CartOperationsResponse>();
    expect(replay.outcomes).toEqual([{ id: add.id, outcome: 'duplicate' }]);

    const twin: CartOperation = { id: opId(), type: 'add', productId: rose.id };
    const responses = await Promise.all([operate(testApp, bob, [twin]), operate(testApp, bob, [twin]), operate(testApp, bob, [twin])]);
    expect(responses.map((response) => response.statusCode)).toEqual([200, 200, 200]);
    const outcomes = responses.map((response) => response.json<CartOperationsResponse>().outcomes[0]!.outcome).sort();
    expect(outcomes).toEqual(['applied', 'duplicate', 'duplicate']);
    expect((await cartOf(testApp, bob)).map((item) => item.name.en)).toEqual(['Lemon Tips', 'Rose Set']);
  });

  it('keeps each cart to its owner', async () => {
    const testApp = context();
    const [aliceItem] = await cartOf(testApp, alice);
    const theft = (await operate(testApp, bob, [{ id: opId(), type: 'remove', itemId: aliceItem!.id }])).json<CartOperationsResponse>();
    expect(theft.outcomes[0]!.outcome).toBe('item_missing');
    expect(await cartOf(testApp, alice)).toHaveLength(1);
    expect((await cartOf(testApp, bob)).some((item) => item.id === aliceItem!.id)).toBe(false);
  });

  it('keeps one line per product: adding it again raises the quantity, which can be set, and a line leaves in one operation', async () => {
    const testApp = context();
    const carol = await signIn(testApp, 'carol@example.com');
    const added = (await operate(testApp, carol, [
      { id: opId(), type: 'add', productId: rose.id },
      { id: opId(), type: 'add', productId: lemon.id },
      { id: opId(), type: 'add', productId: rose.id },
    ])).json<CartOperationsResponse>();
    expect(added.items.map((item) => [item.name.en, item.quantity])).toEqual([
      ['Rose Set', 2],
      ['Lemon Tips', 1],
    ]);
    const set = (await operate(testApp, carol, [{ id: opId(), type: 'set', productId: lemon.id, quantity: 4 }])).json<CartOperationsResponse>();
    expect(set.items.map((item) => [item.name.en, item.quantity])).toEqual([
      ['Rose Set', 2],
      ['Lemon Tips', 4],
    ]);
    const removed = (await operate(testApp, carol, [{ id: opId(), type: 'remove', itemId: added.items[0]!.id }])).json<CartOperationsResponse>();
    expect(removed.items.map((item) => [item.name.en, item.quantity])).toEqual([['Lemon Tips', 4]]);
    const cleared = (await operate(testApp, carol, [
      { id: opId(), type: 'set', productId: lemon.id, quantity: 0 },
      // Taking out a product that is not in the cart changes nothing, and is not an error: another device may have done it.
      { id: opId(), type: 'set', productId: rose.id, quantity: 0 },
    ])).json<CartOperationsResponse>();
    expect(cleared.outcomes.map((outcome) => outcome.outcome)).toEqual(['applied', 'applied']);
    expect(cleared.items).toEqual([]);
    // Setting a quantity of a product not in the cart adds its line, so a queue made offline replays in any state.
    const fresh = (await operate(testApp, carol, [{ id: opId(), type: 'set', productId: rose.id, quantity: 3 }])).json<CartOperationsResponse>();
    expect(fresh.items.map((item) => [item.name.en, item.quantity, item.priceMinor])).toEqual([['Rose Set', 3, 2450]]);
  });

  it('refuses malformed quantities with 400', async () => {
    const testApp = context();
    for (const quantity of [-1, 1.5, 101, '2', null]) {
      const response = await operate(testApp, alice, [{ id: opId(), type: 'set', productId: rose.id, quantity }]);
      expect(response.statusCode, String(quantity)).toBe(400);
    }
  });

  it('holds no more pieces of a product than are in stock, naming what is left, but always lets a line shrink', async () => {
    const testApp = context();
    const erin = await signIn(testApp, 'erin@example.com');
    const [pair] = await testApp.database.db.insert(products).values(testProduct({ name: 'Opal Pair', description: 'x', priceMinor: 900, stock: 2 })).returning();
    const [gone] = await testApp.database.db.insert(products).values(testProduct({ name: 'Gone Set', description: 'x', priceMinor: 900, stock: 0 })).returning();
    const adds = [1, 2, 3].map(() => ({ id: opId(), type: 'add', productId: pair!.id }));
    const soldOut = { id: opId(), type: 'add', productId: gone!.id };
    const tooMany = { id: opId(), type: 'set', productId: pair!.id, quantity: 5 };
    const response = (await operate(testApp, erin, [...adds, soldOut, tooMany])).json<CartOperationsResponse>();
    expect(response.outcomes).toEqual([
      { id: adds[0]!.id, outcome: 'applied' },
      { id: adds[1]!.id, outcome: 'applied' },
      { id: adds[2]!.id, outcome: 'stock_short', shortage: { productId: pair!.id, name: { en: 'Opal Pair', bg: '' }, wanted: 3, left: 2 } },
      { id: soldOut.id, outcome: 'stock_short', shortage: { productId: gone!.id, name: { en: 'Gone Set', bg: '' }, wanted: 1, left: 0 } },
      { id: tooMany.id, outcome: 'stock_short', shortage: { productId: pair!.id, name: { en: 'Opal Pair', bg: '' }, wanted: 5, left: 2 } },
    ]);
    expect(response.items.map((item) => [item.name.en, item.quantity, item.stock])).toEqual([['Opal Pair', 2, 2]]);

    // The count fell after the line was filled: the line stays (the checkout will say so) and may shrink, but not grow.
    await testApp.database.db.update(products).set({ stock: 1 }).where(eq(products.id, pair!.id));
    const grow = (await operate(testApp, erin, [{ id: opId(), type: 'add', productId: pair!.id }])).json<CartOperationsResponse>();
    expect(grow.outcomes[0]!.outcome).toBe('stock_short');
    const shrink = (await operate(testApp, erin, [{ id: opId(), type: 'set', productId: pair!.id, quantity: 1 }])).json<CartOperationsResponse>();
    expect(shrink.outcomes[0]!.outcome).toBe('applied');
    expect(shrink.items.map((item) => [item.quantity, item.stock])).toEqual([[1, 1]]);
  });

  it('tells the user’s other connections of a change within a second', async () => {
    const testApp = context();
    const address = await testApp.app.listen({ port: 0, host: '127.0.0.1' });
    const dave = await signIn(testApp, 'dave@example.com');
    const phone = await openEventStream(`${address}/api/events`, dave);
    const stranger = await openEventStream(`${address}/api/events`, alice);
    try {
      await phone.waitFor('ready');
      await stranger.waitFor('ready');
      const arrival = phone.waitFor('cart', 1000);
      await operate(testApp, dave, [{ id: opId(), type: 'add', productId: lemon.id }]);
      expect(await arrival).toBeLessThan(1000);
      await deliverMarker(testApp.database, [stranger]);
      expect(stranger.events).toEqual(['ready', 'stock']);

      // A replay changes nothing, so nobody is told anything.
      const countBefore = phone.events.length;
      const replayed = opId();
      await operate(testApp, dave, [{ id: replayed, type: 'add', productId: lemon.id }]);
      await phone.waitFor('cart', 1000);
      await operate(testApp, dave, [{ id: replayed, type: 'add', productId: lemon.id }]);
      await deliverMarker(testApp.database, [phone]);
      expect(phone.events.slice(countBefore)).toEqual(['cart', 'stock']);
    } finally {
      phone.close();
      stranger.close();
    }
  });
});
