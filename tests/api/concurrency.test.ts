import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import type { Address } from '#shared/addresses.js';
import { SIGN_IN_RATE_LIMIT } from '#shared/auth.js';
import { MAX_CART_PIECES, pieceCount, type CartItem, type CartOperation, type CartOperationsResponse } from '#shared/cart.js';
import { priceLines } from '#shared/pricing.js';
import type { Order } from '#shared/orders.js';
import { orderItems, orders, products } from '#server/db/schema.js';
import { sofia } from './sample-data.js';
import { CROWD_TEST_TIMEOUT_MS } from './shopper.js';
import { nextClientAddress, outboxLinks, signIn, tokenOf } from './sign-in.js';
import { describeEachDatabase, type TestApp } from './test-app.js';
import { testProduct } from './test-products.js';

// Many customers at once, as on a busy day. PGlite runs one query at a time, so these tests only
// prove their counts there; on PostgreSQL (TEST_DATABASE_URL) the requests really overlap.

const opId = () => randomUUID().replace(/-/g, '');

const operate = (testApp: TestApp, cookie: string, operations: CartOperation[]) =>
  testApp.app.inject({ method: 'POST', url: '/api/cart/operations', headers: { cookie }, payload: { operations } });

const add = (productId: string): CartOperation => ({ id: opId(), type: 'add', productId });
const remove = (itemId: string): CartOperation => ({ id: opId(), type: 'remove', itemId });

async function cartOf(testApp: TestApp, cookie: string): Promise<CartItem[]> {
  return (await testApp.app.inject({ method: 'GET', url: '/api/cart', headers: { cookie } })).json<{ items: CartItem[] }>().items;
}

const place = (testApp: TestApp, cookie: string, expectedTotalMinor: number) =>
  testApp.app.inject({ method: 'POST', url: '/api/orders', headers: { cookie }, payload: { idempotencyKey: opId(), acceptTerms: true, expectedTotalMinor } });

const statuses = (responses: LightMyRequestResponse[]) => responses.map((response) => response.statusCode);
const serverErrors = (responses: LightMyRequestResponse[]) => responses.filter((response) => response.statusCode >= 500).map((response) => response.body);

