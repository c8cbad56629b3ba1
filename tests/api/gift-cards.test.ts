import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import type { CartResponse } from '#shared/cart.js';
import { formatGiftCardCode, payWithGiftCard, type GiftCardBalance, type GiftCardSummary } from '#shared/gift-cards.js';
import { amountDue, type Order } from '#shared/orders.js';
import { priceLines } from '#shared/pricing.js';
import { sofiaDate } from '#shared/sofia-time.js';
import type { WithdrawalPreview } from '#shared/withdrawals.js';
import { addAdmin } from '#server/auth/roles.js';
import type { TaxDocumentContent } from '#shared/tax-documents.js';
import { giftCards, orders, payments, products, taxDocuments } from '#server/db/schema.js';
import type { OutboxEntry } from '#server/mail/mailer.js';
import { buyersWithCarts, checkoutsAtOnce, CROWD_TEST_TIMEOUT_MS, eventually, fillCart, operationKey, placeOrder } from './shopper.js';
import { nextClientAddress, signIn } from './sign-in.js';
import { describeEachDatabase, type TestApp } from './test-app.js';
import { testProduct } from './test-products.js';
import { company, pdfText, SELLER } from './invoice-fixtures.js';

const checkCard = (testApp: TestApp, cookie: string, code: string, remoteAddress = nextClientAddress()) =>
  testApp.app.inject({ method: 'POST', url: '/api/gift-cards/check', headers: { cookie }, payload: { code }, remoteAddress });

/** The total her cart shows at checkout, by card. */
async function shownTotal(testApp: TestApp, cookie: string): Promise<number> {
  const cart = (await testApp.app.inject({ method: 'GET', url: '/api/cart', headers: { cookie } })).json<CartResponse>();
  return priceLines(cart.items, testApp.config.pricing, 'card').total;
}

/** Places an order paid with the card as the checkout does: at the total shown, with what the card was shown to pay. */
async function orderWithCard(testApp: TestApp, cookie: string, code: string, expectedGiftCardMinor?: number) {
  const total = await shownTotal(testApp, cookie);
  const checked = await checkCard(testApp, cookie, code);
  const shownPaid = expectedGiftCardMinor ?? (checked.statusCode === 200 ? payWithGiftCard(total, checked.json<{ card: GiftCardBalance }>().card.balanceMinor).paidMinor : 0);
  return testApp.app.inject({
    method: 'POST',
    url: '/api/orders',
    headers: { cookie },
    remoteAddress: nextClientAddress(),
    payload: { idempotencyKey: operationKey(), acceptTerms: true, paymentMethod: 'card', expectedTotalMinor: total, giftCardCode: code, expectedGiftCardMinor: shownPaid },
  });
}

const refusalOf = (response: { statusCode: number; json: () => { error: { code: string; messageKey?: string; field?: string } } }) => ({
  status: response.statusCode,
  ...response.json().error,
});

