import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productCombinations, products, stockChanges, users } from '#server/db/schema.js';
import { changeNotice } from '#server/notices/live-hub.js';
import { fillCart, placeOrder } from './shopper.js';
import { signIn } from './sign-in.js';
import { createTestApp, type TestApp } from './test-app.js';
import { testProduct } from './test-products.js';

// Each statement of the checkout's transaction is a round trip to the database while the customer's
// cart (and, from the stock update on, the product) is held: the order path's speed is mostly their
// count. Counted where the driver shows them, on PostgreSQL; PGlite runs the same code.

/**
 * The checkout's transaction of one counted and one made-to-order product, from begin to commit:
 * the currency's hold, the cart's lock and the address; the cart with the catalogue's currency and
 * the size chart (a statement after the locks', so that it sees a conversion the hold waited for);
 * the order with its lines, history, mails to the customer and the owners (the admins read by the
 * same insert) and notices; the one counted product's stock and its notice.
 */
const CHECKOUT_STATEMENTS = 6;
/**
 * A product with options counting per combination costs one more: the lock of its combination's row,
 * so that an admin cannot remove the combination while it is being sold. Its combination's count
 * replaces the product's.
 */
const CHECKOUT_STATEMENTS_WITH_OPTIONS = CHECKOUT_STATEMENTS + 1;

/** The statements each connection sends while the work runs, in order; a named (prepared) statement's text after its name in brackets. */
async function statementsDuring(work: () => Promise<unknown>): Promise<string[][]> {
  const byConnection = new Map<pg.Client, string[]>();
  const send = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: Parameters<typeof send>) {
    const [statement] = args as unknown[];
    const { text = '', name } = typeof statement === 'string' ? { text: statement } : (statement as { text?: string; name?: string });
    const sent = text.trim().replace(/\s+/g, ' ');
    byConnection.set(this, [...(byConnection.get(this) ?? []), name ? `[${name}] ${sent}` : sent]);
    return send.apply(this, args);
  } as typeof send;
  try {
    await work();
  } finally {
    pg.Client.prototype.query = send;
  }
  return [...byConnection.values()];
}

/** A prepared statement's name, or the statement's text where it has none. */
const statementName = (statement: string) => /^\[(\w+)\]/.exec(statement)?.[1] ?? statement;

