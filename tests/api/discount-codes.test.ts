import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import type { CartResponse } from '#shared/cart.js';
import { applyDiscount, type DiscountCodeSummary, type DiscountTerms } from '#shared/discounts.js';
import type { Order } from '#shared/orders.js';
import { priceLines } from '#shared/pricing.js';
import { addAdmin } from '#server/auth/roles.js';
import { discountCodes, orderItems, orders, products } from '#server/db/schema.js';
import type { OutboxEntry } from '#server/mail/mailer.js';
import { buyersWithCarts, checkoutsAtOnce, CROWD_TEST_TIMEOUT_MS, eventually, fillCart, operationKey } from './shopper.js';
import { nextClientAddress, signIn } from './sign-in.js';
import { describeEachDatabase, type TestApp } from './test-app.js';
import { testProduct } from './test-products.js';

const checkCode = (testApp: TestApp, cookie: string, code: string, remoteAddress = nextClientAddress()) =>
  testApp.app.inject({ method: 'POST', url: '/api/discount-codes/check', headers: { cookie }, payload: { code }, remoteAddress });

/** Places an order with the code at the total the checkout shows: the cart priced with the code's terms by the shared rule. */
async function orderWithCode(testApp: TestApp, cookie: string, code: string, remoteAddress = nextClientAddress()) {
  const cart = (await testApp.app.inject({ method: 'GET', url: '/api/cart', headers: { cookie } })).json<CartResponse>();
  const checked = await checkCode(testApp, cookie, code);
  const terms = checked.statusCode === 200 ? checked.json<{ terms: DiscountTerms }>().terms : null;
  const applied = terms ? applyDiscount(terms, cart.items) : null;
  const shown = priceLines(cart.items, testApp.config.pricing, 'card', applied && !('refusal' in applied) ? applied : null);
  return testApp.app.inject({
    method: 'POST',
    url: '/api/orders',
    headers: { cookie },
    remoteAddress,
    payload: { idempotencyKey: operationKey(), acceptTerms: true, paymentMethod: 'card', expectedTotalMinor: shown.total, discountCode: code },
  });
}

const refusalOf = (response: { statusCode: number; json: () => { error: { code: string; messageKey?: string; field?: string } } }) => ({
  status: response.statusCode,
  ...response.json().error,
});

