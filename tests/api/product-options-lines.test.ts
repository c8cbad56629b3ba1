import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import pg from 'pg';
import { beforeAll, expect, it } from 'vitest';
import type { CartItem, CartOperationsResponse, CartResponse } from '#shared/cart.js';
import { priceLines } from '#shared/pricing.js';
import { DEFAULT_NAIL_SIZE_CHART, type NailSizeChart } from '#shared/nail-sizes.js';
import type { Order } from '#shared/orders.js';
import type { LeadTime, LineChoices, OptionGroup, ProductQuestion } from '#shared/product-options.js';
import { dispatchDate } from '#shared/working-days.js';
import { addAdmin } from '#server/auth/roles.js';
import { SIZE_CHART_KEY } from '#server/catalog/size-chart.js';
import { orderItems, orders, productCombinations, products, shopState, stockChanges } from '#server/db/schema.js';
import type { OutboxEntry } from '#server/mail/mailer.js';
import { sofia } from './sample-data.js';
import { someoneWaitsFor } from './lock-waits.js';
import { eventually } from './shopper.js';
import { signIn } from './sign-in.js';
import { describeEachDatabase, type TestApp } from './test-app.js';
import { testProduct } from './test-products.js';

// Cart and order lines of products with options, sizes and questions (issue 27): what a line is,
// what it costs, what it takes from stock, and how the order and its e-mails keep it.

const opId = () => randomUUID().replace(/-/g, '');
const named = (en: string, bg = en) => ({ en, bg });

const SHAPE: OptionGroup = {
  id: 'shape',
  name: named('Shape', 'Форма'),
  values: [
    { id: 'almond', name: named('Almond', 'Бадем'), priceDeltaMinor: 0 },
    { id: 'coffin', name: named('Coffin', 'Ковчег'), priceDeltaMinor: 200 },
    { id: 'stiletto', name: named('Stiletto', 'Стилето'), priceDeltaMinor: 300 },
  ],
};
const LENGTH: OptionGroup = {
  id: 'length',
  name: named('Length', 'Дължина'),
  values: [
    { id: 'short', name: named('Short', 'Къси'), priceDeltaMinor: -100 },
    { id: 'long', name: named('Long', 'Дълги'), priceDeltaMinor: 150 },
  ],
};
const WISH: ProductQuestion = { id: 'wish', label: named('Design wish', 'Желание за дизайна'), required: false, priceDeltaMinor: 250, kind: 'text', maxLength: 20 };
const HAND: ProductQuestion = {
  id: 'hand',
  label: named('Dominant hand', 'Водеща ръка'),
  required: true,
  priceDeltaMinor: 0,
  kind: 'choice',
  choices: [
    { id: 'left', name: named('Left', 'Лява'), priceDeltaMinor: 0 },
    { id: 'right', name: named('Right', 'Дясна'), priceDeltaMinor: 50 },
  ],
};
const MEDIUM = [1, 5, 4, 6, 8, 1, 5, 4, 6, 8];

interface ModelFields {
  name: string;
  nameBg?: string;
  priceMinor: number;
  stock?: number | null;
  optionGroups?: OptionGroup[];
  combinations?: { key: string; stock: number | null }[];
  sized?: boolean;
  questions?: ProductQuestion[];
  leadTime?: LeadTime;
}

/** A product with a model, written straight into the tables (the admin's form for it is another part of the work). */
async function addModelProduct(testApp: TestApp, fields: ModelFields): Promise<string> {
  const { optionGroups = [], combinations, sized = false, questions = [], leadTime = { kind: 'ready', days: 2 }, ...rest } = fields;
  const [row] = await testApp.database.db
    .insert(products)
    .values({
      ...testProduct(rest),
      optionGroups,
      stockMode: combinations ? 'combination' : 'product',
      sized,
      questions,
      leadKind: leadTime.kind,
      leadMinDays: leadTime.kind === 'ready' ? leadTime.days : leadTime.minDays,
      leadMaxDays: leadTime.kind === 'ready' ? leadTime.days : leadTime.maxDays,
    })
    .returning({ id: products.id });
  if (combinations?.length) await testApp.database.db.insert(productCombinations).values(combinations.map((combination) => ({ productId: row!.id, ...combination })));
  return row!.id;
}

const choices = (options: Record<string, string>, extra: Partial<LineChoices> = {}): LineChoices => ({ options, sizes: null, answers: {}, ...extra });

const operate = (testApp: TestApp, cookie: string, operations: unknown[]) =>
  testApp.app.inject({ method: 'POST', url: '/api/cart/operations', headers: { cookie }, payload: { operations } });

async function add(testApp: TestApp, cookie: string, productId: string, lineChoices?: LineChoices) {
  const response = await operate(testApp, cookie, [{ id: opId(), type: 'add', productId, ...(lineChoices ? { choices: lineChoices } : {}) }]);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<CartOperationsResponse>();
}

