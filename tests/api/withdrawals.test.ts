import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '#shared/orders.js';
import { returnMarksOf, type AdminWithdrawal, type ReturnRule, type Withdrawal, type WithdrawalPreview } from '#shared/withdrawals.js';
import { admins, mailQueue, orderItems, orders, products, refunds, stockChanges, withdrawals } from '#server/db/schema.js';
import { startSmtpInbox, type SmtpInbox } from '../support/smtp-inbox.js';
import { fillCart, placeOrder, signInThroughInbox } from './shopper.js';
import { createTestApp, databaseTargets, type TestApp } from './test-app.js';
import { testProduct } from './test-products.js';

// The EU withdrawal button's two steps, signed out and signed in; the period; exempt lines; the
// admin's receipt of the goods (stock back once) and refunds (never more than paid, also at once).

const requestId = () => randomUUID().replace(/-/g, '');
const DAY = 24 * 60 * 60 * 1000;

for (const target of databaseTargets) {
  describe(`withdrawals [${target}]`, () => {
    let inbox: SmtpInbox;
    let testApp: TestApp;
    let pearl: string;
    let foil: string;
    let admin: string;

    const post = (url: string, payload: object, cookie?: string) => testApp.app.inject({ method: 'POST', url, payload, ...(cookie ? { headers: { cookie } } : {}) });
    /** Marks the product as its owner would in the product form (product-model.test.ts). */
    const markReturnRule = (id: string, rule: ReturnRule) => testApp.database.db.update(products).set(returnMarksOf(rule)).where(eq(products.id, id));
    const stockOf = async (id: string) => (await testApp.database.db.select({ stock: products.stock }).from(products).where(eq(products.id, id)))[0]!.stock;

    /** A paid order of the products, delivered `daysAgo` days ago (null: not delivered yet). */
    async function deliveredOrder(email: string, productIds: string[], daysAgo: number | null, language = 'en', paymentMethod = 'card'): Promise<{ order: Order; cookie: string }> {
      const cookie = await signInThroughInbox(testApp, inbox, email);
      await fillCart(testApp, cookie, productIds);
      const order = await placeOrder(testApp, cookie, { paymentMethod, language });
      if (paymentMethod === 'card') expect((await post(`/api/orders/${order.orderId}/payment`, { method: 'card', cardLast4: '4242' }, cookie)).statusCode).toBe(200);
      if (daysAgo !== null) {
        if (paymentMethod === 'cash_on_delivery') {
          expect((await post(`/api/admin/orders/${order.orderId}/cash-payment`, {}, admin)).statusCode).toBeLessThan(300);
        }
        await testApp.database.db
          .update(orders)
          .set({ status: 'delivered', deliveredAt: sql`now() - make_interval(secs => ${daysAgo * 86400})` })
          .where(eq(orders.id, order.orderId));
      }
      return { order, cookie };
    }

    beforeAll(async () => {
      inbox = await startSmtpInbox();
      testApp = await createTestApp(target, { SMTP_URL: inbox.url, SUPPORT_EMAIL: 'help@shop.test', PAYMENT_METHODS: 'pay_by_link,card,cash_on_delivery' });
      [{ id: pearl }, { id: foil }] = (await testApp.database.db
        .insert(products)
        .values([testProduct({ name: 'Pearl Set', nameBg: 'Перлен комплект', priceMinor: 1999, stock: 50 }), testProduct({ name: 'Gold Foil', priceMinor: 1000, stock: 50 })])
        .returning({ id: products.id })) as [{ id: string }, { id: string }];
      await testApp.database.db.insert(admins).values({ id: 'owner@shop.test' });
      admin = await signInThroughInbox(testApp, inbox, 'owner@shop.test');
    });
    afterAll(async () => {
      await testApp?.close();
      await inbox?.close();
    });

    it('lets a visitor withdraw with the order number and e-mail: a preview records nothing, the confirmation records once and is acknowledged', async () => {
      const { order } = await deliveredOrder('guest@example.com', [pearl, pearl, foil], 3, 'bg');
      const preview = await post('/api/withdrawals/preview', { orderId: order.orderId, email: 'Guest@Example.com' });
      expect(preview.statusCode).toBe(200);
      const shown = preview.json<{ preview: WithdrawalPreview }>().preview;
      expect(shown.selected).toEqual([
        { position: 0, quantity: 2 },
        { position: 1, quantity: 1 },
      ]);
      expect(shown.lines.map((line) => line.exemption)).toEqual([null, null]);
      expect(await testApp.database.db.select().from(withdrawals).where(eq(withdrawals.orderId, order.orderId))).toEqual([]);

      const statement = { orderId: order.orderId, email: 'guest@example.com', requestId: requestId(), fullName: 'Мария Иванова', acknowledgementEmail: 'guest@example.com' };
      const [first, second] = await Promise.all([post('/api/withdrawals', statement), post('/api/withdrawals', statement)]);
      expect([first.statusCode, second.statusCode].sort()).toEqual([200, 201]);
      expect(first.json<{ withdrawal: Withdrawal }>().withdrawal.id).toBe(second.json<{ withdrawal: Withdrawal }>().withdrawal.id);
      expect(await testApp.database.db.select().from(withdrawals).where(eq(withdrawals.orderId, order.orderId))).toHaveLength(1);

      const acknowledgement = await inbox.waitForMail('guest@example.com', 15_000, (mail) => mail.subject.includes('отказа'));
      expect(acknowledgement.subject).toBe(`Получихме отказа ви от поръчка № ${order.orderId}`);
      expect(acknowledgement.text).toContain('С настоящото аз, Мария Иванова, уведомявам, че се отказвам');
      expect(acknowledgement.text).toContain('Перлен комплект');
      // The moment of submission to the second, in Sofia's time.
      expect(acknowledgement.text).toMatch(/\d{1,2}:\d{2}:\d{2}/);
      const notice = await inbox.waitForMail('owner@shop.test', 15_000, (mail) => mail.subject.includes(order.orderId));
      expect(notice.subject).toContain(order.orderId);

      // Nothing is left to withdraw now.
      const again = await post('/api/withdrawals', { ...statement, requestId: requestId() });
      expect(again.statusCode).toBe(409);
      expect(again.json().error).toMatchObject({ code: 'conflict', messageKey: 'withdrawalForm.errors.withdrawal_nothing_left' });
    });

    it('acknowledges in the language of the form the buyer used, and in the order’s when the form says none', async () => {
      const { order } = await deliveredOrder('switched@example.com', [pearl, foil], 2, 'bg');
      const statement = { orderId: order.orderId, email: 'switched@example.com', fullName: 'Maria Ivanova', acknowledgementEmail: 'switched@example.com' };
      const inEnglish = await post('/api/withdrawals', { ...statement, requestId: requestId(), language: 'en', lines: [{ position: 0, quantity: 1 }] });
      expect(inEnglish.statusCode).toBe(201);
      const english = await inbox.waitForMail('switched@example.com', 15_000, (mail) => mail.subject.includes('withdrawal'));
      expect(english.subject).toBe(`We have received your withdrawal from order #${order.orderId}`);
      const unsaid = await post('/api/withdrawals', { ...statement, requestId: requestId(), lines: [{ position: 1, quantity: 1 }] });
      expect(unsaid.statusCode).toBe(201);
      const bulgarian = await inbox.waitForMail('switched@example.com', 15_000, (mail) => mail.subject.includes('отказа'));
      expect(bulgarian.subject).toBe(`Получихме отказа ви от поръчка № ${order.orderId}`);
      expect((await post('/api/withdrawals', { ...statement, requestId: requestId(), language: 'de' })).statusCode).toBe(400);
    });

    it('finds the order by its number as a buyer types it: in small letters, with a # before it', async () => {
      const { order } = await deliveredOrder('typed@example.com', [pearl], 1, 'en');
      for (const typed of [order.orderId.toLowerCase(), ` #${order.orderId.toLowerCase()} `, `#${order.orderId}`]) {
        const preview = await post('/api/withdrawals/preview', { orderId: typed, email: 'typed@example.com' });
        expect(preview.statusCode, typed).toBe(200);
        expect(preview.json<{ preview: WithdrawalPreview }>().preview.orderId, typed).toBe(order.orderId);
      }
    });

    it('answers a wrong e-mail exactly as an unknown order', async () => {
      const { order } = await deliveredOrder('owner-of-order@example.com', [foil], 1);
      const wrongPair = await post('/api/withdrawals/preview', { orderId: order.orderId, email: 'someone@example.com' });
      const unknown = await post('/api/withdrawals/preview', { orderId: 'NA-NOSUCH00', email: 'someone@example.com' });
      const noEmail = await post('/api/withdrawals/preview', { orderId: order.orderId });
      expect(wrongPair.statusCode).toBe(404);
      expect(wrongPair.body).toBe(unknown.body);
      expect(noEmail.body).toBe(unknown.body);
      expect(wrongPair.json().error).toMatchObject({ code: 'not_found', messageKey: 'withdrawalForm.errors.withdrawal_not_found' });
      const confirm = await post('/api/withdrawals', { orderId: order.orderId, email: 'someone@example.com', requestId: requestId(), fullName: 'X', acknowledgementEmail: 'someone@example.com' });
      expect(confirm.body).toBe(unknown.body);
    });

    it('makes an address that keeps getting the pair wrong wait, a right pair included, and no other address', async () => {
      const { order } = await deliveredOrder('guessed@example.com', [foil], 1);
      const lookUp = (email: string, remoteAddress: string) =>
        testApp.app.inject({ method: 'POST', url: '/api/withdrawals/preview', payload: { orderId: order.orderId, email }, remoteAddress });
      for (let guess = 0; guess < 10; guess += 1) expect((await lookUp(`guess-${guess}@example.com`, '10.66.0.1')).statusCode).toBe(404);
      const refused = await lookUp('guessed@example.com', '10.66.0.1');
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error.code).toBe('rate_limited');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(14 * 60);
      expect((await lookUp('guessed@example.com', '10.66.0.2')).statusCode).toBe(200);
    });

    it('keeps a deleted account’s withdrawal and refund for the accounts, without the person', async () => {
      const { order, cookie } = await deliveredOrder('leaving@example.com', [foil], 1, 'en', 'cash_on_delivery');
      const made = await post('/api/withdrawals', {
        orderId: order.orderId,
        requestId: requestId(),
        fullName: 'Leaving Person',
        acknowledgementEmail: 'leaving@example.com',
        reason: 'My own words about my nails',
        iban: 'BG80 BNBG 9661 1020 3456 78',
      }, cookie);
      expect(made.statusCode, made.body).toBe(201);
      const { withdrawal } = made.json<{ withdrawal: Withdrawal }>();
      expect((await post(`/api/admin/orders/${order.orderId}/refunds`, { requestId: requestId(), withdrawalId: withdrawal.id }, admin)).statusCode).toBe(201);

      const deleted = await testApp.app.inject({ method: 'DELETE', url: '/api/account', headers: { cookie }, payload: { email: 'leaving@example.com' } });
      expect(deleted.statusCode, deleted.body).toBe(204);
      const [kept] = await testApp.database.db.select().from(withdrawals).where(eq(withdrawals.id, withdrawal.id));
      expect(kept).toMatchObject({ fullName: '', reason: null, iban: null, lines: [{ position: 0, quantity: 1 }], state: 'refunded' });
      expect(kept!.acknowledgementEmail).not.toContain('leaving');
      const [refund] = await testApp.database.db.select().from(refunds).where(eq(refunds.orderId, order.orderId));
      expect(refund).toMatchObject({ iban: null, method: 'bank_transfer' });
    });

    it('lets a signed-in buyer withdraw from chosen lines of her own order without the e-mail, and shows it on the order', async () => {
      const { order, cookie } = await deliveredOrder('signed@example.com', [pearl, foil], null);
      const confirmed = await post('/api/withdrawals', { orderId: order.orderId, requestId: requestId(), lines: [{ position: 1, quantity: 1 }], fullName: 'Ana', acknowledgementEmail: 'signed@example.com' }, cookie);
      expect(confirmed.statusCode).toBe(201);
      expect(confirmed.json<{ withdrawal: Withdrawal }>().withdrawal).toMatchObject({ lines: [{ position: 1, quantity: 1 }], wholeOrder: false, state: 'requested' });
      const listed = (await testApp.app.inject({ method: 'GET', url: '/api/orders', headers: { cookie } })).json<{ orders: Order[] }>().orders;
      const shown = listed.find((candidate) => candidate.orderId === order.orderId)!;
      expect(shown.afterSale).toMatchObject({ withdrawalOpen: true, withdrawalDeadline: null, withdrawals: [{ state: 'requested' }] });
      // Another buyer's session does not make her order his.
      const other = await signInThroughInbox(testApp, inbox, 'other@example.com');
      expect((await post('/api/withdrawals/preview', { orderId: order.orderId }, other)).statusCode).toBe(404);
    });

    /** An order placed while the product had the rule, which the product loses again after the sale. */
    async function orderedUnderRule(email: string, productIds: string[], marked: string, rule: ReturnRule) {
      await markReturnRule(marked, rule);
      try {
        return await deliveredOrder(email, productIds, 2);
      } finally {
        await markReturnRule(marked, 'standard');
      }
    }

    it('shows made-to-measure and personalised lines as not withdrawable and refuses them, by the rule the buyer was told when she ordered', async () => {
      const { order } = await orderedUnderRule('custom@example.com', [pearl, foil], foil, 'personalised');
      const sizes = [3, 6, 5, 7, 9, 3, 6, 5, 7, 9];
      await testApp.database.db
        .update(orderItems)
        .set({ choices: { options: [], sizes, answers: [] } })
        .where(and(eq(orderItems.orderId, order.orderId), eq(orderItems.position, 0)));
      const refused = await post('/api/withdrawals/preview', { orderId: order.orderId, email: 'custom@example.com' });
      expect(refused.json().error.messageKey).toBe('withdrawalForm.errors.withdrawal_nothing_left');
      const lines = await post('/api/withdrawals/preview', { orderId: order.orderId, email: 'custom@example.com', lines: [{ position: 1, quantity: 1 }] });
      expect(lines.statusCode).toBe(409);
      expect(lines.json().error).toMatchObject({ code: 'conflict', messageKey: 'withdrawalForm.errors.withdrawal_line_exempt' });

      // A product marked personalised after the sale takes nothing from that sale's buyer.
      const { order: earlier } = await deliveredOrder('custom@example.com', [pearl, foil], 2);
      await markReturnRule(foil, 'personalised');
      try {
        const preview = (await post('/api/withdrawals/preview', { orderId: earlier.orderId, email: 'custom@example.com' })).json<{ preview: WithdrawalPreview }>().preview;
        expect(preview.lines.map((line) => [line.exemption, line.withdrawable])).toEqual([
          [null, 1],
          [null, 1],
        ]);
      } finally {
        await markReturnRule(foil, 'standard');
      }
    });

    it('lets a hygiene-sealed line be withdrawn, saying that only an unbroken seal makes it returnable', async () => {
      const { order } = await orderedUnderRule('sealed@example.com', [pearl, foil], foil, 'hygiene_sealed');
      const preview = (await post('/api/withdrawals/preview', { orderId: order.orderId, email: 'sealed@example.com' })).json<{ preview: WithdrawalPreview }>().preview;
      expect(preview.lines.map((line) => [line.exemption, line.sealed, line.withdrawable])).toEqual([
        [null, false, 1],
        [null, true, 1],
      ]);
    });

    it('keeps the period open through the 14th day after delivery and closes it after', async () => {
      const { order: open } = await deliveredOrder('period@example.com', [foil], 14 - 60 / 86400);
      expect((await post('/api/withdrawals/preview', { orderId: open.orderId, email: 'period@example.com' })).statusCode).toBe(200);
      const { order: closed } = await deliveredOrder('period@example.com', [foil], 14 + 60 / 86400);
      const refused = await post('/api/withdrawals', { orderId: closed.orderId, email: 'period@example.com', requestId: requestId(), fullName: 'P', acknowledgementEmail: 'period@example.com' });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error).toMatchObject({ code: 'conflict', messageKey: 'withdrawalForm.errors.withdrawal_period_over' });
      const cookie = await signInThroughInbox(testApp, inbox, 'period@example.com');
      const listed = (await testApp.app.inject({ method: 'GET', url: '/api/orders', headers: { cookie } })).json<{ orders: Order[] }>().orders;
      expect(listed.find((order) => order.orderId === closed.orderId)!.afterSale?.withdrawalOpen).toBe(false);
      expect(listed.find((order) => order.orderId === open.orderId)!.afterSale?.withdrawalOpen).toBe(true);
      expect(Date.parse(listed.find((order) => order.orderId === open.orderId)!.afterSale!.withdrawalDeadline!) - Date.now()).toBeLessThan(DAY);
    });

    it('returns the goods to stock once, and refunds at most what was paid under parallel refunds', async () => {
      const before = await stockOf(pearl);
      const { order, cookie } = await deliveredOrder('refund@example.com', [pearl, pearl, foil], 5);
      expect(await stockOf(pearl)).toBe(before! - 2);
      const made = await post('/api/withdrawals', { orderId: order.orderId, email: 'refund@example.com', requestId: requestId(), fullName: 'R', acknowledgementEmail: 'refund@example.com' });
      const withdrawal = made.json<{ withdrawal: Withdrawal }>().withdrawal;
      expect(withdrawal.wholeOrder).toBe(true);

      const listed = (await testApp.app.inject({ method: 'GET', url: '/api/admin/withdrawals', headers: { cookie: admin } })).json<{ withdrawals: AdminWithdrawal[] }>().withdrawals;
      const row = listed.find((candidate) => candidate.id === withdrawal.id)!;
      // Lines with their tax, plus the standard shipping: the whole order.
      expect(row).toMatchObject({ paidMinor: order.pricing.total, refundedMinor: 0, suggestedRefundMinor: order.pricing.total, state: 'requested' });

      const received = await Promise.all([1, 2, 3].map(() => post(`/api/admin/withdrawals/${withdrawal.id}/received`, {}, admin)));
      expect(received.map((response) => response.statusCode)).toEqual([200, 200, 200]);
      expect(await stockOf(pearl)).toBe(before);
      const returnedChanges = await testApp.database.db.select().from(stockChanges).where(and(eq(stockChanges.orderId, order.orderId), eq(stockChanges.reason, 'returned')));
      expect(returnedChanges).toHaveLength(2);
      // A later cancellation returns nothing more.
      expect((await testApp.app.inject({ method: 'PATCH', url: `/api/admin/orders/${order.orderId}/status`, headers: { cookie: admin }, payload: { status: 'cancelled' } })).statusCode).toBe(200);
      expect(await stockOf(pearl)).toBe(before);

      // A smaller refund needs a reason.
      const noReason = await post(`/api/admin/orders/${order.orderId}/refunds`, { requestId: requestId(), withdrawalId: withdrawal.id, amountMinor: 1000 }, admin);
      expect(noReason.json().error).toMatchObject({ code: 'bad_request', field: 'reason', messageKey: 'returns.errors.refund_reason_required' });

      const parallel = 12;
      const amount = 1000;
      const answers = await Promise.all(
        Array.from({ length: parallel }, () => post(`/api/admin/orders/${order.orderId}/refunds`, { requestId: requestId(), withdrawalId: withdrawal.id, amountMinor: amount, reason: 'in parts' }, admin)),
      );
      const made201 = answers.filter((answer) => answer.statusCode === 201).length;
      const tooLarge = answers.filter((answer) => answer.statusCode === 409 && answer.json().error.messageKey === 'returns.errors.refund_too_large').length;
      expect(made201).toBe(Math.floor(order.pricing.total / amount));
      expect(made201 + tooLarge).toBe(parallel);
      const [sum] = await testApp.database.db.select({ total: sql<number>`sum(${refunds.amountMinor})::int` }).from(refunds).where(eq(refunds.orderId, order.orderId));
      expect(Number(sum!.total)).toBeLessThanOrEqual(order.pricing.total);

      // The rest, then nothing.
      const rest = order.pricing.total - made201 * amount;
      const last = await post(`/api/admin/orders/${order.orderId}/refunds`, { requestId: requestId(), amountMinor: rest }, admin);
      expect(last.statusCode).toBe(201);
      const none = await post(`/api/admin/orders/${order.orderId}/refunds`, { requestId: requestId(), amountMinor: 1 }, admin);
      expect(none.json().error).toMatchObject({ code: 'conflict', messageKey: 'returns.errors.nothing_to_refund' });

      const mine = (await testApp.app.inject({ method: 'GET', url: `/api/orders/${order.orderId}`, headers: { cookie } })).json<{ order: Order }>().order;
      expect(mine.afterSale).toMatchObject({ refundState: 'refunded', refundedMinor: order.pricing.total, paidMinor: order.pricing.total });
      const refundMails = await testApp.database.db.select().from(mailQueue).where(and(eq(mailQueue.orderId, order.orderId), eq(mailQueue.kind, 'refund_made')));
      expect(refundMails).toHaveLength(made201 + 1);
    });

    it('refunds the default amount once per request id, and a cash order by bank transfer to the IBAN given', async () => {
      const { order } = await deliveredOrder('cash@example.com', [foil], 1, 'en', 'cash_on_delivery');
      const noIban = await post('/api/withdrawals', { orderId: order.orderId, email: 'cash@example.com', requestId: requestId(), fullName: 'C', acknowledgementEmail: 'cash@example.com' });
      expect(noIban.json().error).toMatchObject({ code: 'bad_request', field: 'iban', messageKey: 'withdrawalForm.errors.withdrawal_iban_required' });
      const badIban = await post('/api/withdrawals', { orderId: order.orderId, email: 'cash@example.com', requestId: requestId(), fullName: 'C', acknowledgementEmail: 'cash@example.com', iban: 'BG00 0000' });
      expect(badIban.json().error).toMatchObject({ code: 'bad_request', field: 'iban', messageKey: 'withdrawalForm.errors.ibanInvalid' });
      const made = await post('/api/withdrawals', { orderId: order.orderId, email: 'cash@example.com', requestId: requestId(), fullName: 'C', acknowledgementEmail: 'cash@example.com', iban: 'bg80 bnbg 9661 1020 3456 78' });
      expect(made.statusCode).toBe(201);
      const withdrawal = made.json<{ withdrawal: Withdrawal }>().withdrawal;
      const refundRequest = { requestId: requestId(), withdrawalId: withdrawal.id };
      const [one, two] = await Promise.all([post(`/api/admin/orders/${order.orderId}/refunds`, refundRequest, admin), post(`/api/admin/orders/${order.orderId}/refunds`, refundRequest, admin)]);
      expect([one.statusCode, two.statusCode].sort()).toEqual([200, 201]);
      // The cash-on-delivery fee is no delivery cost: the goods, their tax and the shipping go back.
      expect(one.json().refund).toMatchObject({ method: 'bank_transfer', iban: 'BG80BNBG96611020345678', amountMinor: order.pricing.total - order.pricing.fee });
      expect(await testApp.database.db.select().from(refunds).where(eq(refunds.orderId, order.orderId))).toHaveLength(1);
    });

    it('lets a buyer cancel her paid order before it is prepared, refunded in full, and not once it is preparing', async () => {
      const { order, cookie } = await deliveredOrder('cancel@example.com', [foil], null);
      const cancelled = await post(`/api/orders/${order.orderId}/cancel`, {}, cookie);
      expect(cancelled.statusCode).toBe(200);
      expect(cancelled.json<{ order: Order }>().order).toMatchObject({ status: 'cancelled', afterSale: { refundState: 'refunded', refundedMinor: order.pricing.total } });
      const again = await post(`/api/orders/${order.orderId}/cancel`, {}, cookie);
      expect(again.json().error).toMatchObject({ code: 'conflict', messageKey: 'withdrawalForm.errors.order_not_cancellable' });

      const { order: preparing } = await deliveredOrder('cancel@example.com', [foil], null);
      await testApp.app.inject({ method: 'PATCH', url: `/api/admin/orders/${preparing.orderId}/status`, headers: { cookie: admin }, payload: { status: 'preparing' } });
      expect((await post(`/api/orders/${preparing.orderId}/cancel`, {}, cookie)).json().error.messageKey).toBe('withdrawalForm.errors.order_not_cancellable');
    });
  });
}