describeEachDatabase('gift cards', (context) => {
  let admin: string;
  let oil: string;
  let set: string;
  let voucher: string;
  const issueCard = async (amountMinor: number, note = '') => {
    const response = await context().app.inject({ method: 'POST', url: '/api/admin/gift-cards', headers: { cookie: admin }, payload: { amountMinor, note } });
    if (response.statusCode !== 201) throw new Error(`Issuing the card failed: ${response.body}`);
    return response.json<{ card: GiftCardSummary & { code: string } }>().card;
  };
  const balanceOf = async (id: string) => (await context().database.db.select({ balance: giftCards.balanceMinor }).from(giftCards).where(eq(giftCards.id, id)))[0]!.balance;

  beforeAll(async () => {
    const testApp = context();
    const rows = await testApp.database.db
      .insert(products)
      .values([
        testProduct({ name: 'Cuticle Oil', priceMinor: 999, category: 'accessories' }),
        testProduct({ name: 'Pearl Set', priceMinor: 3400, category: 'nails' }),
        testProduct({ name: 'Gift Card 50', priceMinor: 5000, category: 'gift-cards' }),
      ])
      .returning({ id: products.id });
    [oil, set, voucher] = rows.map((row) => row.id) as [string, string, string];
    await addAdmin(testApp.database.db, 'owner@shop.test');
    admin = await signIn(testApp, 'owner@shop.test');
  });

  it('lets only an admin issue cards, checks what she types, and lists each card by its ending', async () => {
    const testApp = context();
    const buyer = await signIn(testApp, 'hopeful@example.com');
    expect((await testApp.app.inject({ method: 'POST', url: '/api/admin/gift-cards', headers: { cookie: buyer }, payload: { amountMinor: 5000 } })).statusCode).toBe(403);
    expect((await testApp.app.inject({ method: 'GET', url: '/api/admin/gift-cards' })).statusCode).toBe(401);
    for (const [payload, field, messageKey] of [
      [{ amountMinor: 0 }, 'amountMinor', 'giftCards.errors.amountInvalid'],
      [{}, 'amountMinor', 'giftCards.errors.amountRequired'],
      [{ amountMinor: 100, note: 'x'.repeat(201) }, 'note', 'giftCards.errors.noteTooLong'],
    ] as const) {
      const refused = await testApp.app.inject({ method: 'POST', url: '/api/admin/gift-cards', headers: { cookie: admin }, payload });
      expect(refusalOf(refused)).toMatchObject({ status: 400, field, messageKey });
    }

    const card = await issueCard(5000, 'For Maria');
    expect(card.code).toMatch(/^[A-HJ-NP-Z2-9]{16}$/);
    expect(card).toMatchObject({ ending: card.code.slice(-4), initialMinor: 5000, balanceMinor: 5000, note: 'For Maria', uses: 0 });
    const listed = (await testApp.app.inject({ method: 'GET', url: '/api/admin/gift-cards', headers: { cookie: admin } })).json<{ cards: GiftCardSummary[] }>().cards;
    expect(listed[0]).toEqual({ id: card.id, ending: card.ending, initialMinor: 5000, balanceMinor: 5000, note: 'For Maria', createdAt: card.createdAt, uses: 0 });
    // The list never shows a whole code.
    expect(JSON.stringify(listed)).not.toContain(card.code);

    // The buyer types it in any case, with the dashes it is printed with.
    const checked = await checkCard(testApp, buyer, ` ${formatGiftCardCode(card.code).toLowerCase()} `);
    expect(checked.statusCode).toBe(200);
    expect(checked.json()).toEqual({ card: { code: card.code, balanceMinor: 5000 } });
    expect(refusalOf(await checkCard(testApp, buyer, 'AAAA-BBBB-CCCC-DDDD'))).toMatchObject({ status: 409, code: 'gift_card_refused', field: 'giftCardCode', messageKey: 'giftCards.refused.unknown' });
    expect(refusalOf(await checkCard(testApp, buyer, 'short'))).toMatchObject({ status: 409, messageKey: 'giftCards.refused.unknown' });
  });

  it('pays part of an order, keeps the rest on the card for the next, and the payment is of what is left to pay', async () => {
    const testApp = context();
    const buyer = await signIn(testApp, 'partial@example.com');
    const card = await issueCard(1000);
    await fillCart(testApp, buyer, [oil]);
    const total = await shownTotal(testApp, buyer);

    const placed = await orderWithCard(testApp, buyer, card.code);
    expect(placed.statusCode).toBe(201);
    const order = placed.json<{ order: Order }>().order;
    // A means of payment, not a discount: the order is priced as without it.
    expect(order.pricing).toMatchObject({ total, discount: 0 });
    expect(order.giftCard).toEqual({ ending: card.ending, paidMinor: 1000 });
    expect(amountDue(order)).toBe(total - 1000);
    expect(order.status).toBe('pending');
    expect(await balanceOf(card.id)).toBe(0);
    expect(refusalOf(await checkCard(testApp, buyer, card.code))).toMatchObject({ status: 409, messageKey: 'giftCards.refused.empty' });

    const paid = await testApp.app.inject({ method: 'POST', url: `/api/orders/${order.orderId}/payment`, headers: { cookie: buyer }, payload: { method: 'card', cardLast4: '4242' } });
    expect(paid.statusCode).toBe(200);
    const [payment] = await testApp.database.db.select().from(payments).where(eq(payments.orderId, order.orderId));
    expect(payment).toMatchObject({ method: 'card', amountMinor: total - 1000 });

    const mail = await eventually(async () => {
      const folder = path.join(testApp.dataDir, 'outbox');
      for (const file of await readdir(folder)) {
        if (!file.endsWith('.json')) continue;
        const entry = JSON.parse(await readFile(path.join(folder, file), 'utf8')) as OutboxEntry;
        if (entry.to === 'partial@example.com' && entry.subject.includes(order.orderId) && entry.text.includes('Gift card')) return entry;
      }
      return undefined;
    }, 15_000, 'the order e-mail');
    expect(mail.text).toContain(`Gift card …${card.ending}`);
    expect(mail.text).toMatch(/−BGN\s?10\.00/);
    expect(mail.text).toContain('To pay');
  });

  it('pays a whole order, which is paid as it is placed; cancelling gives the amount back to the card and reopening takes it again', async () => {
    const testApp = context();
    const buyer = await signIn(testApp, 'whole@example.com');
    const card = await issueCard(20_000);
    await fillCart(testApp, buyer, [set]);
    const total = await shownTotal(testApp, buyer);

    const order = (await orderWithCard(testApp, buyer, card.code)).json<{ order: Order }>().order;
    expect(order).toMatchObject({ status: 'paid', checkoutUrl: null, giftCard: { ending: card.ending, paidMinor: total } });
    expect(order.payment).toMatchObject({ method: 'gift_card', amountMinor: total });
    expect(amountDue(order)).toBe(0);
    expect(await balanceOf(card.id)).toBe(20_000 - total);
    // Nothing is left to pay online.
    const again = await testApp.app.inject({ method: 'POST', url: `/api/orders/${order.orderId}/payment`, headers: { cookie: buyer }, payload: { method: 'card' } });
    expect(refusalOf(again)).toMatchObject({ status: 409, code: 'order_not_payable' });
    // No money came in, so none goes back: the customer's refundable amount is 0.
    const shown = (await testApp.app.inject({ method: 'GET', url: `/api/orders/${order.orderId}`, headers: { cookie: buyer } })).json<{ order: Order }>().order;
    expect(shown.afterSale?.paidMinor).toBe(0);

    const setStatus = (status: string) => testApp.app.inject({ method: 'PATCH', url: `/api/admin/orders/${order.orderId}/status`, headers: { cookie: admin }, payload: { status } });
    expect((await setStatus('cancelled')).statusCode).toBe(200);
    expect(await balanceOf(card.id)).toBe(20_000);
    expect((await setStatus('paid')).statusCode).toBe(200);
    expect(await balanceOf(card.id)).toBe(20_000 - total);
    const listed = (await testApp.app.inject({ method: 'GET', url: '/api/admin/gift-cards', headers: { cookie: admin } })).json<{ cards: GiftCardSummary[] }>().cards;
    expect(listed.find((entry) => entry.id === card.id)).toMatchObject({ uses: 1, balanceMinor: 20_000 - total });
  });

  it('refuses an order when the card would pay another amount than the buyer saw, and writes nothing', async () => {
    const testApp = context();
    const buyer = await signIn(testApp, 'late@example.com');
    const card = await issueCard(700);
    await fillCart(testApp, buyer, [oil]);
    const refused = await orderWithCard(testApp, buyer, card.code, 900);
    expect(refusalOf(refused)).toMatchObject({ status: 409, code: 'gift_card_refused', field: 'giftCardCode', messageKey: 'giftCards.refused.changed' });
    expect(await balanceOf(card.id)).toBe(700);
    const cart = (await testApp.app.inject({ method: 'GET', url: '/api/cart', headers: { cookie: buyer } })).json<CartResponse>();
    expect(cart.items.map((item) => item.productId)).toEqual([oil]);
  });

  it('never goes below zero when 100 buyers pay with one card at once: it pays for exactly as many orders as it holds', async () => {
    const testApp = context();
    const buyers = await buyersWithCarts(testApp, 'crowd', 100, [oil]);
    const total = await shownTotal(testApp, buyers[0]!);
    const card = await issueCard(total * 5);
    const answers = await checkoutsAtOnce(testApp, buyers, { expectedTotalMinor: total, giftCardCode: card.code, expectedGiftCardMinor: total });
    expect(answers.filter((answer) => answer.statusCode >= 500)).toEqual([]);
    expect(answers.filter((answer) => answer.statusCode === 201)).toHaveLength(5);
    const refused = answers.filter((answer) => answer.statusCode === 409).map((answer) => answer.json<{ error: { messageKey: string } }>().error.messageKey);
    expect(refused).toEqual(Array.from({ length: 95 }, () => 'giftCards.refused.empty'));
    expect(await balanceOf(card.id)).toBe(0);
    const paidWithCard = await testApp.database.db.select({ minor: orders.giftCardMinor }).from(orders).where(eq(orders.giftCardId, card.id));
    expect(paidWithCard.map((row) => row.minor)).toEqual(Array.from({ length: 5 }, () => total));
  }, CROWD_TEST_TIMEOUT_MS);

  it('sells cards as products: no tax or shipping on them, issued once the order is paid, their codes e-mailed, and void if it is cancelled', async () => {
    const testApp = context();
    const buyer = await signIn(testApp, 'giver@example.com');
    await fillCart(testApp, buyer, [voucher, voucher, oil]);
    const cart = (await testApp.app.inject({ method: 'GET', url: '/api/cart', headers: { cookie: buyer } })).json<CartResponse>();
    expect(cart.items.map((item) => item.giftCard)).toEqual([true, false]);
    const order = await placeOrder(testApp, buyer, { paymentMethod: 'card' });
    // Two cards of 50.00 at their value; tax and shipping on the oil alone.
    const oilTax = Math.floor((999 * testApp.config.pricing.taxRateBasisPoints) / 10_000 + 0.5);
    expect(order.pricing).toMatchObject({ subtotal: 10_999, tax: oilTax, shipping: 599, total: 10_999 + oilTax + 599 });
    const issued = () => testApp.database.db.select().from(giftCards).where(eq(giftCards.orderId, order.orderId));
    expect(await issued()).toEqual([]);

    const paid = await testApp.app.inject({ method: 'POST', url: `/api/orders/${order.orderId}/payment`, headers: { cookie: buyer }, payload: { method: 'card', cardLast4: '4242' } });
    expect(paid.statusCode).toBe(200);
    const cards = await issued();
    expect(cards.map((card) => [card.initialMinor, card.balanceMinor, card.currency])).toEqual([
      [5000, 5000, 'BGN'],
      [5000, 5000, 'BGN'],
    ]);
    const mail = await eventually(async () => {
      const folder = path.join(testApp.dataDir, 'outbox');
      for (const file of await readdir(folder)) {
        if (!file.endsWith('.json')) continue;
        const entry = JSON.parse(await readFile(path.join(folder, file), 'utf8')) as OutboxEntry;
        if (entry.to === 'giver@example.com' && entry.subject === `Your gift cards from order #${order.orderId}`) return entry;
      }
      return undefined;
    }, 15_000, 'the gift cards e-mail');
    for (const card of cards) expect(mail.text).toContain(formatGiftCardCode(card.code));
    expect(mail.text).toMatch(/Gift card of BGN\s?50\.00/);

    // A card bought pays for goods, not for another card: here only the oil and its shipping.
    const friend = await signIn(testApp, 'friend@example.com');
    await fillCart(testApp, friend, [voucher, oil]);
    const total = await shownTotal(testApp, friend);
    const placed = await orderWithCard(testApp, friend, cards[0]!.code, total - 5000);
    expect(placed.statusCode).toBe(201);
    const friendsOrder = placed.json<{ order: Order }>().order;
    expect(friendsOrder.giftCard?.paidMinor).toBe(total - 5000);
    expect(amountDue(friendsOrder)).toBe(5000);
    expect(await balanceOf(cards[0]!.id)).toBe(5000 - (total - 5000));

    // The withdrawal form does not take a card back: its code may be used already.
    expect((await testApp.app.inject({ method: 'PATCH', url: `/api/admin/orders/${order.orderId}/status`, headers: { cookie: admin }, payload: { status: 'delivered' } })).statusCode).toBe(200);
    const preview = await testApp.app.inject({ method: 'POST', url: '/api/withdrawals/preview', remoteAddress: nextClientAddress(), payload: { orderId: order.orderId, email: 'giver@example.com' } });
    expect(preview.json<{ preview: WithdrawalPreview }>().preview.lines.map((line) => [line.exemption, line.withdrawable])).toEqual([
      ['gift_card', 0],
      [null, 1],
    ]);

    // Cancelling the order that bought the cards cancels what is left on them.
    expect((await testApp.app.inject({ method: 'PATCH', url: `/api/admin/orders/${order.orderId}/status`, headers: { cookie: admin }, payload: { status: 'cancelled' } })).statusCode).toBe(200);
    expect((await issued()).map((card) => card.balanceMinor)).toEqual([0, 0]);
  });

  it('refuses every card from a client that keeps typing cards that do not exist, a real one included', async () => {
    const testApp = context();
    const guesser = await signIn(testApp, 'guesser@example.com');
    const card = await issueCard(500);
    const address = nextClientAddress();
    for (let guess = 0; guess < 10; guess++) {
      expect((await checkCard(testApp, guesser, `GUESS${String(guess).padStart(11, 'A')}`, address)).statusCode).toBe(409);
    }
    expect(refusalOf(await checkCard(testApp, guesser, card.code, address))).toMatchObject({ status: 429, code: 'rate_limited' });
    expect((await checkCard(testApp, guesser, card.code)).statusCode).toBe(200);
  });
});