describe.skipIf(!process.env.TEST_DATABASE_URL)('the checkout’s and the cart’s round trips [postgres]', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await createTestApp('postgres');
  });
  afterAll(async () => {
    await testApp?.close();
  });

  it(`places an order of a counted and a made-to-order product in ${CHECKOUT_STATEMENTS} statements from begin to commit`, async () => {
    const [counted, madeToOrder] = await testApp.database.db
      .insert(products)
      .values([testProduct({ name: 'Counted Set', priceMinor: 1500, stock: 3 }), testProduct({ name: 'Made to Order', priceMinor: 900, stock: null })])
      .returning({ id: products.id });
    const cookie = await signIn(testApp, 'round-trips@example.com');
    await fillCart(testApp, cookie, [counted!.id, madeToOrder!.id]);

    const connections = await statementsDuring(() => placeOrder(testApp, cookie));
    // The mail worker may wake on its own connection meanwhile; the checkout's is the one with a transaction.
    const checkout = connections.find((statements) => statements.some((statement) => /^begin$/i.test(statement)));
    expect(checkout).toBeDefined();
    const transaction = checkout!.slice(checkout!.findIndex((statement) => /^begin$/i.test(statement)));
    expect(transaction.at(-1), transaction.join('\n')).toMatch(/^commit$/i);
    expect(transaction.length, transaction.join('\n')).toBeLessThanOrEqual(CHECKOUT_STATEMENTS);
    // Each of them prepared, under a name of its own.
    expect(transaction.slice(1, -1).map(statementName)).toEqual(['checkout_hold_default_address', 'checkout_cart_lines', expect.stringMatching(/^place_order_\d+$/), 'take_stock_of_product']);
  });

  it(`places an order of a sized product counted per combination and a made-to-order one in ${CHECKOUT_STATEMENTS_WITH_OPTIONS} statements`, async () => {
    const shape = { id: 'shape', name: { en: 'Shape', bg: 'Форма' }, values: [{ id: 'almond', name: { en: 'Almond', bg: 'Бадем' }, priceDeltaMinor: 100 }] };
    const [withOptions, madeToOrder] = await testApp.database.db
      .insert(products)
      .values([
        { ...testProduct({ name: 'Sized Set', priceMinor: 1500 }), optionGroups: [shape], stockMode: 'combination', sized: true },
        testProduct({ name: 'Made to Order Too', priceMinor: 900, stock: null }),
      ])
      .returning({ id: products.id });
    await testApp.database.db.insert(productCombinations).values({ productId: withOptions!.id, key: 'almond', stock: 3 });
    const cookie = await signIn(testApp, 'round-trips-options@example.com');
    await fillCart(testApp, cookie, [madeToOrder!.id]);
    const added = await testApp.app.inject({
      method: 'POST',
      url: '/api/cart/operations',
      headers: { cookie },
      payload: { operations: [{ id: 'options-line-1', type: 'add', productId: withOptions!.id, choices: { options: { shape: 'almond' }, sizes: [1, 5, 4, 6, 8, 1, 5, 4, 6, 8], answers: {} } }] },
    });
    expect(added.json().outcomes[0].outcome).toBe('applied');

    const connections = await statementsDuring(() => placeOrder(testApp, cookie));
    const checkout = connections.find((statements) => statements.some((statement) => /^begin$/i.test(statement)));
    const transaction = checkout!.slice(checkout!.findIndex((statement) => /^begin$/i.test(statement)));
    expect(transaction.at(-1), transaction.join('\n')).toMatch(/^commit$/i);
    expect(transaction.length, transaction.join('\n')).toBeLessThanOrEqual(CHECKOUT_STATEMENTS_WITH_OPTIONS);
    expect(statementName(transaction.at(-2)!)).toBe('take_stock_of_combination');
  });

  it('sends the checkout’s statements prepared: one name and text for each, the same for every order, parsed once per connection', async () => {
    const [product] = await testApp.database.db
      .insert(products)
      .values(testProduct({ name: 'Prepared Set', priceMinor: 1100, stock: null }))
      .returning({ id: products.id });
    const transactions: string[][] = [];
    for (const email of ['prepared-1@example.com', 'prepared-2@example.com']) {
      const cookie = await signIn(testApp, email);
      await fillCart(testApp, cookie, [product!.id]);
      const checkout = (await statementsDuring(() => placeOrder(testApp, cookie))).find((statements) => statements.some((statement) => /^begin$/i.test(statement)));
      transactions.push(checkout!.slice(checkout!.findIndex((statement) => /^begin$/i.test(statement))));
    }
    // Between begin and commit (a made-to-order piece takes no stock): the locks with the address, the cart, the order.
    const names = transactions[0]!.slice(1, -1).map(statementName);
    expect(names).toEqual(['checkout_hold_default_address', 'checkout_cart_lines', expect.stringMatching(/^place_order_\d+$/)]);
    expect(transactions[0]![3]).toMatch(/^\[place_order_\d+\] with "items"/);
    expect(transactions[1]).toEqual(transactions[0]);
  });

  it('adds a piece sold as it is in one statement, outside any transaction, and a piece with options in a transaction', async () => {
    const shape = { id: 'shape', name: { en: 'Shape', bg: 'Форма' }, values: [{ id: 'oval', name: { en: 'Oval', bg: 'Овал' }, priceDeltaMinor: 0 }] };
    const [plain, withOptions] = await testApp.database.db
      .insert(products)
      .values([testProduct({ name: 'One Trip Set', priceMinor: 1200, stock: 5 }), { ...testProduct({ name: 'Shaped Set', priceMinor: 1300 }), optionGroups: [shape] }])
      .returning({ id: products.id });
    const cookie = await signIn(testApp, 'cart-round-trips@example.com');
    const add = (id: string, productId: string, choices?: unknown) =>
      testApp.app.inject({ method: 'POST', url: '/api/cart/operations', headers: { cookie }, payload: { operations: [{ id, type: 'add', productId, choices }] } });
    // The session is read once and then kept by the process.
    expect((await add('warm-up-add', plain!.id)).json().outcomes[0].outcome).toBe('applied');

    const cartStatements = async (work: () => Promise<unknown>) => (await statementsDuring(work)).flat().filter((statement) => /cart/i.test(statement) || /^(begin|commit)$/i.test(statement));
    let answer: Awaited<ReturnType<typeof add>> | undefined;
    const plainStatements = await cartStatements(async () => (answer = await add('one-trip-add', plain!.id)));
    expect(plainStatements, plainStatements.join('\n')).toHaveLength(1);
    expect(plainStatements[0]).toMatch(/cart_add_plain_piece/);
    expect(answer!.json().items.map((line: { quantity: number }) => line.quantity)).toEqual([2]);

    const optionStatements = await cartStatements(() => add('with-options-add', withOptions!.id, { options: { shape: 'oval' }, sizes: null, answers: {} }));
    expect(optionStatements[0]).toMatch(/^begin$/i);
    expect(optionStatements.at(-1)).toMatch(/^commit$/i);
  });
});

