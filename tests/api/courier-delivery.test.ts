import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminOrderDetail } from '#shared/admin.js';
import type { CourierOffice } from '#shared/delivery.js';
import type { Order } from '#shared/orders.js';
import { addAdmin } from '#server/auth/roles.js';
import { refreshOffices } from '#server/couriers/offices.js';
import { EcontApi } from '#server/couriers/econt.js';
import { courierOffices, mailQueue, payments, products, shipments } from '#server/db/schema.js';
import { TEST_LABEL_PDF } from '../support/courier-test-kit.js';
import { startEcontTestServer, TEST_ECONT_PASSWORD, TEST_ECONT_USERNAME, type EcontTestServer } from '../support/econt-test-server.js';
import { startSmtpInbox, type SmtpInbox } from '../support/smtp-inbox.js';
import { startSpeedyTestServer, TEST_SPEEDY_PASSWORD, TEST_SPEEDY_USERNAME, type SpeedyTestServer } from '../support/speedy-test-server.js';
import { pngImage, productForm } from './product-form.js';
import { eventually, fillCart, placeOrder, signInThroughInbox } from './shopper.js';
import { createTestApp, databaseTargets, type TestApp } from './test-app.js';
import { testProduct } from './test-products.js';

// Delivery with Econt and Speedy: offices from the couriers kept and searched in either script, the
// method's fee in every total, the office kept on the order, one shipment however often it is asked
// for, and the courier's travel in the order's timeline up to delivery and the cash paid out.

const searchOffices = async (testApp: TestApp, query: string) =>
  (await testApp.app.inject({ method: 'GET', url: `/api/delivery/offices?${query}` })).json<{ offices: CourierOffice[] }>().offices;