const cartOf = async (testApp: TestApp, cookie: string) => (await testApp.app.inject({ method: 'GET', url: '/api/cart', headers: { cookie } })).json<CartResponse>().items;

const clearCart = async (testApp: TestApp, cookie: string) => {
  const lines = await cartOf(testApp, cookie);
  if (lines.length > 0) await operate(testApp, cookie, lines.map((line) => ({ id: opId(), type: 'remove', itemId: line.id })));
};

/** Places an order at the total of the cart as shown; answers the raw response. */
async function place(testApp: TestApp, cookie: string, shown?: readonly CartItem[], payload: Record<string, unknown> = {}) {
  const lines = shown ?? (await cartOf(testApp, cookie));
  const total = priceLines(lines, testApp.config.pricing, payload.paymentMethod as string | undefined).total;
  return testApp.app.inject({ method: 'POST', url: '/api/orders', headers: { cookie }, payload: { idempotencyKey: opId(), acceptTerms: true, expectedTotalMinor: total, ...payload } });
}

async function signInWithAddress(testApp: TestApp, email: string): Promise<string> {
  const cookie = await signIn(testApp, email);
  await testApp.app.inject({ method: 'POST', url: '/api/addresses', headers: { cookie }, payload: sofia });
  return cookie;
}

const combinationStock = async (testApp: TestApp, productId: string, key: string) =>
  (await testApp.database.db.select().from(productCombinations).where(and(eq(productCombinations.productId, productId), eq(productCombinations.key, key))))[0]?.stock;

/** The development outbox's messages to the address whose subject holds the text, once one is there. */
async function mailsTo(testApp: TestApp, email: string, subjectPart: string): Promise<OutboxEntry[]> {
  const folder = path.join(testApp.dataDir, 'outbox');
  return eventually(
    async () => {
      const files = await readdir(folder).catch(() => [] as string[]);
      const entries = await Promise.all(files.filter((file) => file.endsWith('.json')).map(async (file) => JSON.parse(await readFile(path.join(folder, file), 'utf8')) as OutboxEntry));
      const found = entries.filter((entry) => entry.to === email && entry.subject.includes(subjectPart));
      return found.length > 0 && found;
    },
    15_000,
    `a message to ${email} about ${subjectPart}`,
  );
}

