import { eq, sql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { parseCsv } from '#shared/csv.js';
import { sofiaDate } from '#shared/sofia-time.js';
import { ordersCsv } from '#server/admin/orders-export.js';
import { admins, orders, products } from '#server/db/schema.js';
import { fillCart, placeOrder } from './shopper.js';
import { signIn } from './sign-in.js';
import { describeEachDatabase } from './test-app.js';
import { testProduct } from './test-products.js';

const today = () => sofiaDate(new Date());

describeEachDatabase(
  'the orders export for the accountant',
  (context) => {
    let admin: string;
    let customer: string;
    const placed: string[] = [];

    beforeAll(async () => {
      const testApp = context();
      const [{ id: pearl }] = (await testApp.database.db.insert(products).values(testProduct({ name: 'Pearl Set', nameBg: 'Перлен комплект', priceMinor: 2399 })).returning({ id: products.id })) as [{ id: string }];
      await testApp.database.db.insert(admins).values({ id: 'owner@shop.test' });
      admin = await signIn(testApp, 'owner@shop.test');
      customer = await signIn(testApp, 'buyer@example.com');
      for (const method of ['card', 'cash_on_delivery', 'card', 'card', 'pay_by_link']) {
        await fillCart(testApp, customer, [pearl, pearl]);
        const order = await placeOrder(testApp, customer, { paymentMethod: method });
        placed.push(order.orderId);
      }
      expect((await testApp.app.inject({ method: 'POST', url: `/api/orders/${placed[0]}/payment`, headers: { cookie: customer }, payload: { method: 'card', cardLast4: '4242' } })).statusCode).toBe(200);
      // A name a spreadsheet would run as a formula.
      await testApp.database.db.update(orders).set({ shippingFullName: '=HYPERLINK("http://evil.example")' }).where(eq(orders.id, placed[0]!));
      // One order of months ago, outside today.
      await testApp.database.db.update(orders).set({ createdAt: sql`now() - interval '300 days'`, orderedAt: sql`now() - interval '300 days'` }).where(eq(orders.id, placed[4]!));
    });

    const download = (query: string, cookie = admin) => context().app.inject({ method: 'GET', url: `/api/admin/orders-export?${query}`, headers: { cookie } });

    it('lists the period’s orders with their lines, amounts, status and payment, in English with commas', async () => {
      const response = await download(`from=${today()}&to=${today()}&language=en`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(response.headers['content-disposition']).toBe(`attachment; filename="orders-${today()}-${today()}.csv"`);
      expect(response.body.startsWith('\uFEFF')).toBe(true);
      const [header, ...rows] = parseCsv(response.body);
      expect(header).toEqual(['Order', 'Ordered at', 'Paid at', 'Status', 'E-mail', 'Customer', 'Lines', 'Subtotal', 'Discount', 'Discount code', 'Net', 'VAT', 'Shipping', 'Cash on delivery fee', 'Total', 'Currency', 'Payment method']);
      expect(rows.map((row) => row[0])).toEqual(placed.slice(0, 4));
      const [paid, cash] = rows;
      const order = (await context().database.db.select().from(orders).where(eq(orders.id, placed[0]!)))[0]!;
      expect(paid).toEqual([
        placed[0],
        expect.stringMatching(new RegExp(`^${today()} \\d{2}:\\d{2}$`)),
        expect.stringMatching(new RegExp(`^${today()} \\d{2}:\\d{2}$`)),
        'Paid',
        'buyer@example.com',
        `'=HYPERLINK("http://evil.example")`,
        'Pearl Set × 2 (23.99)',
        (order.subtotalMinor / 100).toFixed(2),
        '0.00',
        '',
        ((order.totalMinor - order.taxMinor) / 100).toFixed(2),
        (order.taxMinor / 100).toFixed(2),
        (order.shippingMinor / 100).toFixed(2),
        '0.00',
        (order.totalMinor / 100).toFixed(2),
        'BGN',
        'Card',
      ]);
      expect(cash!.slice(2, 4)).toEqual(['', 'Accepted']);
      expect(cash![16]).toBe('Cash on delivery');
    });

    it('writes Bulgarian headers, words, decimal commas and semicolons for a Bulgarian Excel', async () => {
      const response = await download(`from=${today()}&to=${today()}&language=bg`);
      const [header, first] = parseCsv(response.body, ';');
      expect(header!.slice(0, 4)).toEqual(['Поръчка', 'Дата на поръчката', 'Платена на', 'Състояние']);
      expect(first![3]).toBe('Платена');
      expect(first![6]).toBe('Перлен комплект × 2 (23,99)');
      expect(first![14]).toMatch(/^\d+,\d{2}$/);
      expect(first![16]).toBe('Карта');
    });

    it('reads a page at a time and loses no order between pages', async () => {
      const chunks: string[] = [];
      for await (const chunk of ordersCsv(context().database.db, { from: sofiaDate(new Date(Date.now() - 350 * 86_400_000)), to: today() }, 'en', 2)) chunks.push(chunk);
      expect(chunks).toHaveLength(4);
      expect(parseCsv(chunks.join('')).slice(1).map((row) => row[0]).sort()).toEqual([...placed].sort());
    });

    it('refuses a period that is none, ends before it begins or is too long, and anyone but an admin', async () => {
      for (const [query, messageKey] of [
        ['from=2026-02-30&to=2026-03-01', 'admin.ordersExport.errors.invalidPeriod'],
        ['from=yesterday&to=2026-03-01', 'admin.ordersExport.errors.invalidPeriod'],
        ['from=2026-03-02&to=2026-03-01', 'admin.ordersExport.errors.endsBeforeStart'],
        ['from=2024-01-01&to=2026-03-01', 'admin.ordersExport.errors.tooLong'],
      ] as const) {
        const refused = await download(query);
        expect(refused.statusCode, query).toBe(400);
        expect(refused.json().error.messageKey).toBe(messageKey);
      }
      expect((await download(`from=${today()}&to=${today()}`, customer)).statusCode).toBe(403);
    });
  },
  { PAYMENT_METHODS: 'card,cash_on_delivery,pay_by_link' },
);