describeEachDatabase(
  'discount codes',
  (context) => {
    let admin: string;
    let set: string;
    let oil: string;
    let kit: string;
    const createCode = async (fields: Record<string, unknown>) => {
      const response = await context().app.inject({ method: 'POST', url: '/api/admin/discount-codes', headers: { cookie: admin }, payload: fields });
      if (response.statusCode !== 201) throw new Error(`Creating the code failed: ${response.body}`);
      return response.json<{ code: DiscountCodeSummary }>().code;
    };

    beforeAll(async () => {
      const testApp = context();
      const rows = await testApp.database.db
        .insert(products)
        .values([
          testProduct({ name: 'Pearl Set', priceMinor: 3400, category: 'nails' }),
          testProduct({ name: 'Cuticle Oil', priceMinor: 999, category: 'accessories' }),
          testProduct({ name: 'Starter Kit', priceMinor: 5000, category: 'kits' }),
        ])
        .returning({ id: products.id });
      [set, oil, kit] = rows.map((row) => row.id) as [string, string, string];
      await addAdmin(testApp.database.db, 'owner@shop.test');
      admin = await signIn(testApp, 'owner@shop.test');
    });

    it('lets only an admin create codes, checks what she types, and keeps each code once', async () => {
      const testApp = context();
      const buyer = await signIn(testApp, 'curious@example.com');
      const payload = { code: 'hello', kind: 'percent', value: 1000 };
      expect((await testApp.app.inject({ method: 'POST', url: '/api/admin/discount-codes', headers: { cookie: buyer }, payload })).statusCode).toBe(403);
      expect((await testApp.app.inject({ method: 'GET', url: '/api/admin/discount-codes' })).statusCode).toBe(401);

      const created = await createCode({ ...payload, code: ' hello ' });
      expect(created).toMatchObject({ code: 'HELLO', kind: 'percent', value: 1000, paused: false, uses: 0, revenueMinor: 0 });
      const again = await testApp.app.inject({ method: 'POST', url: '/api/admin/discount-codes', headers: { cookie: admin }, payload: { ...payload, code: 'Hello' } });
      expect(refusalOf(again)).toMatchObject({ status: 409, field: 'code', messageKey: 'discounts.errors.codeTaken' });
      for (const [fields, field, messageKey] of [
        [{ code: 'A!', kind: 'percent', value: 1000 }, 'code', 'discounts.errors.codeFormat'],
        [{ code: 'HALF', kind: 'percent', value: 10_001 }, 'value', 'discounts.errors.percentRange'],
        [{ code: 'NOTHING', kind: 'amount', value: 0 }, 'value', 'discounts.errors.amountRequired'],
        [{ code: 'BACKWARDS', kind: 'free_shipping', value: 0, startsAt: '2026-12-02T00:00:00+02:00', endsAt: '2026-12-01T00:00:00+02:00' }, 'endsAt', 'discounts.errors.endBeforeStart'],
      ] as const) {
        const refused = await testApp.app.inject({ method: 'POST', url: '/api/admin/discount-codes', headers: { cookie: admin }, payload: fields });
        expect(refusalOf(refused), fields.code).toMatchObject({ status: 400, field, messageKey });
      }

      // A deleted code frees its name; paused or deleted, it is unknown to buyers.
      expect((await testApp.app.inject({ method: 'POST', url: `/api/admin/discount-codes/${created.id}/pause`, headers: { cookie: admin }, payload: { paused: true } })).statusCode).toBe(200);
      await fillCart(testApp, buyer, [set]);
      expect(refusalOf(await checkCode(testApp, buyer, 'hello'))).toMatchObject({ status: 409, code: 'discount_refused', messageKey: 'discounts.refused.unknown' });
      expect((await testApp.app.inject({ method: 'DELETE', url: `/api/admin/discount-codes/${created.id}`, headers: { cookie: admin } })).statusCode).toBe(200);
      const listResponse = await testApp.app.inject({ method: 'GET', url: '/api/admin/discount-codes', headers: { cookie: admin } });
      const list = listResponse.json<{ codes: DiscountCodeSummary[] }>().codes;
      expect(list.map((code) => code.code)).not.toContain('HELLO');
      expect((await createCode(payload)).code).toBe('HELLO');
    });

    it('refuses each code that cannot be used, saying which, at the check and at checkout', async () => {
      const testApp = context();
      const buyer = await signIn(testApp, 'refused@example.com');
      await fillCart(testApp, buyer, [set]);
      const hour = 3_600_000;
      await createCode({ code: 'LATER', kind: 'percent', value: 1000, startsAt: new Date(Date.now() + hour).toISOString() });
      await createCode({ code: 'GONE', kind: 'percent', value: 1000, endsAt: new Date(Date.now() - hour).toISOString() });
      await createCode({ code: 'BIG-BASKET', kind: 'amount', value: 500, minSubtotalMinor: 5000 });
      await createCode({ code: 'KITS-ONLY', kind: 'percent', value: 2000, categories: ['kits'] });
      for (const [code, reason] of [
        ['NO-SUCH-CODE', 'unknown'],
        ['later', 'not_started'],
        ['gone', 'expired'],
      ] as const) {
        expect(refusalOf(await checkCode(testApp, buyer, code)), code).toMatchObject({ status: 409, code: 'discount_refused', field: 'discountCode', messageKey: `discounts.refused.${reason}` });
        expect(refusalOf(await orderWithCode(testApp, buyer, code)), code).toMatchObject({ status: 409, messageKey: `discounts.refused.${reason}` });
      }
      // The minimum and the products are the checkout's to say as the cart changes: the check gives the
      // terms, and an order that does not meet them is refused.
      const basket = (await checkCode(testApp, buyer, 'big-basket')).json<{ terms: DiscountTerms }>().terms;
      expect(basket).toEqual({ code: 'BIG-BASKET', kind: 'amount', value: 500, minSubtotalMinor: 5000, eligibleProductIds: null });
      expect(refusalOf(await orderWithCode(testApp, buyer, 'big-basket'))).toMatchObject({ status: 409, messageKey: 'discounts.refused.below_minimum' });
      expect((await checkCode(testApp, buyer, 'kits-only')).json<{ terms: DiscountTerms }>().terms.eligibleProductIds).toEqual([]);
      expect(refusalOf(await orderWithCode(testApp, buyer, 'kits-only'))).toMatchObject({ status: 409, messageKey: 'discounts.refused.not_applicable' });
      // Nothing was written: the cart is as it was.
      const cart = (await testApp.app.inject({ method: 'GET', url: '/api/cart', headers: { cookie: buyer } })).json<CartResponse>();
      expect(cart.items.map((item) => item.productId)).toEqual([set]);
    });

    it('takes the discount off the lines it applies to, in the order, its lines, the list of codes and the e-mail', async () => {
      const testApp = context();
      const buyer = await signIn(testApp, 'launch@example.com');
      await fillCart(testApp, buyer, [set, set, oil, kit]);
      const code = await createCode({ code: 'LAUNCH15', kind: 'percent', value: 1500, categories: ['nails'], productIds: [oil] });
      const terms = (await checkCode(testApp, buyer, ' launch15 ')).json<{ terms: DiscountTerms }>().terms;
      expect([...terms.eligibleProductIds!].sort()).toEqual([set, oil].sort());

      const placed = await orderWithCode(testApp, buyer, 'launch15');
      expect(placed.statusCode).toBe(201);
      const order = placed.json<{ order: Order }>().order;
      // 15% of 2 × 34.00 + 9.99, the kit left out: 11.70 (11.6985 rounded half-up).
      expect(order.pricing).toMatchObject({ subtotal: 6800 + 999 + 5000, discount: 1170, discountCode: 'LAUNCH15', shipping: 599 });
      expect(order.pricing.tax).toBe(Math.floor(((6800 + 999 + 5000 - 1170) * 5) / 100 + 0.5));
      expect(order.pricing.total).toBe(6800 + 999 + 5000 - 1170 + order.pricing.tax + 599);
      const lines = await testApp.database.db.select().from(orderItems).where(eq(orderItems.orderId, order.orderId)).orderBy(orderItems.position);
      expect(lines.map((line) => line.discountMinor)).toEqual([1020, 150, 0]);

      const listed = (await testApp.app.inject({ method: 'GET', url: '/api/admin/discount-codes', headers: { cookie: admin } })).json<{ codes: DiscountCodeSummary[] }>().codes;
      expect(listed.find((entry) => entry.id === code.id)).toMatchObject({ uses: 1, revenueMinor: order.pricing.total });

      const mail = await eventually(async () => {
        const folder = path.join(testApp.dataDir, 'outbox');
        for (const file of await readdir(folder)) {
          if (!file.endsWith('.json')) continue;
          const entry = JSON.parse(await readFile(path.join(folder, file), 'utf8')) as OutboxEntry;
          if (entry.to === 'launch@example.com' && entry.subject.includes(order.orderId)) return entry;
        }
        return undefined;
      }, 15_000, 'the order e-mail');
      expect(mail.text).toContain('Discount (LAUNCH15)');
      expect(mail.text).toMatch(/−BGN\s?11\.70/);
    });

    it('gives free shipping with a free-shipping code', async () => {
      const testApp = context();
      const buyer = await signIn(testApp, 'shipping@example.com');
      await fillCart(testApp, buyer, [oil]);
      await createCode({ code: 'SHIPFREE', kind: 'free_shipping', value: 0 });
      const order = (await orderWithCode(testApp, buyer, 'shipfree')).json<{ order: Order }>().order;
      expect(order.pricing).toMatchObject({ subtotal: 999, discount: 0, discountCode: 'SHIPFREE', shipping: 0, total: 999 + order.pricing.tax });
    });

    it('holds a usage limit of 10 when 100 buyers use the code at once, and a limit per customer', async () => {
      const testApp = context();
      await createCode({ code: 'FIRST10', kind: 'amount', value: 300, usageLimit: 10 });
      const buyers = await buyersWithCarts(testApp, 'rush', 100, [oil]);
      const total = priceLines([{ priceMinor: 999, quantity: 1 }], testApp.config.pricing, 'card', { code: 'FIRST10', productsMinor: 300, freeShipping: false }).total;
      const answers = await checkoutsAtOnce(testApp, buyers, { expectedTotalMinor: total, discountCode: 'FIRST10' });
      expect(answers.filter((answer) => answer.statusCode >= 500)).toEqual([]);
      expect(answers.filter((answer) => answer.statusCode === 201)).toHaveLength(10);
      const refused = answers.filter((answer) => answer.statusCode === 409).map((answer) => answer.json<{ error: { messageKey: string } }>().error.messageKey);
      expect(refused).toEqual(Array.from({ length: 90 }, () => 'discounts.refused.used_up'));
      const [used] = await testApp.database.db
        .select({ count: sql<number>`count(*)`.mapWith(Number) })
        .from(orders)
        .innerJoin(discountCodes, eq(discountCodes.id, orders.discountCodeId))
        .where(eq(discountCodes.code, 'FIRST10'));
      expect(used!.count).toBe(10);

      // Once per customer: her second order with it is refused; a cancelled order gives the use back.
      await createCode({ code: 'ONCE', kind: 'percent', value: 1000, perCustomerLimit: 1 });
      const buyer = await signIn(testApp, 'once@example.com');
      await fillCart(testApp, buyer, [oil]);
      const first = (await orderWithCode(testApp, buyer, 'once')).json<{ order: Order }>().order;
      await fillCart(testApp, buyer, [oil]);
      expect(refusalOf(await orderWithCode(testApp, buyer, 'once'))).toMatchObject({ status: 409, messageKey: 'discounts.refused.used_up' });
      expect((await testApp.app.inject({ method: 'POST', url: `/api/orders/${first.orderId}/cancel`, headers: { cookie: buyer } })).statusCode).toBe(200);
      expect((await orderWithCode(testApp, buyer, 'once')).statusCode).toBe(201);
    }, CROWD_TEST_TIMEOUT_MS);

    it('refuses a client that keeps guessing codes, a real one included', async () => {
      const testApp = context();
      const buyer = await signIn(testApp, 'guesser@example.com');
      await fillCart(testApp, buyer, [oil]);
      await createCode({ code: 'REAL-ONE', kind: 'percent', value: 500 });
      const guesser = nextClientAddress();
      for (let guess = 0; guess < 10; guess++) expect((await checkCode(testApp, buyer, `GUESS${guess}`, guesser)).statusCode).toBe(409);
      const real = await checkCode(testApp, buyer, 'REAL-ONE', guesser);
      expect(refusalOf(real)).toMatchObject({ status: 429, code: 'rate_limited' });
      expect(Number(real.headers['retry-after'])).toBeGreaterThan(0);
      expect(refusalOf(await orderWithCode(testApp, buyer, 'REAL-ONE', guesser))).toMatchObject({ status: 429 });
      // Another client is not held up.
      expect((await checkCode(testApp, buyer, 'REAL-ONE')).statusCode).toBe(200);
    });
  },
  { PAYMENT_METHODS: 'card' },
);