describeEachDatabase(
  'order lines with choices',
  (context) => {
    let pressOn: string;
    let custom: string;
    let plain: string;

    beforeAll(async () => {
      const testApp = context();
      pressOn = await addModelProduct(testApp, {
        name: 'Pearl Press-on Set',
        nameBg: 'Перлен комплект',
        priceMinor: 2000,
        optionGroups: [SHAPE, LENGTH],
        combinations: [
          { key: 'almond/short', stock: 5 },
          { key: 'almond/long', stock: 2 },
          { key: 'coffin/long', stock: null },
          { key: 'stiletto/long', stock: 1 },
        ],
        sized: true,
        questions: [WISH],
        leadTime: { kind: 'made_to_order', minDays: 3, maxDays: 7 },
      });
      custom = await addModelProduct(testApp, { name: 'Custom Chrome Set', priceMinor: 3000, stock: 3, optionGroups: [SHAPE], questions: [HAND, WISH] });
      [{ id: plain }] = (await testApp.database.db.insert(products).values(testProduct({ name: 'Cuticle Oil', priceMinor: 900, stock: 10 })).returning({ id: products.id })) as [{ id: string }];
      await addAdmin(testApp.database.db, 'owner@shop.test');
    });

    it('keeps the same product with other choices as another line, and the same choices as one line of two pieces', async () => {
      const testApp = context();
      const cookie = await signIn(testApp, 'two-lines@example.com');
      const almondShort = choices({ shape: 'almond', length: 'short' }, { sizes: MEDIUM, answers: { wish: '  pink ombré ' } });
      await add(testApp, cookie, pressOn, almondShort);
      await add(testApp, cookie, pressOn, choices({ length: 'long', shape: 'stiletto' }, { sizes: MEDIUM }));
      // The same choices again, the answer typed without the spaces: the first line grows.
      const { items, outcomes } = await add(testApp, cookie, pressOn, { ...almondShort, answers: { wish: 'pink ombré' } });
      expect(outcomes.map((outcome) => outcome.outcome)).toEqual(['applied']);
      expect(items.map((line) => [line.choices.options, line.quantity])).toEqual([
        [{ shape: 'almond', length: 'short' }, 2],
        [{ shape: 'stiletto', length: 'long' }, 1],
      ]);
      const [first, second] = items as [CartItem, CartItem];
      // 20.00 − 1.00 (short) + 2.50 (a design wish); 20.00 + 3.00 (stiletto) + 1.50 (long).
      expect([first.priceMinor, first.addedPriceMinor, second.priceMinor]).toEqual([2150, 2150, 2450]);
      expect(first).toMatchObject({
        choices: { options: { shape: 'almond', length: 'short' }, sizes: MEDIUM, answers: { wish: 'pink ombré' } },
        summary: {
          options: [
            { group: SHAPE.name, value: named('Almond', 'Бадем') },
            { group: LENGTH.name, value: named('Short', 'Къси') },
          ],
          sizes: MEDIUM,
          answers: [{ question: WISH.label, answer: named('pink ombré') }],
        },
        problem: null,
        // Each line counts its own combination.
        stock: 5,
        dispatchBy: dispatchDate({ kind: 'made_to_order', minDays: 3, maxDays: 7 }, new Date()),
      });
      expect(second.stock).toBe(1);
      expect(first.choiceKey).not.toBe(second.choiceKey);
      expect(await cartOf(testApp, cookie)).toEqual(items);

      // A line is set and taken out by its choices; the other line of the product stays.
      const set = await operate(testApp, cookie, [{ id: opId(), type: 'set', productId: pressOn, choices: first.choices, quantity: 3 }]);
      expect(set.json<CartOperationsResponse>().items.map((line) => line.quantity)).toEqual([3, 1]);
      const removed = await operate(testApp, cookie, [{ id: opId(), type: 'set', productId: pressOn, choices: second.choices, quantity: 0 }]);
      expect(removed.json<CartOperationsResponse>().items.map((line) => line.id)).toEqual([first.id]);
    });

    it('refuses choices that do not fit the product, naming the field, and changes nothing', async () => {
      const testApp = context();
      const cookie = await signIn(testApp, 'refused@example.com');
      const refusals: [string, LineChoices | undefined, string, string][] = [
        [pressOn, undefined, 'option:shape', 'choices.errors.optionRequired'],
        [pressOn, choices({ shape: 'almond' }, { sizes: MEDIUM }), 'option:length', 'choices.errors.optionRequired'],
        [pressOn, choices({ shape: 'square', length: 'long' }, { sizes: MEDIUM }), 'option:shape', 'choices.errors.optionUnknown'],
        // Coffin and short together is not made.
        [pressOn, choices({ shape: 'coffin', length: 'short' }, { sizes: MEDIUM }), 'option:shape', 'choices.errors.combinationUnavailable'],
        [pressOn, choices({ shape: 'almond', length: 'long' }), 'sizes', 'choices.errors.sizesRequired'],
        [pressOn, choices({ shape: 'almond', length: 'long' }, { sizes: [1, 5, 4, 6, 8, 1, 5, 4, 6, 12] }), 'sizes', 'choices.errors.sizeOutsideChart'],
        [pressOn, choices({ shape: 'almond', length: 'long' }, { sizes: MEDIUM, answers: { wish: 'x'.repeat(21) } }), 'answer:wish', 'choices.errors.answerTooLong'],
        [custom, choices({ shape: 'almond' }), 'answer:hand', 'choices.errors.answerRequired'],
        [custom, choices({ shape: 'almond' }, { answers: { hand: 'both' } }), 'answer:hand', 'choices.errors.answerUnknown'],
      ];
      for (const [productId, lineChoices, field, messageKey] of refusals) {
        const { outcomes, items } = await add(testApp, cookie, productId, lineChoices);
        expect(outcomes[0], JSON.stringify(lineChoices)).toMatchObject({ outcome: 'choices_invalid', problem: { field, messageKey } });
        expect(items).toEqual([]);
      }
      // Malformed choices are bad input.
      for (const bad of [{ options: { Shape: 'almond' } }, { options: {}, sizes: [1, 2, 3] }, { options: {}, answers: { wish: 5 } }, 'almond']) {
        expect((await operate(testApp, cookie, [{ id: opId(), type: 'add', productId: pressOn, choices: bad }])).statusCode, JSON.stringify(bad)).toBe(400);
      }
      // Sizes are checked against the shop's chart as the admin saved it.
      const smallChart: NailSizeChart = { sizes: DEFAULT_NAIL_SIZE_CHART.sizes.slice(0, 8), presets: [] };
      await testApp.database.db.insert(shopState).values({ key: SIZE_CHART_KEY, value: JSON.stringify(smallChart) });
      try {
        const { outcomes } = await add(testApp, cookie, pressOn, choices({ shape: 'almond', length: 'long' }, { sizes: MEDIUM }));
        expect(outcomes[0]).toMatchObject({ outcome: 'choices_invalid', problem: { field: 'sizes', messageKey: 'choices.errors.sizeOutsideChart' } });
        expect((await add(testApp, cookie, pressOn, choices({ shape: 'almond', length: 'long' }, { sizes: [1, 5, 4, 6, 7, 1, 5, 4, 6, 7] }))).outcomes[0]?.outcome).toBe('applied');
      } finally {
        await testApp.database.db.delete(shopState).where(eq(shopState.key, SIZE_CHART_KEY));
      }
    });

    it('still takes operations queued without choices for a product sold as it is', async () => {
      const testApp = context();
      const cookie = await signIn(testApp, 'old-queue@example.com');
      const { outcomes, items } = await add(testApp, cookie, plain);
      expect(outcomes[0]?.outcome).toBe('applied');
      expect(items).toMatchObject([{ productId: plain, choiceKey: '', quantity: 1, problem: null }]);
      const set = await operate(testApp, cookie, [{ id: opId(), type: 'set', productId: plain, quantity: 2 }]);
      expect(set.json<CartOperationsResponse>().items.map((line) => line.quantity)).toEqual([2]);
    });

    it('counts every line of a combination against its stock, and every line of a product counted as a whole against the product’s', async () => {
      const testApp = context();
      const cookie = await signIn(testApp, 'counted@example.com');
      const almondLong = choices({ shape: 'almond', length: 'long' }, { sizes: MEDIUM });
      await add(testApp, cookie, pressOn, almondLong);
      // Other sizes, the same combination (2 left): one more fits, then no more.
      const otherSizes = { ...almondLong, sizes: [0, 4, 3, 5, 7, 0, 4, 3, 5, 7] };
      expect((await add(testApp, cookie, pressOn, otherSizes)).outcomes[0]?.outcome).toBe('applied');
      const short = await add(testApp, cookie, pressOn, otherSizes);
      expect(short.outcomes[0]).toMatchObject({ outcome: 'stock_short', shortage: { productId: pressOn, wanted: 2, left: 1 } });
      // Made to order has no limit.
      const coffin = await operate(testApp, cookie, [{ id: opId(), type: 'set', productId: pressOn, choices: choices({ shape: 'coffin', length: 'long' }, { sizes: MEDIUM }), quantity: 20 }]);
      expect(coffin.json<CartOperationsResponse>().outcomes[0]?.outcome).toBe('applied');

      // The custom set has 3 pieces for all its shapes together.
      const left = choices({ shape: 'almond' }, { answers: { hand: 'left' } });
      const right = choices({ shape: 'coffin' }, { answers: { hand: 'right' } });
      await operate(testApp, cookie, [{ id: opId(), type: 'set', productId: custom, choices: left, quantity: 2 }]);
      const tooMany = await operate(testApp, cookie, [{ id: opId(), type: 'set', productId: custom, choices: right, quantity: 2 }]);
      expect(tooMany.json<CartOperationsResponse>().outcomes[0]).toMatchObject({ outcome: 'stock_short', shortage: { wanted: 2, left: 1 } });
      expect((await add(testApp, cookie, custom, right)).outcomes[0]?.outcome).toBe('applied');
      await clearCart(testApp, cookie);
    });

    it('orders the lines at their prices with choices, takes each combination’s pieces, and keeps the choices and dates', async () => {
      const testApp = context();
      const cookie = await signInWithAddress(testApp, 'orderer@example.com');
      await add(testApp, cookie, pressOn, choices({ shape: 'stiletto', length: 'long' }, { sizes: MEDIUM, answers: { wish: 'gold' } }));
      await add(testApp, cookie, pressOn, choices({ shape: 'almond', length: 'short' }, { sizes: MEDIUM }));
      await add(testApp, cookie, pressOn, choices({ shape: 'almond', length: 'short' }, { sizes: MEDIUM }));
      await add(testApp, cookie, custom, choices({ shape: 'coffin' }, { answers: { hand: 'right', wish: 'chrome' } }));
      await add(testApp, cookie, plain);
      const shown = await cartOf(testApp, cookie);
      // 20 + 3 + 1.5 + 2.5; 20 − 1 (twice); 30 + 2 + 0.5 (right) + 2.5 (wish); 9.
      expect(shown.map((line) => [line.priceMinor, line.quantity])).toEqual([
        [2700, 1],
        [1900, 2],
        [3500, 1],
        [900, 1],
      ]);
      const stockBefore = { custom: 3, plain: 10 };
      for (const [id, stock] of [
        [custom, stockBefore.custom],
        [plain, stockBefore.plain],
      ] as const)
        await testApp.database.db.update(products).set({ stock }).where(eq(products.id, id));

      const response = await place(testApp, cookie, shown);
      expect(response.statusCode, response.body).toBe(201);
      const order = response.json<{ order: Order }>().order;
      expect(order.pricing.subtotal).toBe(2700 + 3800 + 3500 + 900);
      expect(order.pricing.total).toBe(priceLines(shown, testApp.config.pricing).total);
      const madeToOrder = dispatchDate({ kind: 'made_to_order', minDays: 3, maxDays: 7 }, new Date());
      const ready = dispatchDate({ kind: 'ready', days: 2 }, new Date());
      expect(order.items.map((item) => [item.priceMinor, item.quantity, item.dispatchBy])).toEqual([
        [2700, 1, madeToOrder],
        [1900, 2, madeToOrder],
        [3500, 1, ready],
        [900, 1, ready],
      ]);
      expect(order.dispatchBy).toBe(madeToOrder);
      expect(order.items[0]!.choices).toEqual({
        options: [
          { group: SHAPE.name, value: named('Stiletto', 'Стилето') },
          { group: LENGTH.name, value: named('Long', 'Дълги') },
        ],
        sizes: MEDIUM,
        answers: [{ question: WISH.label, answer: named('gold') }],
      });
      expect(order.items[2]!.choices.answers.map((answer) => answer.answer.en)).toEqual(['Right', 'chrome']);
      expect(order.items[3]!.choices).toEqual({ options: [], sizes: null, answers: [] });

      // Each combination's count and the product counts took their pieces, and the log says which.
      expect(await combinationStock(testApp, pressOn, 'stiletto/long')).toBe(0);
      expect(await combinationStock(testApp, pressOn, 'almond/short')).toBe(3);
      const [customRow] = await testApp.database.db.select({ stock: products.stock }).from(products).where(eq(products.id, custom));
      expect(customRow!.stock).toBe(2);
      const logged = await testApp.database.db.select().from(stockChanges).where(eq(stockChanges.orderId, order.orderId));
      expect(logged.map((change) => [change.productId, change.combinationKey, change.change]).sort()).toEqual(
        [
          [pressOn, 'almond/short', -2],
          [pressOn, 'stiletto/long', -1],
          [custom, null, -1],
          [plain, null, -1],
        ].sort(),
      );
      const items = await testApp.database.db.select().from(orderItems).where(eq(orderItems.orderId, order.orderId)).orderBy(orderItems.position);
      expect(items.map((item) => item.combinationKey)).toEqual(['stiletto/long', 'almond/short', null, null]);
      const [orderRow] = await testApp.database.db.select({ dispatchBy: orders.dispatchBy }).from(orders).where(eq(orders.id, order.orderId));
      expect(orderRow!.dispatchBy).toBe(madeToOrder);
      // The order reads the same through the API later.
      const read = await testApp.app.inject({ method: 'GET', url: `/api/orders/${order.orderId}`, headers: { cookie } });
      expect(read.json<{ order: Order }>().order.items).toEqual(order.items);

      // Cancelled, the order gives each piece back to its combination; reopened, it takes them again.
      const admin = await signIn(testApp, 'owner@shop.test');
      const status = (value: string) => testApp.app.inject({ method: 'PATCH', url: `/api/admin/orders/${order.orderId}/status`, headers: { cookie: admin }, payload: { status: value } });
      expect((await status('cancelled')).statusCode).toBe(200);
      expect(await combinationStock(testApp, pressOn, 'stiletto/long')).toBe(1);
      expect(await combinationStock(testApp, pressOn, 'almond/short')).toBe(5);
      expect((await testApp.database.db.select({ stock: products.stock }).from(products).where(eq(products.id, custom)))[0]!.stock).toBe(3);
      expect((await status('preparing')).statusCode).toBe(200);
      expect(await combinationStock(testApp, pressOn, 'stiletto/long')).toBe(0);
      expect(await combinationStock(testApp, pressOn, 'almond/short')).toBe(3);
      expect((await status('cancelled')).statusCode).toBe(200);
      expect(await combinationStock(testApp, pressOn, 'stiletto/long')).toBe(1);
    });

    it('shows each line’s choices and the day the order ships by in its e-mails, in both languages', async () => {
      const testApp = context();
      const cookie = await signInWithAddress(testApp, 'mail-bg@example.com');
      await add(testApp, cookie, pressOn, choices({ shape: 'almond', length: 'short' }, { sizes: MEDIUM, answers: { wish: 'pink' } }));
      await add(testApp, cookie, plain);
      const response = await place(testApp, cookie, undefined, { language: 'bg' });
      expect(response.statusCode, response.body).toBe(201);
      const order = response.json<{ order: Order }>().order;
      const [confirmation] = await mailsTo(testApp, 'mail-bg@example.com', order.orderId);
      const [year, month, day] = order.dispatchBy!.split('-').map(Number) as [number, number, number];
      const bgMonths = ['ян.', 'февр.', 'март', 'апр.', 'май', 'юни', 'юли', 'авг.', 'септ.', 'окт.', 'ноем.', 'дек.'];
      const weekday = new Intl.DateTimeFormat('bg-BG', { weekday: 'short', timeZone: 'UTC' }).format(new Date(Date.UTC(year, month - 1, day, 12)));
      const line = 'Бадем · Къси · Размери 1-5-4-6-8 / 1-5-4-6-8 · Желание за дизайна: pink';
      for (const part of [`Изпращане до ${weekday}, ${day} ${bgMonths[month - 1]}`, line]) {
        expect(confirmation!.text).toContain(part);
        expect(confirmation!.html).toContain(part);
      }
      // A product sold as it is has no line of choices.
      expect(confirmation!.text.replace(/\u00a0/g, ' ')).toMatch(/Cuticle Oil: BGN 9,00\n(?! {2})/);

      const english = await signInWithAddress(testApp, 'mail-en@example.com');
      await add(testApp, english, pressOn, choices({ shape: 'stiletto', length: 'long' }, { sizes: MEDIUM }));
      const placed = await place(testApp, english, undefined, { language: 'en' });
      expect(placed.statusCode, placed.body).toBe(201);
      const englishOrder = placed.json<{ order: Order }>().order;
      const [englishMail] = await mailsTo(testApp, 'mail-en@example.com', englishOrder.orderId);
      const shipsBy = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' }).format(new Date(`${englishOrder.dispatchBy}T12:00:00Z`));
      expect(englishMail!.text).toContain(`Ships by ${shipsBy}`);
      expect(englishMail!.text).toContain('Stiletto · Long · Sizes 1-5-4-6-8 / 1-5-4-6-8');

      // The status message tells the lines too, and while the order is made, when it ships.
      const admin = await signIn(testApp, 'owner@shop.test');
      const changed = await testApp.app.inject({ method: 'PATCH', url: `/api/admin/orders/${englishOrder.orderId}/status`, headers: { cookie: admin }, payload: { status: 'preparing' } });
      expect(changed.statusCode).toBe(200);
      const [preparing] = await mailsTo(testApp, 'mail-en@example.com', `preparing your order #${englishOrder.orderId}`);
      expect(preparing!.text).toContain(`Ships by ${shipsBy}`);
      expect(preparing!.html).toContain('Stiletto · Long · Sizes 1-5-4-6-8 / 1-5-4-6-8');
      await testApp.app.inject({ method: 'PATCH', url: `/api/admin/orders/${englishOrder.orderId}/status`, headers: { cookie: admin }, payload: { status: 'cancelled' } });
    });

    it('forgets the sizes and answers of a customer who deletes their account, keeping the options sold', async () => {
      const testApp = context();
      const cookie = await signInWithAddress(testApp, 'leaving@example.com');
      await add(testApp, cookie, pressOn, choices({ shape: 'almond', length: 'short' }, { sizes: MEDIUM, answers: { wish: 'my initials A.B.' } }));
      const response = await place(testApp, cookie);
      expect(response.statusCode, response.body).toBe(201);
      const { orderId } = response.json<{ order: Order }>().order;
      const deleted = await testApp.app.inject({ method: 'DELETE', url: '/api/account', headers: { cookie }, payload: { email: 'leaving@example.com' } });
      expect(deleted.statusCode, deleted.body).toBeLessThan(300);
      const [item] = await testApp.database.db.select().from(orderItems).where(eq(orderItems.orderId, orderId));
      expect(item!.choices).toEqual({ options: [{ group: SHAPE.name, value: named('Almond', 'Бадем') }, { group: LENGTH.name, value: named('Short', 'Къси') }], sizes: null, answers: [] });
      expect(item!.priceMinor).toBe(2150);
    });

    it('asks the buyer to confirm again when the product changed while the line sat in the cart', async () => {
      const testApp = context();
      const cookie = await signInWithAddress(testApp, 'edited@example.com');
      const product = await addModelProduct(testApp, { name: 'Editable Set', priceMinor: 1500, optionGroups: [SHAPE, LENGTH], combinations: [{ key: 'coffin/long', stock: 4 }, { key: 'almond/long', stock: 4 }] });
      await add(testApp, cookie, product, choices({ shape: 'coffin', length: 'long' }));
      const shown = await cartOf(testApp, cookie);
      expect(shown[0]!.priceMinor).toBe(1850);

      // The coffin shape costs more now: the cart shows it, and the total the buyer saw is refused.
      const dearer: OptionGroup = { ...SHAPE, values: SHAPE.values.map((value) => (value.id === 'coffin' ? { ...value, priceDeltaMinor: 500 } : value)) };
      await testApp.database.db.update(products).set({ optionGroups: [dearer, LENGTH] }).where(eq(products.id, product));
      const now = await cartOf(testApp, cookie);
      expect(now[0]).toMatchObject({ priceMinor: 2150, addedPriceMinor: 1850, problem: null });
      const refused = await place(testApp, cookie, shown);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error.code).toBe('price_changed');

      // The coffin shape is gone: the line names the problem, and the checkout refuses it whatever the total.
      await testApp.database.db.update(products).set({ optionGroups: [{ ...SHAPE, values: SHAPE.values.filter((value) => value.id !== 'coffin') }, LENGTH] }).where(eq(products.id, product));
      const withProblem = await cartOf(testApp, cookie);
      expect(withProblem[0]!.problem).toEqual({ field: 'option:shape', messageKey: 'choices.errors.optionUnknown' });
      const changed = await place(testApp, cookie, withProblem);
      expect(changed.statusCode).toBe(409);
      expect(changed.json().error).toMatchObject({ code: 'choices_changed', field: 'option:shape', messageKey: 'choices.errors.optionUnknown' });
      expect(await combinationStock(testApp, product, 'coffin/long')).toBe(4);

      // The line can still shrink or go; a new choice is made instead.
      await clearCart(testApp, cookie);
      await testApp.database.db.update(products).set({ optionGroups: [SHAPE, LENGTH] }).where(eq(products.id, product));
      await add(testApp, cookie, product, choices({ shape: 'almond', length: 'long' }));
      // Its combination removed from sale: the same.
      await testApp.database.db.delete(productCombinations).where(and(eq(productCombinations.productId, product), eq(productCombinations.key, 'almond/long')));
      const removedCombination = await cartOf(testApp, cookie);
      expect(removedCombination[0]).toMatchObject({ stock: 0, problem: { field: 'option:shape', messageKey: 'choices.errors.combinationUnavailable' } });
      const refusedAgain = await place(testApp, cookie, removedCombination);
      expect(refusedAgain.json().error).toMatchObject({ code: 'choices_changed', messageKey: 'choices.errors.combinationUnavailable' });
      await clearCart(testApp, cookie);
    });

    it('sells a combination’s last pieces to exactly as many of the buyers checking out at once', async () => {
      const testApp = context();
      const product = await addModelProduct(testApp, { name: 'Limited Set', priceMinor: 2500, optionGroups: [SHAPE, LENGTH], combinations: [{ key: 'almond/long', stock: 3 }, { key: 'coffin/long', stock: 10 }] });
      const buyers = await Promise.all(
        Array.from({ length: 8 }, async (_, index) => {
          const cookie = await signInWithAddress(testApp, `rush${index}@example.com`);
          await add(testApp, cookie, product, choices({ shape: 'almond', length: 'long' }));
          // Every buyer also takes a piece of another combination, which is plenty.
          await add(testApp, cookie, product, choices({ shape: 'coffin', length: 'long' }));
          return cookie;
        }),
      );
      const answers = await Promise.all(buyers.map((cookie) => place(testApp, cookie)));
      expect(answers.filter((answer) => answer.statusCode >= 500).map((answer) => answer.body)).toEqual([]);
      expect(answers.filter((answer) => answer.statusCode === 201)).toHaveLength(3);
      const refusals = answers.filter((answer) => answer.statusCode !== 201);
      expect(refusals).toHaveLength(5);
      for (const refusal of refusals) expect(refusal.json().error).toMatchObject({ code: 'stock_short', shortages: [{ productId: product, combinationKey: 'almond/long', left: 0 }] });
      expect(await combinationStock(testApp, product, 'almond/long')).toBe(0);
      expect(await combinationStock(testApp, product, 'coffin/long')).toBe(7);
      const sold = await testApp.database.db.select().from(orderItems).where(eq(orderItems.productId, product));
      expect(sold.filter((item) => item.combinationKey === 'almond/long')).toHaveLength(3);
    });

    it('never sells a combination an admin removes while buyers check out', async () => {
      const testApp = context();
      const product = await addModelProduct(testApp, { name: 'Retiring Set', priceMinor: 2500, optionGroups: [SHAPE, LENGTH], combinations: [{ key: 'almond/long', stock: 20 }, { key: 'coffin/long', stock: 20 }] });
      const buyers = await Promise.all(
        Array.from({ length: 10 }, async (_, index) => {
          const cookie = await signInWithAddress(testApp, `retiring${index}@example.com`);
          await add(testApp, cookie, product, choices({ shape: 'almond', length: 'long' }));
          return cookie;
        }),
      );
      const checkouts = buyers.map((cookie) => place(testApp, cookie));
      // The admin removes the combination as soon as the first order is placed, while the others are under way: the race under test.
      const removal = Promise.race(checkouts).then(() =>
        testApp.database.db.transaction(async (tx) => {
          await tx.update(products).set({ priceMinor: 2500 }).where(eq(products.id, product));
          await tx.delete(productCombinations).where(and(eq(productCombinations.productId, product), eq(productCombinations.key, 'almond/long')));
        }),
      );
      const [answers] = await Promise.all([Promise.all(checkouts), removal]);
      expect(answers.filter((answer) => answer.statusCode >= 500).map((answer) => answer.body)).toEqual([]);
      const placed = answers.filter((answer) => answer.statusCode === 201);
      expect(placed.length).toBeGreaterThan(0);
      for (const refused of answers.filter((answer) => answer.statusCode !== 201)) {
        expect(refused.json().error).toMatchObject({ code: 'choices_changed', messageKey: 'choices.errors.combinationUnavailable' });
      }
      // Every sale took its piece from the combination while it was on sale, one after another.
      const sales = await testApp.database.db.select().from(stockChanges).where(and(eq(stockChanges.productId, product), eq(stockChanges.combinationKey, 'almond/long')));
      expect(sales).toHaveLength(placed.length);
      expect(sales.map((sale) => sale.stockAfter).sort((a, b) => b! - a!)).toEqual(placed.map((_, index) => 19 - index));
      expect(await combinationStock(testApp, product, 'almond/long')).toBeUndefined();
      // Those who were too late are told, and nothing more is sold.
      for (const [index, answer] of answers.entries()) {
        if (answer.statusCode === 201) continue;
        expect((await cartOf(testApp, buyers[index]!))[0]!.problem?.messageKey).toBe('choices.errors.combinationUnavailable');
        expect((await place(testApp, buyers[index]!)).statusCode).toBe(409);
      }
    });

    it('makes a checkout wait for an admin removing its combination, then refuses it [postgres]', async ({ skip }) => {
      const testApp = context();
      if (!testApp.databaseUrl) skip('needs a second connection of its own');
      const product = await addModelProduct(testApp, { name: 'Withdrawn Set', priceMinor: 2500, optionGroups: [SHAPE, LENGTH], combinations: [{ key: 'almond/long', stock: 5 }] });
      const cookie = await signInWithAddress(testApp, 'waiting@example.com');
      await add(testApp, cookie, product, choices({ shape: 'almond', length: 'long' }));
      const admin = new pg.Client({ connectionString: testApp.databaseUrl });
      await admin.connect();
      try {
        await admin.query('begin');
        await admin.query(`delete from product_combinations where product_id = $1 and key = 'almond/long'`, [product]);
        let answered = false;
        const checkout = place(testApp, cookie).finally(() => (answered = true));
        await someoneWaitsFor(admin, 'the checkout to wait for the removed combination');
        expect(answered).toBe(false);
        await admin.query('commit');
        const answer = await checkout;
        expect(answer.statusCode).toBe(409);
        expect(answer.json().error).toMatchObject({ code: 'choices_changed', messageKey: 'choices.errors.combinationUnavailable' });
        expect(await testApp.database.db.select().from(orderItems).where(eq(orderItems.productId, product))).toEqual([]);
      } finally {
        await admin.end();
      }
    });
  },
  { STATUS_MAIL_DELAY_SECONDS: '0' },
);

