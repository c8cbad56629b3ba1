import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { products } from '#server/db/schema.js';
import { fillCart, placeOrder } from './shopper.js';
import { signIn } from './sign-in.js';
import { describeEachDatabase } from './test-app.js';
import { testProduct } from './test-products.js';

// An order id is 8 random characters: at a million orders, about one checkout in a million draws an
// id that is taken. Here the next draws are made to repeat an existing order's id. The API test files
// share their modules (isolate: false), so node:crypto's own randomBytes is replaced for a while, and
// the modules that imported it by name see the change (syncBuiltinESMExports).
const drawn: Buffer[] = [];
const randomBytes = crypto.randomBytes;
beforeAll(() => {
  crypto.randomBytes = ((size: number) => (size === 8 && drawn.length > 0 ? drawn.shift()! : randomBytes(size))) as typeof crypto.randomBytes;
  syncBuiltinESMExports();
});
afterAll(() => {
  crypto.randomBytes = randomBytes;
  syncBuiltinESMExports();
});

const ID_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** The random bytes that newOrderId turns into this id. */
const bytesOf = (orderId: string) => Buffer.from([...orderId.slice('NA-'.length)].map((character) => ID_ALPHABET.indexOf(character)));

describeEachDatabase('an order id drawn that is taken already', (context) => {
  let product: string;
  beforeAll(async () => {
    [{ id: product }] = (await context().database.db.insert(products).values(testProduct({ name: 'Pearl Set', priceMinor: 2399 })).returning({ id: products.id })) as [{ id: string }];
  });

  it('is drawn again, and the order placed under a new one', async () => {
    const testApp = context();
    const first = await signIn(testApp, 'first@example.com');
    await fillCart(testApp, first, [product]);
    const taken = await placeOrder(testApp, first);

    const second = await signIn(testApp, 'second@example.com');
    await fillCart(testApp, second, [product]);
    // The order id, then the payment reference, of the first try.
    drawn.push(bytesOf(taken.orderId), Buffer.alloc(8));
    const placed = await placeOrder(testApp, second);
    expect(drawn).toEqual([]);
    expect(placed.orderId).not.toBe(taken.orderId);
    expect(placed.orderId).toMatch(/^NA-[A-Z2-9]{8}$/);
    expect(placed.items).toHaveLength(1);
  });
});