describeEachDatabase(
  'gift cards on tax documents',
  (context) => {
    it('an invoice shows the lines and VAT in full and the card as a payment; an order the card paid whole is not in the audit file', async () => {
      const testApp = context();
      const [{ id: product }] = (await testApp.database.db.insert(products).values(testProduct({ name: 'Pearl Set', priceMinor: 2399 })).returning({ id: products.id })) as [{ id: string }];
      await addAdmin(testApp.database.db, 'owner@shop.test');
      const admin = await signIn(testApp, 'owner@shop.test');
      const issue = async (amountMinor: number) =>
        (await testApp.app.inject({ method: 'POST', url: '/api/admin/gift-cards', headers: { cookie: admin }, payload: { amountMinor } })).json<{ card: GiftCardSummary & { code: string } }>().card;
      const buyer = await signIn(testApp, 'salon-gift@example.com');

      // Part paid by a card of 10.00, the rest by card payment; then one paid whole by a card.
      const part = await issue(1000);
      await fillCart(testApp, buyer, [product]);
      const total = await shownTotal(testApp, buyer);
      const placeWith = (code: string, paidMinor: number) =>
        testApp.app.inject({
          method: 'POST',
          url: '/api/orders',
          headers: { cookie: buyer },
          payload: { idempotencyKey: operationKey(), acceptTerms: true, paymentMethod: 'card', expectedTotalMinor: total, giftCardCode: code, expectedGiftCardMinor: paidMinor, invoiceBuyer: company },
        });
      const partOrder = (await placeWith(part.code, 1000)).json<{ order: Order }>().order;
      expect((await testApp.app.inject({ method: 'POST', url: `/api/orders/${partOrder.orderId}/payment`, headers: { cookie: buyer }, payload: { method: 'card', cardLast4: '4242' } })).statusCode).toBe(200);
      const [invoice] = await testApp.database.db.select().from(taxDocuments).where(eq(taxDocuments.orderId, partOrder.orderId)).orderBy(taxDocuments.kind);
      const content = invoice!.content as TaxDocumentContent;
      expect(content).toMatchObject({ kind: 'invoice', totalMinor: total, giftCard: { ending: part.ending, amountMinor: 1000 }, payment: { method: 'card' } });
      expect(content.netMinor + content.vatMinor).toBe(total);
      const text = await pdfText((await testApp.app.inject({ method: 'GET', url: `/api/admin/orders/${partOrder.orderId}/documents/${invoice!.id}/pdf?language=en`, headers: { cookie: admin } })).rawPayload);
      for (const expected of [`Paid with gift card …${part.ending} (a means of payment, not a discount)`, 'The rest, paid by card', 'Payment: by gift card, by card']) expect(text, expected).toContain(expected);

      // A part refunded: its credit note credits one line, and says nothing of the card or of how the invoice was paid.
      const refunded = await testApp.app.inject({
        method: 'POST',
        url: `/api/admin/orders/${partOrder.orderId}/refunds`,
        headers: { cookie: admin },
        payload: { requestId: 'gift-card-part-refund-1', amountMinor: 500, reason: 'One nail arrived broken.' },
      });
      expect(refunded.statusCode, refunded.body).toBeLessThan(300);
      const [note] = await testApp.database.db.select().from(taxDocuments).where(and(eq(taxDocuments.orderId, partOrder.orderId), eq(taxDocuments.kind, 'credit_note')));
      const noteContent = note!.content as TaxDocumentContent;
      expect(noteContent).toMatchObject({ kind: 'credit_note', totalMinor: -500 });
      expect(noteContent.giftCard).toBeUndefined();
      const noteText = await pdfText((await testApp.app.inject({ method: 'GET', url: `/api/admin/orders/${partOrder.orderId}/documents/${note!.id}/pdf?language=en`, headers: { cookie: admin } })).rawPayload);
      expect(noteText).toContain('CREDIT NOTE');
      for (const absent of ['gift card', 'Payment:', 'Paid on']) expect(noteText, absent).not.toContain(absent);

      const whole = await issue(total);
      await fillCart(testApp, buyer, [product]);
      const wholeOrder = (await placeWith(whole.code, total)).json<{ order: Order }>().order;
      expect(wholeOrder.status).toBe('paid');
      const wholeDocuments = await testApp.database.db.select().from(taxDocuments).where(eq(taxDocuments.orderId, wholeOrder.orderId));
      expect(wholeDocuments.map((document) => (document.content as TaxDocumentContent).payment.method)).toEqual(['gift_card', 'gift_card']);

      // The month of the payments, in the shop's time zone, as the file counts them.
      const month = sofiaDate(new Date()).slice(0, 7);
      const audit = await testApp.app.inject({ method: 'GET', url: `/api/admin/audit-file?month=${month}`, headers: { cookie: admin } });
      expect(audit.statusCode).toBe(200);
      const xml = audit.rawPayload.toString('latin1');
      expect(xml).toContain(`<ord_n>${partOrder.orderId}</ord_n>`);
      expect(xml).not.toContain(wholeOrder.orderId);
    });
  },
  SELLER,
);