describeEachDatabase('many customers at once', (context) => {
  let shared: string[];

  beforeAll(async () => {
    const rows = await context()
      .database.db.insert(products)
      .values(['Rose', 'Lemon', 'Mint', 'Plum'].map((name, index) => testProduct({ name: `${name} Set`, description: 'x', priceMinor: 1000 + index * 111 })))
      .returning({ id: products.id });
    shared = rows.map((row) => row.id);
  });

  it('places 60 simultaneous orders over 4 shared products, each cart filled in another order, with no failure', async () => {
    const testApp = context();
    const customers = await Promise.all(
      Array.from({ length: 60 }, async (_, index) => {
        const cookie = await signIn(testApp, `buyer${index}@example.com`);
        await testApp.app.inject({ method: 'POST', url: '/api/addresses', headers: { cookie }, payload: sofia });
        // Every one of the 24 orders of the four products, so that no two neighbours lock alike.
        const order = permutation(shared, index);
        expect((await operate(testApp, cookie, order.map(add))).statusCode).toBe(200);
        return cookie;
      }),
    );
    const total = priceLines([1000, 1111, 1222, 1333].map((priceMinor) => ({ priceMinor, quantity: 1 }))).total;

    const placed = await Promise.all(customers.map((cookie) => place(testApp, cookie, total)));

    expect(serverErrors(placed)).toEqual([]);
    expect(statuses(placed).filter((status) => status === 201)).toHaveLength(60);
    const ids = placed.map((response) => response.json<{ order: Order }>().order.orderId);
    expect(new Set(ids).size).toBe(60);
    const items = await testApp.database.db.select().from(orderItems).where(inArray(orderItems.orderId, ids));
    expect(items).toHaveLength(240);
    for (const cookie of customers) expect(await cartOf(testApp, cookie)).toEqual([]);
  }, 120_000);

  it('keeps every line added while the same customer checks out: in the order or in the cart, 200 rounds', async () => {
    const testApp = context();
    const cookie = await signIn(testApp, 'two-tabs@example.com');
    await testApp.app.inject({ method: 'POST', url: '/api/addresses', headers: { cookie }, payload: sofia });
    const [first, second] = shared as [string, string];
    let ordered = 0;
    let refused = 0;
    for (let round = 0; round < 200; round++) {
      await operate(testApp, cookie, [add(first)]);
      const seen = await cartOf(testApp, cookie);
      expect(seen.map((line) => line.productId)).toEqual([first]);

      // One tab places the order it shows while another (or the offline queue) adds a line.
      const [order, added] = await Promise.all([
        place(testApp, cookie, priceLines(seen).total),
        operate(testApp, cookie, [add(second)]),
      ]);

      expect(added.statusCode).toBe(200);
      expect(added.json<CartOperationsResponse>().outcomes[0]?.outcome).toBe('applied');
      const cart = await cartOf(testApp, cookie);
      if (order.statusCode === 201) {
        // The order took the line it was confirmed with; the line added meanwhile waits in the cart.
        ordered++;
        expect(order.json<{ order: Order }>().order.items.map((item) => item.productId)).toEqual([first]);
        expect(cart.map((line) => line.productId)).toEqual([second]);
      } else {
        // The line came first: the total the customer saw no longer holds, so nothing was ordered.
        refused++;
        expect(order.statusCode).toBe(409);
        expect(order.json().error.code).toBe('price_changed');
        expect(cart.map((line) => line.productId).sort()).toEqual([first, second].sort());
      }
      await operate(testApp, cookie, cart.map((line) => remove(line.id)));
    }
    expect(ordered + refused).toBe(200);
    const placedOrders = await testApp.database.db.select().from(orders).where(eq(orders.customerEmail, 'two-tabs@example.com'));
    expect(placedOrders).toHaveLength(ordered);
  }, 180_000); // 200 rounds of five requests each take a few seconds; more on a busy machine.

  it('keeps every piece of a line raised while the same customer checks out: in the order or in the cart, 100 rounds', async () => {
    const testApp = context();
    const cookie = await signIn(testApp, 'raised-line@example.com');
    await testApp.app.inject({ method: 'POST', url: '/api/addresses', headers: { cookie }, payload: sofia });
    const [first] = shared as [string];
    let ordered = 0;
    for (let round = 0; round < 100; round++) {
      await operate(testApp, cookie, [{ id: opId(), type: 'set', productId: first, quantity: 1 }]);
      const seen = await cartOf(testApp, cookie);

      // One tab orders the one piece it shows while another raises the same line to two: the cart's
      // lock makes the raise come wholly before the order (which then no longer matches what was
      // shown) or after it (a new line of one).
      const [order, raised] = await Promise.all([place(testApp, cookie, priceLines(seen).total), operate(testApp, cookie, [add(first)])]);

      expect(raised.json<CartOperationsResponse>().outcomes[0]?.outcome).toBe('applied');
      const inOrder = order.statusCode === 201 ? pieceCount(order.json<{ order: Order }>().order.items) : 0;
      if (order.statusCode === 201) ordered++;
      else expect(order.json().error.code).toBe('price_changed');
      expect(inOrder + pieceCount(await cartOf(testApp, cookie)), `round ${round}`).toBe(2);
    }
    const placedOrders = await testApp.database.db.select().from(orders).where(eq(orders.customerEmail, 'raised-line@example.com'));
    expect(placedOrders).toHaveLength(ordered);
  }, 180_000);

  it('sends exactly 3 of 100 parallel link requests for one address, and 10 of 100 from one client', async () => {
    const { app } = context();
    const request = (email: string, remoteAddress: string) =>
      app.inject({ method: 'POST', url: '/api/auth/sign-in-links', payload: { email, language: 'en' }, remoteAddress });

    const forOneAddress = await Promise.all(Array.from({ length: 100 }, () => request('target@example.com', nextClientAddress())));
    expect(serverErrors(forOneAddress)).toEqual([]);
    expect(statuses(forOneAddress).filter((status) => status === 202)).toHaveLength(SIGN_IN_RATE_LIMIT.perEmail);
    expect(statuses(forOneAddress).filter((status) => status === 429)).toHaveLength(100 - SIGN_IN_RATE_LIMIT.perEmail);
    expect(forOneAddress.find((response) => response.statusCode === 429)?.json().error.code).toBe('rate_limited');

    const client = '10.200.0.1';
    const fromOneClient = await Promise.all(Array.from({ length: 100 }, (_, index) => request(`client${index}@example.com`, client)));
    expect(serverErrors(fromOneClient)).toEqual([]);
    expect(statuses(fromOneClient).filter((status) => status === 202)).toHaveLength(SIGN_IN_RATE_LIMIT.perClient);
    expect(statuses(fromOneClient).filter((status) => status === 429)).toHaveLength(100 - SIGN_IN_RATE_LIMIT.perClient);
  }, CROWD_TEST_TIMEOUT_MS);

  it('gives the places of used links to exactly as many of 50 parallel requests, per address and per client', async () => {
    const testApp = context();
    const { app } = testApp;
    const request = (email: string, remoteAddress: string) =>
      app.inject({ method: 'POST', url: '/api/auth/sign-in-links', payload: { email, language: 'en' }, remoteAddress });
    const use = async (email: string, newest = 0) => {
      const token = tokenOf((await outboxLinks(testApp, email))[newest]!);
      expect((await app.inject({ method: 'POST', url: '/api/auth/sessions', payload: { token, email } })).statusCode).toBe(200);
    };

    // Three links for one address, two of them used: two places are free, however many ask at once.
    for (let index = 0; index < SIGN_IN_RATE_LIMIT.perEmail; index++) expect((await request('returning@example.com', nextClientAddress())).statusCode).toBe(202);
    await use('returning@example.com', 0);
    await use('returning@example.com', 1);
    const forOneAddress = await Promise.all(Array.from({ length: 50 }, () => request('returning@example.com', nextClientAddress())));
    expect(serverErrors(forOneAddress)).toEqual([]);
    expect(statuses(forOneAddress).filter((status) => status === 202)).toHaveLength(2);
    expect(statuses(forOneAddress).filter((status) => status === 429)).toHaveLength(48);

    // Ten colleagues behind one address, four of whom signed in: four places for the fifty who ask at once.
    const office = '10.201.0.1';
    for (let index = 0; index < SIGN_IN_RATE_LIMIT.perClient; index++) expect((await request(`colleague${index}@example.com`, office)).statusCode).toBe(202);
    for (let index = 0; index < 4; index++) await use(`colleague${index}@example.com`);
    const fromOneClient = await Promise.all(Array.from({ length: 50 }, (_, index) => request(`visitor${index}@example.com`, office)));
    expect(serverErrors(fromOneClient)).toEqual([]);
    expect(statuses(fromOneClient).filter((status) => status === 202)).toHaveLength(4);
    expect(statuses(fromOneClient).filter((status) => status === 429)).toHaveLength(46);
  }, CROWD_TEST_TIMEOUT_MS);

  it('saves 20 addresses sent at once, then takes 10 parallel set-default calls, always with exactly one default', async () => {
    const testApp = context();
    const cookie = await signIn(testApp, 'many-homes@example.com');
    const saved = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        testApp.app.inject({ method: 'POST', url: '/api/addresses', headers: { cookie }, payload: { ...sofia, streetAddress: `${index + 1} Vitosha Blvd` } }),
      ),
    );
    expect(serverErrors(saved)).toEqual([]);
    expect(statuses(saved).every((status) => status === 201)).toBe(true);
    const list = async () =>
      (await testApp.app.inject({ method: 'GET', url: '/api/addresses', headers: { cookie } })).json<{ addresses: Address[] }>().addresses;
    const addresses = await list();
    expect(addresses).toHaveLength(20);
    expect(addresses.filter((address) => address.isDefault)).toHaveLength(1);

    const chosen = addresses.slice(0, 10);
    const defaults = await Promise.all(
      chosen.map((address) => testApp.app.inject({ method: 'POST', url: `/api/addresses/${address.id}/default`, headers: { cookie } })),
    );
    expect(serverErrors(defaults)).toEqual([]);
    expect(statuses(defaults).every((status) => status === 200)).toBe(true);
    const after = await list();
    expect(after.filter((address) => address.isDefault)).toHaveLength(1);
    expect(chosen.map((address) => address.id)).toContain(after.find((address) => address.isDefault)?.id);
  });

  it('ends two devices adding and removing the same lines in the state their acknowledged operations describe', async () => {
    const testApp = context();
    const cookie = await signIn(testApp, 'two-devices@example.com');
    const many = await testApp.database.db
      .insert(products)
      .values(Array.from({ length: 20 }, (_, index) => testProduct({ name: `Device Set ${index}`, description: 'x', priceMinor: 700 })))
      .returning({ id: products.id });
    const [removedProducts, addedProducts] = [many.slice(0, 10).map((row) => row.id), many.slice(10).map((row) => row.id)];
    const start = (await operate(testApp, cookie, removedProducts.map(add))).json<CartOperationsResponse>().items;
    const ids = start.map((line) => line.id);

    // The phone removes the lines one by one and then in one batch; the laptop removes them in the
    // opposite order, in one batch and one by one, and adds ten other products meanwhile.
    const requests = [
      ids.map(remove),
      [...ids].reverse().map(remove),
      ...ids.map((id) => [remove(id)]),
      ...[...ids].reverse().map((id) => [remove(id)]),
      ...addedProducts.map((product) => [add(product)]),
    ];
    const answers = await Promise.all(requests.map((operations) => operate(testApp, cookie, operations)));

    expect(serverErrors(answers)).toEqual([]);
    expect(statuses(answers).every((status) => status === 200)).toBe(true);
    const outcomes = answers.flatMap((answer, index) =>
      answer.json<CartOperationsResponse>().outcomes.map((outcome, position) => ({ operation: requests[index]![position]!, outcome: outcome.outcome })),
    );
    for (const id of ids) {
      const removals = outcomes.filter(({ operation }) => operation.type === 'remove' && operation.itemId === id);
      expect(removals.filter(({ outcome }) => outcome === 'applied'), id).toHaveLength(1);
      expect(removals.filter(({ outcome }) => outcome !== 'applied').every(({ outcome }) => outcome === 'item_missing')).toBe(true);
    }
    const added = outcomes.filter(({ operation, outcome }) => operation.type === 'add' && outcome === 'applied');
    expect(added).toHaveLength(10);
    const cart = await cartOf(testApp, cookie);
    expect(cart.map((line) => line.productId).sort()).toEqual([...addedProducts].sort());
    expect(cart.some((line) => ids.includes(line.id))).toBe(false);
  });

  it('answers an add racing the deletion of its product with applied or product_missing, never a failure', async () => {
    const testApp = context();
    const cookie = await signIn(testApp, 'late-adder@example.com');
    const [doomed] = await testApp.database.db.insert(products).values(testProduct({ name: 'Doomed Set', description: 'x', priceMinor: 500 })).returning();
    const [answers] = await Promise.all([
      Promise.all(Array.from({ length: 20 }, () => operate(testApp, cookie, [add(doomed!.id)]))),
      // A deliberate head start of a few ms, so that some adds come before the deletion and some after it: the race under test.
      new Promise((resolve) => setTimeout(resolve, 5)).then(() => testApp.database.db.delete(products).where(eq(products.id, doomed!.id))),
    ]);
    expect(serverErrors(answers)).toEqual([]);
    const outcomes = answers.map((answer) => answer.json<CartOperationsResponse>().outcomes[0]?.outcome);
    expect(outcomes.every((outcome) => outcome === 'applied' || outcome === 'product_missing')).toBe(true);
    expect(await cartOf(testApp, cookie)).toEqual([]);
  });

  it('holds at most 100 pieces in a cart: past that a 409, and nothing of that request is applied', async () => {
    const testApp = context();
    const cookie = await signIn(testApp, 'hoarder@example.com');
    const [first, second] = shared as [string, string];
    expect((await operate(testApp, cookie, Array.from({ length: 60 }, () => add(first)))).statusCode).toBe(200);
    const tooMany = await operate(testApp, cookie, [add(second), ...Array.from({ length: 40 }, () => add(first))]);
    expect(tooMany.statusCode).toBe(409);
    expect(tooMany.json().error.code).toBe('cart_full');
    expect((await cartOf(testApp, cookie)).map((line) => [line.productId, line.quantity])).toEqual([[first, 60]]);

    const fill = await Promise.all(Array.from({ length: 50 }, (_, index) => operate(testApp, cookie, [add(index % 2 ? first : second)])));
    expect(serverErrors(fill)).toEqual([]);
    expect(statuses(fill).filter((status) => status === 200)).toHaveLength(MAX_CART_PIECES - 60);
    expect(statuses(fill).filter((status) => status === 409)).toHaveLength(50 - (MAX_CART_PIECES - 60));
    expect(pieceCount(await cartOf(testApp, cookie))).toBe(MAX_CART_PIECES);
    const setTooHigh = await operate(testApp, cookie, [{ id: opId(), type: 'set', productId: first, quantity: 100 }]);
    expect(setTooHigh.json().error.code).toBe('cart_full');
  });
});

/** The index-th ordering of the items (of their n! orderings), so that neighbouring customers differ. */
function permutation<T>(items: readonly T[], index: number): T[] {
  const pool = [...items];
  const result: T[] = [];
  let rest = index;
  for (let size = pool.length; size > 0; size--) {
    const factorial = Array.from({ length: size - 1 }, (_, step) => step + 1).reduce((product, factor) => product * factor, 1);
    const pick = Math.floor(rest / factorial) % size;
    rest %= factorial;
    result.push(pool.splice(pick, 1)[0]!);
  }
  return result;
}