for (const target of databaseTargets) {
  describe(`delivery with couriers [${target}]`, () => {
    let econt: EcontTestServer;
    let speedy: SpeedyTestServer;
    let inbox: SmtpInbox;
    let testApp: TestApp;
    let product: string;
    let admin: string;
    beforeAll(async () => {
      [econt, speedy, inbox] = await Promise.all([startEcontTestServer(), startSpeedyTestServer(), startSmtpInbox()]);
      testApp = await createTestApp(target, {
        SMTP_URL: inbox.url,
        STATUS_MAIL_DELAY_SECONDS: '0',
        SHOP_CURRENCY: 'EUR',
        PRICES_INCLUDE_TAX: 'true',
        TAX_RATE: '0.2',
        SHIPPING_FEE: '6.90',
        DELIVERY_FEES: 'econt_office=3.20, econt_locker=2.90, speedy_office=3.50, speedy_locker=courier',
        PAYMENT_METHODS: 'cash_on_delivery,card',
        COURIERS: 'econt,speedy',
        ECONT_URL: econt.url,
        ECONT_USERNAME: TEST_ECONT_USERNAME,
        ECONT_PASSWORD: TEST_ECONT_PASSWORD,
        ECONT_SENDER_OFFICE: '1127',
        SPEEDY_URL: speedy.url,
        SPEEDY_USERNAME: TEST_SPEEDY_USERNAME,
        SPEEDY_PASSWORD: TEST_SPEEDY_PASSWORD,
        INSPECT_BEFORE_PAYING: 'true',
      });
      await testApp.app.courierJobs.runDue();
      [{ id: product }] = (await testApp.database.db.insert(products).values(testProduct({ name: 'Pearl Set', priceMinor: 2490, stock: 1000 })).returning({ id: products.id })) as [{ id: string }];
      await addAdmin(testApp.database.db, 'owner@shop.test');
      admin = await signInThroughInbox(testApp, inbox, 'owner@shop.test');
    });
    afterAll(async () => {
      await testApp?.close();
      await Promise.all([econt?.close(), speedy?.close(), inbox?.close()]);
    });

    it('keeps both couriers’ offices and finds them by city or name in either script', async () => {
      expect(await testApp.database.db.$count(courierOffices)).toBe(16 + 12);
      const plovdiv = ['4001', '4003', '4017', '4090'];
      for (const typed of ['Plovdiv', 'пловдив', 'PLOVDIV', 'plov']) expect((await searchOffices(testApp, `courier=econt&kind=office&q=${encodeURIComponent(typed)}`)).map((office) => office.id).sort()).toEqual(plovdiv);
      expect((await searchOffices(testApp, 'courier=econt&kind=office&q=Sofiya%20mladost')).map((office) => office.name.bg)).toEqual(['София Младост 1']);
      expect((await searchOffices(testApp, `courier=econt&kind=office&q=${encodeURIComponent('Кършияка')}`)).map((office) => office.id)).toEqual(['4017']);
      expect((await searchOffices(testApp, 'courier=econt&kind=locker&q=varna')).map((office) => office.id)).toEqual(['9050']);
      // A mobile station collects no cash: it is left out when the buyer pays on delivery.
      expect((await searchOffices(testApp, 'courier=econt&kind=office&q=plovdiv&cod=1')).map((office) => office.id).sort()).toEqual(['4001', '4003', '4017']);
      expect((await searchOffices(testApp, 'courier=speedy&kind=locker&q=sofia&cod=1')).map((office) => office.id)).toEqual(['2043']);
      // Any input is a search, never an error or a pattern.
      expect(await searchOffices(testApp, `courier=speedy&kind=office&q=${encodeURIComponent("%' or 1=1 --")}`)).toEqual([]);
      expect((await searchOffices(testApp, `courier=speedy&kind=office&q=${'я'.repeat(5000)}`)).length).toBe(0);
      const unknown = await testApp.app.inject({ method: 'GET', url: '/api/delivery/offices?courier=dhl&kind=office' });
      expect(unknown.statusCode).toBe(400);
    });

    it('closes within seconds while a courier is slow to answer a round', async () => {
      const slowShop = await createTestApp(target, { COURIERS: 'econt', ECONT_URL: econt.url, ECONT_USERNAME: TEST_ECONT_USERNAME, ECONT_PASSWORD: TEST_ECONT_PASSWORD });
      // Slower than the 3 s that closing waits, and than this test's bound: without the bound, closing would wait it out.
      econt.trouble = { slowMs: 6_000 };
      const requests = econt.requests.length;
      const round = slowShop.app.courierJobs.runDue();
      await eventually(async () => econt.requests.length > requests, 5_000, 'the round asking Econt');
      const started = Date.now();
      await slowShop.app.close();
      expect(Date.now() - started).toBeLessThan(4_500);
      econt.trouble = null;
      await round;
      await slowShop.close();
    });

    it('keeps the last good list when a refresh fails, and says why', async () => {
      econt.trouble = 'down';
      const econtApi = new EcontApi({ name: 'econt', url: `${econt.url}/`, username: TEST_ECONT_USERNAME, password: TEST_ECONT_PASSWORD, senderOffice: undefined });
      expect(await refreshOffices(testApp.database.db, econtApi)).toEqual({ refreshed: false, error: 'Econt answered 503' });
      econt.trouble = 'malformed';
      expect(await refreshOffices(testApp.database.db, econtApi)).toMatchObject({ refreshed: false });
      econt.trouble = null;
      expect((await searchOffices(testApp, 'courier=econt&kind=office&q=varna')).length).toBe(3);
      const [list] = await testApp.database.db.execute(sql`select office_count, last_error, refreshed_at < tried_at as failed_since from courier_office_lists where courier = 'econt'`).then((result) => (result as unknown as { rows: unknown[] }).rows);
      expect(list).toMatchObject({ office_count: 16, failed_since: true });
      expect(String((list as { last_error: string }).last_error)).toMatch(/not as documented/);
    });

    it('prices each method with its fee, keeps the office on the order, and refuses an office that cannot take the parcel', async () => {
      const cookie = await signInThroughInbox(testApp, inbox, 'maria@example.com');
      await fillCart(testApp, cookie, [product]);
      const missing = await testApp.app.inject({ method: 'POST', url: '/api/orders', headers: { cookie }, payload: { idempotencyKey: 'k'.repeat(20), acceptTerms: true, expectedTotalMinor: 2810, paymentMethod: 'cash_on_delivery', deliveryMethod: 'econt_office' } });
      expect(missing.json()).toMatchObject({ error: { code: 'office_required', field: 'officeId' } });
      const mobile = await testApp.app.inject({ method: 'POST', url: '/api/orders', headers: { cookie }, payload: { idempotencyKey: 'm'.repeat(20), acceptTerms: true, expectedTotalMinor: 2810, paymentMethod: 'cash_on_delivery', deliveryMethod: 'econt_office', officeId: '4090' } });
      expect([mobile.statusCode, mobile.json().error.code]).toEqual([409, 'office_no_cash_on_delivery']);
      const lockerAsOffice = await testApp.app.inject({ method: 'POST', url: '/api/orders', headers: { cookie }, payload: { idempotencyKey: 'l'.repeat(20), acceptTerms: true, expectedTotalMinor: 2810, paymentMethod: 'card', deliveryMethod: 'econt_office', officeId: '4080' } });
      expect(lockerAsOffice.json().error.code).toBe('office_unavailable');
      const address = await testApp.app.inject({ method: 'POST', url: '/api/orders', headers: { cookie }, payload: { idempotencyKey: 'a'.repeat(20), acceptTerms: true, expectedTotalMinor: 3180, paymentMethod: 'card', deliveryMethod: 'address' } });
      expect(address.json().error.code).toBe('delivery_method_unavailable');

      const order = await placeOrder(testApp, cookie, { paymentMethod: 'cash_on_delivery', deliveryMethod: 'econt_office', officeId: '4001' });
      // 24.90 and the office's 3.20: the total the buyer saw, which contains its VAT.
      expect(order.pricing).toMatchObject({ subtotal: 2490, shipping: 320, total: 2810, taxIncluded: true });
      expect(order.delivery).toMatchObject({ method: 'econt_office', office: { courier: 'econt', id: '4001', name: { bg: 'Пловдив Център' }, city: { bg: 'Пловдив' } }, shipment: null });
      await fillCart(testApp, cookie, [product]);
      const toDoor = await placeOrder(testApp, cookie, { paymentMethod: 'card', deliveryMethod: 'speedy_address' });
      expect(toDoor.pricing).toMatchObject({ shipping: 690, total: 3180 });
      await fillCart(testApp, cookie, [product]);
      const locker = await placeOrder(testApp, cookie, { paymentMethod: 'card', deliveryMethod: 'econt_locker', officeId: '9050' });
      expect(locker.pricing.shipping).toBe(290);

      // The courier closes the office: the order still says where the parcel goes.
      await testApp.database.db.delete(courierOffices).where(eq(courierOffices.id, '4001'));
      const kept = (await testApp.app.inject({ method: 'GET', url: `/api/orders/${order.orderId}`, headers: { cookie } })).json<{ order: Order }>().order;
      expect(kept.delivery.office).toEqual(order.delivery.office);
      await testApp.app.courierJobs.runDue();
    });

    it('charges a method its courier prices at the price quoted for this parcel, and asks again when it no longer holds', async () => {
      const cookie = await signInThroughInbox(testApp, inbox, 'sevda@example.com');
      await fillCart(testApp, cookie, [product]);
      const ask = (payload: object) => testApp.app.inject({ method: 'POST', url: '/api/delivery/quotes', headers: { cookie }, payload });
      const first = await ask({ method: 'speedy_locker', officeId: '2050' });
      expect(first.statusCode, first.body).toBe(200);
      const quote = first.json().quote as { id: string; feeMinor: number };
      expect(quote.feeMinor).toBe(420);
      expect((await ask({ method: 'speedy_office', officeId: '1' })).json().error).toMatchObject({ code: 'delivery_method_unavailable', field: 'method' });
      expect((await ask({ method: 'speedy_locker', officeId: '1' })).json().error.code).toBe('office_unavailable');
      expect((await testApp.app.inject({ method: 'POST', url: '/api/delivery/quotes', payload: { method: 'speedy_locker', officeId: '2050' } })).statusCode).toBe(401);
      speedy.trouble = 'down';
      expect((await ask({ method: 'speedy_locker', officeId: '2070' })).json().error).toMatchObject({ code: 'courier_failed', message: 'Speedy answered 502' });
      speedy.trouble = null;

      const place = (payload: object, expectedTotalMinor: number) =>
        testApp.app.inject({ method: 'POST', url: '/api/orders', headers: { cookie }, payload: { idempotencyKey: `q${Math.random().toString(36).slice(2)}`.padEnd(20, '0'), acceptTerms: true, paymentMethod: 'card', deliveryMethod: 'speedy_locker', officeId: '2050', expectedTotalMinor, ...payload } });
      // Without the quote, or with one for another locker, the price is asked again.
      expect((await place({}, 2910)).json().error).toMatchObject({ code: 'price_changed', field: 'deliveryQuoteId' });
      const other = (await ask({ method: 'speedy_locker', officeId: '2070' })).json().quote as { id: string };
      expect((await place({ deliveryQuoteId: other.id }, 2910)).json().error).toMatchObject({ code: 'price_changed', field: 'deliveryQuoteId' });
      // Nor does it hold once the parcel weighs more than it was quoted for.
      await fillCart(testApp, cookie, [product]);
      expect((await place({ deliveryQuoteId: quote.id }, 2 * 2490 + 420)).json().error).toMatchObject({ code: 'price_changed', field: 'deliveryQuoteId' });
      const again = (await ask({ method: 'speedy_locker', officeId: '2050' })).json().quote as { id: string; feeMinor: number };
      expect(again.feeMinor).toBe(420);
      const placed = await place({ deliveryQuoteId: again.id }, 2 * 2490 + 420);
      expect(placed.statusCode).toBe(201);
      expect(placed.json().order.pricing).toMatchObject({ shipping: 420, total: 5400 });
      // Another buyer's quote is not hers to use.
      const stranger = await signInThroughInbox(testApp, inbox, 'stranger@example.com');
      await fillCart(testApp, stranger, [product]);
      const stolen = await testApp.app.inject({ method: 'POST', url: '/api/orders', headers: { cookie: stranger }, payload: { idempotencyKey: 's'.repeat(20), acceptTerms: true, paymentMethod: 'card', deliveryMethod: 'speedy_locker', officeId: '2050', expectedTotalMinor: 2910, deliveryQuoteId: again.id } });
      expect(stolen.json().error).toMatchObject({ code: 'price_changed', field: 'deliveryQuoteId' });
    });

    it('weighs the parcel by its products’ weights, which the admin gives on the product form', async () => {
      const image = await pngImage();
      const form = (weight: string) => productForm({ nameEn: 'Weighed Set', descriptionEn: 'Handmade.', price: '12.00', stock: '5', weight }, image, admin);
      const refused = await testApp.app.inject({ method: 'POST', url: '/api/admin/products', ...form('heavy') });
      expect(refused.json().error).toMatchObject({ field: 'weight', messageKey: 'admin.products.messages.invalidWeight' });
      const saved = await testApp.app.inject({ method: 'POST', url: '/api/admin/products', ...form('45') });
      expect([saved.statusCode, saved.json().product.weightGrams]).toEqual([201, 45]);
      const weighed = saved.json().product.id as string;

      const cookie = await signInThroughInbox(testApp, inbox, 'nadia@example.com');
      await fillCart(testApp, cookie, [weighed, weighed, product]);
      const order = await placeOrder(testApp, cookie, { paymentMethod: 'card', deliveryMethod: 'econt_address' });
      await testApp.app.inject({ method: 'POST', url: `/api/admin/orders/${order.orderId}/shipment`, headers: { cookie: admin }, payload: {} });
      // The box (100 g), two pieces of 45 g, and the set that gives no weight taken as 30 g.
      expect([...econt.labels.values()].at(-1)!.label.weight).toBe(0.22);
    });

    it('creates one shipment however many clicks ask for it, moves the order to Sent and mails the tracking link', async () => {
      const cookie = await signInThroughInbox(testApp, inbox, 'elena@example.com');
      await fillCart(testApp, cookie, [product]);
      const order = await placeOrder(testApp, cookie, { paymentMethod: 'cash_on_delivery', deliveryMethod: 'econt_office', officeId: '4017', language: 'bg' });
      const labelsBefore = econt.labels.size;
      econt.labelDelayMs = 200;
      const clicks = await Promise.all(Array.from({ length: 8 }, () => testApp.app.inject({ method: 'POST', url: `/api/admin/orders/${order.orderId}/shipment`, headers: { cookie: admin }, payload: {} })));
      econt.labelDelayMs = 0;
      expect(econt.labels.size - labelsBefore).toBe(1);
      expect(clicks.filter((click) => click.statusCode === 204).length).toBeGreaterThanOrEqual(1);
      expect(clicks.every((click) => click.statusCode === 204 || (click.statusCode === 409 && click.json().error.code === 'conflict'))).toBe(true);
      const [number] = [...econt.labels.keys()].slice(-1) as [string];
      expect(econt.labels.get(number)!.label).toMatchObject({ receiverOfficeCode: '4017', payAfterAccept: true, services: { cdAmount: 28.1, cdCurrency: 'EUR' } });

      const detail = (await testApp.app.inject({ method: 'GET', url: `/api/admin/orders/${order.orderId}`, headers: { cookie: admin } })).json<AdminOrderDetail>();
      expect(detail.order.status).toBe('sent');
      expect(detail.order.delivery.shipment).toMatchObject({ courier: 'econt', trackingNumber: number, trackingUrl: `https://www.econt.com/services/track-shipment/${number}`, hasLabel: true, events: [] });
      const label = await testApp.app.inject({ method: 'GET', url: `/api/admin/orders/${order.orderId}/shipment/label`, headers: { cookie: admin } });
      expect([label.statusCode, label.headers['content-type']]).toEqual([200, 'application/pdf']);
      expect(label.rawPayload.equals(TEST_LABEL_PDF)).toBe(true);
      const customersLabel = await testApp.app.inject({ method: 'GET', url: `/api/admin/orders/${order.orderId}/shipment/label`, headers: { cookie } });
      expect(customersLabel.statusCode).toBe(403);

      testApp.app.mailWorker.wake();
      const mail = await inbox.waitForMail('elena@example.com', 15_000, (received) => received.subject.includes('на път'));
      expect(mail.text).toContain(`Пратката пътува с Еконт с номер ${number}.`);
      expect(mail.html).toContain(`https://www.econt.com/services/track-shipment/${number}`);
      expect(mail.text).toContain('Пловдив Кършияка');

      // Asked again later, nothing more is created.
      const again = await testApp.app.inject({ method: 'POST', url: `/api/admin/orders/${order.orderId}/shipment`, headers: { cookie: admin }, payload: {} });
      expect(again.statusCode).toBe(204);
      expect(econt.labels.has(String(Number(number) + 1))).toBe(false);

      // The label prints her name, phone and address: it goes with her account, the shipment's number stays with the order.
      const deleted = await testApp.app.inject({ method: 'DELETE', url: '/api/account', headers: { cookie }, payload: { email: 'elena@example.com' } });
      expect(deleted.statusCode).toBe(204);
      const gone = await testApp.app.inject({ method: 'GET', url: `/api/admin/orders/${order.orderId}/shipment/label`, headers: { cookie: admin } });
      expect(gone.statusCode).toBe(404);
      const kept = (await testApp.app.inject({ method: 'GET', url: `/api/admin/orders/${order.orderId}`, headers: { cookie: admin } })).json<AdminOrderDetail>();
      expect(kept.order.delivery.shipment).toMatchObject({ trackingNumber: number, hasLabel: false });
    });

    it('keeps the order as it was when the courier refuses, with the courier’s words, and creates it once asked again', async () => {
      const cookie = await signInThroughInbox(testApp, inbox, 'vesela@example.com');
      await fillCart(testApp, cookie, [product]);
      const order = await placeOrder(testApp, cookie, { paymentMethod: 'card', deliveryMethod: 'speedy_office', officeId: '125' });
      speedy.refuseShipments = 'Невалиден офис за получаване';
      const refused = await testApp.app.inject({ method: 'POST', url: `/api/admin/orders/${order.orderId}/shipment`, headers: { cookie: admin }, payload: {} });
      speedy.refuseShipments = null;
      expect([refused.statusCode, refused.json().error]).toEqual([502, { code: 'courier_failed', message: 'Невалиден офис за получаване', field: 'refused' }]);
      expect(await testApp.database.db.$count(shipments, eq(shipments.orderId, order.orderId))).toBe(0);
      const unchanged = (await testApp.app.inject({ method: 'GET', url: `/api/admin/orders/${order.orderId}`, headers: { cookie: admin } })).json<AdminOrderDetail>();
      expect([unchanged.order.status, unchanged.order.delivery.shipment]).toEqual(['pending', null]);

      const created = await testApp.app.inject({ method: 'POST', url: `/api/admin/orders/${order.orderId}/shipment`, headers: { cookie: admin }, payload: {} });
      expect(created.statusCode).toBe(204);
      const shipment = [...speedy.shipments.values()].at(-1)!;
      expect(shipment.request).toMatchObject({ recipient: { pickupOfficeId: 125 }, service: { additionalServices: { obpd: { option: 'OPEN' } } } });
      expect((shipment.request as { service: { additionalServices: { cod?: unknown } } }).service.additionalServices.cod).toBeUndefined();
    });

    it('adds the courier’s events to the timeline, marks the order delivered and records the cash the courier paid out', async () => {
      const cookie = await signInThroughInbox(testApp, inbox, 'raya@example.com');
      await fillCart(testApp, cookie, [product]);
      const order = await placeOrder(testApp, cookie, { paymentMethod: 'cash_on_delivery', deliveryMethod: 'speedy_office', officeId: '1' });
      await testApp.app.inject({ method: 'POST', url: `/api/admin/orders/${order.orderId}/shipment`, headers: { cookie: admin }, payload: {} });
      const number = [...speedy.shipments.keys()].at(-1)!;
      expect(speedy.shipments.get(number)!.request).toMatchObject({ service: { additionalServices: { cod: { amount: 28.4, currencyCode: 'EUR', processingType: 'POSTAL_MONEY_TRANSFER' } } } });
      const read = async () => (await testApp.app.inject({ method: 'GET', url: `/api/orders/${order.orderId}`, headers: { cookie } })).json<{ order: Order }>().order;

      speedy.advance(number, { code: 134, bg: 'Пратката очаква получателя в офис', en: 'Prepared for Self-collecting Consignee', place: 'ГР. ПЛОВДИВ', at: new Date(Date.now() - 60_000) });
      await testApp.app.courierJobs.runDue();
      expect((await read()).delivery.shipment?.events).toEqual([{ at: expect.any(String), description: { bg: 'Пратката очаква получателя в офис', en: 'Prepared for Self-collecting Consignee' }, place: 'ГР. ПЛОВДИВ' }]);
      // Read within the hour: the courier is not asked again yet.
      const asked = speedy.requests.length;
      await testApp.app.courierJobs.runDue();
      expect(speedy.requests.length).toBe(asked);

      speedy.advance(number, { code: -14, bg: 'Доставена', en: 'Delivered', place: 'ГР. ПЛОВДИВ' });
      await testApp.database.db.update(shipments).set({ trackedAt: null }).where(eq(shipments.orderId, order.orderId));
      await testApp.app.courierJobs.runDue();
      const delivered = await read();
      expect(delivered.status).toBe('delivered');
      expect(delivered.delivery.shipment?.events.map((event) => event.description.en)).toEqual(['Prepared for Self-collecting Consignee', 'Delivered']);
      expect(await testApp.database.db.$count(payments, eq(payments.orderId, order.orderId))).toBe(0);

      speedy.payOut(number);
      await testApp.database.db.update(shipments).set({ trackedAt: null }).where(eq(shipments.orderId, order.orderId));
      await testApp.app.courierJobs.runDue();
      expect(await testApp.database.db.select({ method: payments.method, amountMinor: payments.amountMinor }).from(payments).where(eq(payments.orderId, order.orderId))).toEqual([{ method: 'cash_on_delivery', amountMinor: 2840 }]);
      // Delivered and paid out: the shipment is no longer read.
      await testApp.database.db.update(shipments).set({ trackedAt: null }).where(eq(shipments.orderId, order.orderId));
      const before = speedy.requests.length;
      await testApp.app.courierJobs.runDue();
      expect(speedy.requests.length).toBe(before);
      expect(await testApp.database.db.$count(mailQueue, eq(mailQueue.orderId, order.orderId))).toBeGreaterThan(0);
    });
  });
}