describeEachDatabase(
  'order lines with choices in a euro shop with final prices',
  (context) => {
    it('puts option differences and add-ons in the cart and order totals, tax included', async () => {
      const testApp = context();
      const product = await addModelProduct(testApp, { name: 'Euro Set', priceMinor: 1738, stock: 4, optionGroups: [SHAPE], questions: [HAND, WISH] });
      const cookie = await signInWithAddress(testApp, 'euro@example.com');
      await add(testApp, cookie, product, choices({ shape: 'coffin' }, { answers: { hand: 'right', wish: 'glitter' } }));
      await add(testApp, cookie, product, choices({ shape: 'almond' }, { answers: { hand: 'left' } }));
      const shown = await cartOf(testApp, cookie);
      // 17.38 + 2.00 + 0.50 + 2.50 and 17.38.
      expect(shown.map((line) => line.priceMinor)).toEqual([2238, 1738]);
      const response = await place(testApp, cookie, shown);
      expect(response.statusCode, response.body).toBe(201);
      const order = response.json<{ order: Order }>().order;
      // 39.76 + 4.50 shipping = 44.26, the VAT within it.
      expect(order).toMatchObject({ currency: 'EUR', pricing: { ...priceLines(shown, testApp.config.pricing), subtotal: 3976, total: 4426, taxIncluded: true } });
      expect(order.items.map((item) => item.priceMinor)).toEqual([2238, 1738]);
    });
  },
  { SHOP_CURRENCY: 'EUR', TAX_RATE: '0.2', PRICES_INCLUDE_TAX: 'true', SHIPPING_FEE: '4.50' },
);