describe('the checkout’s statements on PGlite', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await createTestApp('pglite');
  });
  afterAll(async () => {
    await testApp?.close();
  });

  it('are prepared once (PREPARE) and then executed with each order’s values, telling each buyer’s pages', async () => {
    const [product] = await testApp.database.db
      .insert(products)
      .values(testProduct({ name: 'It’s Prepared', priceMinor: 1250, stock: 10 }))
      .returning({ id: products.id });
    const orders = [];
    for (const email of ['prepared-pglite-1@example.com', 'prepared-pglite-2@example.com']) {
      const cookie = await signIn(testApp, email);
      await fillCart(testApp, cookie, [product!.id, product!.id]);
      const heard: string[] = [];
      const stopListening = await testApp.database.listen(changeNotice('', 'cart').channel, (payload) => heard.push(payload));
      orders.push(await placeOrder(testApp, cookie));
      await stopListening();
      // The buyer's pages are told as announceChange tells them, so that a transaction sends each notice once.
      const [buyer] = await testApp.database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
      expect(heard).toEqual(expect.arrayContaining([changeNotice(buyer!.id, 'cart').payload, changeNotice(buyer!.id, 'orders').payload]));
    }
    // Each order's line as written, its name's apostrophe kept, ordered when its order was placed.
    const lines = (await testApp.database.db.execute(
      sql`select items.order_id as "orderId", items.name_en as name, items.quantity, items.price_minor as "priceMinor", items.choices, items.ordered_at = orders.created_at as "orderedWithOrder"
          from order_items items join orders on orders.id = items.order_id order by orders.created_at`,
    )) as unknown as { rows: unknown[] };
    const choices = { options: [], sizes: null, answers: [] };
    expect(lines.rows).toEqual(orders.map((order) => ({ orderId: order.orderId, name: 'It’s Prepared', quantity: 2, priceMinor: 1250, choices, orderedWithOrder: true })));
    const prepared = (await testApp.database.db.execute(
      sql`select name from pg_prepared_statements where name like 'place_order_%' or name like 'checkout_%' or name like 'take_stock_%' order by name`,
    )) as unknown as { rows: Array<{ name: string }> };
    expect(prepared.rows.map((row) => row.name)).toEqual(['checkout_cart_lines', 'checkout_hold_default_address', expect.stringMatching(/^place_order_\d+$/), 'take_stock_of_product']);
    // Each order took its two pieces, and its log entry names it.
    const [left] = await testApp.database.db.select({ stock: products.stock }).from(products).where(eq(products.id, product!.id));
    expect(left!.stock).toBe(6);
    const taken = await testApp.database.db.select({ orderId: stockChanges.orderId, change: stockChanges.change, stockAfter: stockChanges.stockAfter, reason: stockChanges.reason }).from(stockChanges).orderBy(stockChanges.stockAfter);
    expect(taken).toEqual([
      { orderId: orders[1]!.orderId, change: -2, stockAfter: 6, reason: 'sold' },
      { orderId: orders[0]!.orderId, change: -2, stockAfter: 8, reason: 'sold' },
    ]);
  });
});