for (const target of databaseTargets) {
  describe(`the shop's own delivery [${target}]`, () => {
    let inbox: SmtpInbox;
    let testApp: TestApp;
    let product: string;
    let admin: string;
    beforeAll(async () => {
      inbox = await startSmtpInbox();
      testApp = await createTestApp(target, { SMTP_URL: inbox.url, STATUS_MAIL_DELAY_SECONDS: '0' });
      [{ id: product }] = (await testApp.database.db.insert(products).values(testProduct({ name: 'Gold Foil', priceMinor: 1000, stock: 100 })).returning({ id: products.id })) as [{ id: string }];
      await addAdmin(testApp.database.db, 'owner@shop.test');
      admin = await signInThroughInbox(testApp, inbox, 'owner@shop.test');
    });
    afterAll(async () => {
      await testApp?.close();
      await inbox?.close();
    });

    it('offers one method at the shipping fee, and sends the order with the number the admin types', async () => {
      expect(testApp.config.deliveryMethods).toEqual(['address']);
      const courierMethod = await testApp.app.inject({ method: 'GET', url: '/api/delivery/offices?courier=econt&kind=office&q=sofia' });
      expect(courierMethod.statusCode).toBe(404);
      const cookie = await signInThroughInbox(testApp, inbox, 'ani@example.com');
      await fillCart(testApp, cookie, [product]);
      const order = await placeOrder(testApp, cookie, { paymentMethod: 'card' });
      expect([order.pricing.shipping, order.delivery]).toEqual([599, { method: 'address', office: null, shipment: null }]);

      const send = (payload: object) => testApp.app.inject({ method: 'POST', url: `/api/admin/orders/${order.orderId}/shipment`, headers: { cookie: admin }, payload });
      expect((await send({})).json().error).toMatchObject({ field: 'trackingNumber', messageKey: 'admin.orders.shipment.trackingRequired' });
      expect((await send({ trackingNumber: '<script>' })).json().error).toMatchObject({ field: 'trackingNumber', messageKey: 'admin.orders.shipment.trackingInvalid' });
      expect((await send({ trackingNumber: ' BG 1234-5678 ' })).statusCode).toBe(204);
      const sent = (await testApp.app.inject({ method: 'GET', url: `/api/orders/${order.orderId}`, headers: { cookie } })).json<{ order: Order }>().order;
      expect(sent.status).toBe('sent');
      expect(sent.delivery.shipment).toMatchObject({ courier: 'manual', trackingNumber: 'BG 1234-5678', trackingUrl: null, hasLabel: false });
      const label = await testApp.app.inject({ method: 'GET', url: `/api/admin/orders/${order.orderId}/shipment/label`, headers: { cookie: admin } });
      expect(label.statusCode).toBe(404);
      testApp.app.mailWorker.wake();
      const mail = await inbox.waitForMail('ani@example.com', 15_000, (received) => received.subject.includes('on its way'));
      expect(mail.text).toContain('Your parcel travels under number BG 1234-5678.');
    });
  });
}
