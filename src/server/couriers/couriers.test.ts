import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CourierOffice } from '#shared/delivery.js';
import { TEST_LABEL_PDF } from '../../../tests/support/courier-test-kit.js';
import { startEcontTestServer, TEST_ECONT_PASSWORD, TEST_ECONT_USERNAME, type EcontTestServer } from '../../../tests/support/econt-test-server.js';
import { startSpeedyTestServer, TEST_SPEEDY_PASSWORD, TEST_SPEEDY_USERNAME, type SpeedyTestServer } from '../../../tests/support/speedy-test-server.js';
import type { CourierApi, ShipmentRequest } from './courier.js';
import { inShopCurrency } from './delivery-quotes.js';
import { EcontApi } from './econt.js';
import { SpeedyApi } from './speedy.js';

// Each adapter against a local server that answers as its courier documents: offices, a label with
// cash on delivery, tracking, and every way a courier can fail.

const sender = { name: 'Nail Art Atelier Ltd.', phone: '+359888123456' };
const request = (destination: ShipmentRequest['destination'], cashOnDeliveryMinor = 0): ShipmentRequest => ({
  orderId: 'NA-TEST1234',
  sender,
  recipient: { name: 'Мария Петрова', phone: '0888111222' },
  destination,
  weightGrams: 250,
  contents: 'Press-on nails',
  cashOnDeliveryMinor,
  currency: 'EUR',
  inspectBeforePaying: true,
});
const address = { fullName: 'Мария Петрова', streetAddress: 'ул. Шипка 5', apartment: 'ап. 3', city: 'Пловдив', state: '', postalCode: '4000', country: 'BG' as const, phone: '0888111222' };

async function officeOf(api: CourierApi, id: string): Promise<CourierOffice> {
  const office = (await api.listOffices()).find((listed) => listed.id === id);
  return { courier: api.name, ...office! };
}

describe('Econt adapter', () => {
  let econt: EcontTestServer;
  let api: EcontApi;
  beforeAll(async () => {
    econt = await startEcontTestServer();
    api = new EcontApi({ name: 'econt', url: `${econt.url}/`, username: TEST_ECONT_USERNAME, password: TEST_ECONT_PASSWORD, senderOffice: '1127', timeoutMs: 1_000, cashOnDeliveryAgreement: 'CD139879' });
  });
  afterAll(() => econt.close());
  beforeEach(() => {
    econt.trouble = null;
    econt.refuseLabels = null;
  });

  it('lists offices and lockers with their hours in Sofia time, and no cash on delivery at a mobile station', async () => {
    const offices = await api.listOffices();
    expect(offices).toHaveLength(16);
    expect(offices.filter((office) => office.kind === 'locker').map((office) => office.id)).toEqual(['1809', '1810', '4080', '9050']);
    expect(offices.find((office) => office.id === '4001')).toEqual({
      id: '4001',
      kind: 'office',
      name: { bg: 'Пловдив Център', en: 'Plovdiv Center' },
      city: { bg: 'Пловдив', en: 'Plovdiv' },
      postCode: '4000',
      address: { bg: 'ул. Гладстон №12', en: 'ул. Гладстон №12' },
      hours: { weekdays: '09:00–18:00', saturday: '09:00–13:00', sunday: null },
      acceptsCashOnDelivery: true,
    });
    expect(offices.find((office) => office.id === '1360')?.hours).toEqual({ weekdays: '10:00–19:00', saturday: null, sunday: null });
    expect(offices.find((office) => office.id === '1809')?.hours).toEqual({ weekdays: null, saturday: null, sunday: null });
    expect(offices.filter((office) => !office.acceptsCashOnDelivery).map((office) => office.id)).toEqual(['1999', '4090']);
    expect(econt.requests.at(-1)).toEqual({ path: '/Nomenclatures/NomenclaturesService.getOffices.json', body: { countryCode: 'BGR' } });
  });

  it('creates a label to an office with cash on delivery by the profile’s agreement, and brings its PDF', async () => {
    const office = await officeOf(api, '4001');
    const created = await api.createShipment(request({ office }, 4_590));
    expect(created.labelPdf.equals(TEST_LABEL_PDF)).toBe(true);
    const label = econt.labels.get(created.trackingNumber)!.label;
    expect(label).toMatchObject({
      senderClient: { name: sender.name, phones: [sender.phone] },
      senderOfficeCode: '1127',
      receiverClient: { name: 'Мария Петрова', phones: ['0888111222'] },
      receiverOfficeCode: '4001',
      shipmentType: 'PACK',
      weight: 0.25,
      orderNumber: 'NA-TEST1234',
      payAfterAccept: true,
      services: { cdType: 'get', cdAmount: 45.9, cdCurrency: 'EUR', cdPayOptionsTemplate: 'CD139879' },
    });
    expect(label.receiverAddress).toBeUndefined();
  });

  it('sends to an address with no cash for a paid order, and no look before paying at a locker', async () => {
    const toDoor = await api.createShipment(request({ address }));
    expect(econt.labels.get(toDoor.trackingNumber)!.label).toMatchObject({
      receiverAddress: { city: { country: { code3: 'BGR' }, name: 'Пловдив', postCode: '4000' }, other: 'ул. Шипка 5, ап. 3' },
      services: {},
    });
    const locker = await api.createShipment(request({ office: await officeOf(api, '4080') }, 1_000));
    expect(econt.labels.get(locker.trackingNumber)!.label.payAfterAccept).toBeUndefined();
  });

  it('quotes its price to an office or a door without creating a label', async () => {
    const labels = econt.labels.size;
    expect(await api.quote({ sender, destination: { office: await officeOf(api, '4001') }, weightGrams: 250 })).toEqual({ amountMinor: 360, currency: 'EUR' });
    expect(await api.quote({ sender, destination: { address }, weightGrams: 3_000 })).toEqual({ amountMinor: 690, currency: 'EUR' });
    expect(econt.requests.at(-1)).toMatchObject({ path: '/Shipments/LabelService.createLabel.json', body: { mode: 'calculate', label: { senderOfficeCode: '1127', weight: 3 } } });
    expect(econt.labels.size).toBe(labels);
  });

  it('collects parcels from the profile’s address when the shop names no office', async () => {
    const fromHome = new EcontApi({ name: 'econt', url: `${econt.url}/`, username: TEST_ECONT_USERNAME, password: TEST_ECONT_PASSWORD, senderOffice: undefined });
    const created = await fromHome.createShipment(request({ address }));
    expect(econt.labels.get(created.trackingNumber)!.label).toMatchObject({ senderAddress: { city: { name: 'София' }, street: 'ул. Примерна' } });
  });

  it('reads the travel in both languages, the delivery and the cash transferred', async () => {
    const { trackingNumber } = await api.createShipment(request({ address }, 2_000));
    const accepted = new Date('2026-11-20T09:15:00Z');
    const delivered = new Date('2026-11-21T12:40:00Z');
    econt.advance(trackingNumber, { destinationType: 'office', bg: 'Приета в офис', en: 'Accepted in office', officeName: 'София Младост 1', at: accepted });
    econt.advance(trackingNumber, { destinationType: 'client', bg: 'Доставена', en: 'Delivered', at: delivered });
    econt.payOut(trackingNumber, new Date('2026-11-23T08:00:00Z'));
    const reports = await api.track([trackingNumber, '1000000000000']);
    expect([...reports.keys()]).toEqual([trackingNumber]);
    expect(reports.get(trackingNumber)).toEqual({
      events: [
        { at: accepted, code: 'office', description: { bg: 'Приета в офис', en: 'Accepted in office' }, place: 'София Младост 1' },
        { at: delivered, code: 'client', description: { bg: 'Доставена', en: 'Delivered' }, place: '' },
      ],
      deliveredAt: delivered,
      cashOnDeliveryPaidAt: new Date('2026-11-23T08:00:00Z'),
    });
  });

  it('passes Econt’s refusal on in its own words, nested messages included', async () => {
    econt.refuseLabels = 'Несъответствие между населено място и пощенски код.';
    await expect(api.createShipment(request({ address }))).rejects.toMatchObject({ reason: 'refused', message: 'получател: Несъответствие между населено място и пощенски код.' });
    const wrongPassword = new EcontApi({ name: 'econt', url: `${econt.url}/`, username: TEST_ECONT_USERNAME, password: 'expired', senderOffice: '1127' });
    await expect(wrongPassword.listOffices()).rejects.toMatchObject({ reason: 'refused', message: 'Невалидно потребителско име и/или парола.' });
  });

  it('tells an outage, a timeout and an answer not as documented apart', async () => {
    econt.trouble = 'down';
    await expect(api.listOffices()).rejects.toMatchObject({ reason: 'unreachable', message: 'Econt answered 503' });
    econt.trouble = { slowMs: 1_500 };
    await expect(api.listOffices()).rejects.toMatchObject({ reason: 'unreachable' });
    econt.trouble = 'malformed';
    await expect(api.listOffices()).rejects.toMatchObject({ reason: 'malformed' });
    await expect(api.track(['1'])).rejects.toMatchObject({ reason: 'malformed' });
  });
});

describe('Speedy adapter', () => {
  let speedy: SpeedyTestServer;
  let api: SpeedyApi;
  beforeAll(async () => {
    speedy = await startSpeedyTestServer();
    api = new SpeedyApi({ name: 'speedy', url: speedy.url, username: TEST_SPEEDY_USERNAME, password: TEST_SPEEDY_PASSWORD, senderOffice: '98', timeoutMs: 1_000 });
  });
  afterAll(() => speedy.close());
  beforeEach(() => {
    speedy.trouble = null;
    speedy.refuseShipments = null;
  });

  it('lists offices and lockers (APT) with names out of capitals, leaving out pallet-only offices', async () => {
    const offices = await api.listOffices();
    expect(offices).toHaveLength(12);
    expect(offices.some((office) => office.id === '900')).toBe(false);
    expect(offices.find((office) => office.id === '98')).toEqual({
      id: '98',
      kind: 'office',
      name: { bg: 'София - Младост 1 (Жк)', en: 'Sofia - Mladost 1 (Zhk)' },
      city: { bg: 'София', en: 'София' },
      postCode: '1000',
      address: { bg: 'жк МЛАДОСТ 1 бл. 12А МАГАЗИН 14', en: 'жк МЛАДОСТ 1 бл. 12А МАГАЗИН 14' },
      hours: { weekdays: '09:00–19:00', saturday: '09:00–14:00', sunday: null },
      acceptsCashOnDelivery: true,
    });
    expect(offices.filter((office) => office.kind === 'locker').map((office) => office.id)).toEqual(['2043', '2101', '2050', '2070']);
    // A locker takes cards for the cash on delivery; one that takes nothing, and an office that takes nothing, have none.
    expect(offices.filter((office) => !office.acceptsCashOnDelivery).map((office) => office.id)).toEqual(['450', '2101']);
    expect(speedy.requests.at(-1)).toMatchObject({ path: '/location/office', body: { userName: TEST_SPEEDY_USERNAME, countryId: 100 } });
  });

  it('creates a shipment to an office with cash on delivery by postal money transfer, and prints its label', async () => {
    const office = await officeOf(api, '1');
    const created = await api.createShipment(request({ office }, 4_590));
    expect(created.labelPdf.equals(TEST_LABEL_PDF)).toBe(true);
    expect(speedy.shipments.get(created.trackingNumber)!.request).toMatchObject({
      sender: { phone1: { number: sender.phone }, contactName: sender.name, dropoffOfficeId: 98 },
      recipient: { phone1: { number: '0888111222' }, clientName: 'Мария Петрова', privatePerson: true, pickupOfficeId: 1 },
      service: {
        serviceId: 505,
        additionalServices: { cod: { amount: 45.9, currencyCode: 'EUR', processingType: 'POSTAL_MONEY_TRANSFER' }, obpd: { option: 'OPEN', returnShipmentServiceId: 505, returnShipmentPayer: 'SENDER' } },
      },
      content: { parcelsCount: 1, totalWeight: 0.25, contents: 'Press-on nails', package: 'BOX' },
      ref1: 'NA-TEST1234',
    });
    expect(speedy.requests.at(-1)).toMatchObject({ path: '/print', body: { paperSize: 'A6', parcels: [{ parcel: { id: created.trackingNumber } }] } });
  });

  it('sends to an address, and lets nobody open a locker before paying', async () => {
    const toDoor = await api.createShipment(request({ address }));
    const sent = speedy.shipments.get(toDoor.trackingNumber)!.request as { recipient: { address: unknown }; service: { additionalServices: { cod?: unknown } } };
    expect(sent.recipient.address).toEqual({ countryId: 100, postCode: '4000', siteName: 'Пловдив', addressNote: 'ул. Шипка 5, ап. 3' });
    expect(sent.service.additionalServices.cod).toBeUndefined();
    const locker = await api.createShipment(request({ office: await officeOf(api, '2050') }, 1_000));
    expect((speedy.shipments.get(locker.trackingNumber)!.request as { service: { additionalServices: { obpd?: unknown } } }).service.additionalServices.obpd).toBeUndefined();
  });

  it('reads the travel in both languages (one request in each), the delivery and the cash paid out', async () => {
    const { trackingNumber } = await api.createShipment(request({ address }, 2_000));
    const delivered = new Date('2026-07-21T12:40:00Z');
    speedy.advance(trackingNumber, { code: 148, bg: 'Получени данни за пратката', en: 'Shipment data received', at: new Date('2026-07-20T07:00:00Z') });
    speedy.advance(trackingNumber, { code: -14, bg: 'Доставена', en: 'Delivered', place: 'ГР. ПЛОВДИВ', at: delivered });
    speedy.payOut(trackingNumber, new Date('2026-07-23T06:00:00Z'));
    const reports = await api.track([trackingNumber]);
    expect(reports.get(trackingNumber)).toEqual({
      events: [
        { at: new Date('2026-07-20T07:00:00Z'), code: '148', description: { bg: 'Получени данни за пратката', en: 'Shipment data received' }, place: '' },
        { at: delivered, code: '-14', description: { bg: 'Доставена', en: 'Delivered' }, place: 'ГР. ПЛОВДИВ' },
      ],
      deliveredAt: delivered,
      cashOnDeliveryPaidAt: new Date('2026-07-23T06:00:00Z'),
    });
  });

  it('quotes its price to an office or an address, and passes a refusal of the office on', async () => {
    expect(await api.quote({ sender, destination: { office: await officeOf(api, '1') }, weightGrams: 250 })).toEqual({ amountMinor: 420, currency: 'EUR' });
    expect(await api.quote({ sender, destination: { address }, weightGrams: 250 })).toEqual({ amountMinor: 690, currency: 'EUR' });
    expect(speedy.requests.at(-1)).toMatchObject({
      path: '/calculate',
      body: { sender: { dropoffOfficeId: 98 }, recipient: { privatePerson: true, addressLocation: { countryId: 100, siteName: 'Пловдив', postCode: '4000' } }, service: { serviceIds: [505] }, content: { totalWeight: 0.25 } },
    });
    const closed = { ...(await officeOf(api, '1')), id: '777' };
    await expect(api.quote({ sender, destination: { office: closed }, weightGrams: 250 })).rejects.toMatchObject({ reason: 'refused', message: 'Невалиден офис за получаване' });
  });

  it('asks about at most ten parcels at a time', async () => {
    const numbers = [];
    for (let count = 0; count < 12; count += 1) numbers.push((await api.createShipment(request({ address }))).trackingNumber);
    const before = speedy.requests.length;
    expect((await api.track(numbers)).size).toBe(12);
    const tracks = speedy.requests.slice(before).filter((sent) => sent.path === '/track');
    expect(tracks.map((sent) => (sent.body.parcels as unknown[]).length)).toEqual([10, 10, 2, 2]);
  });

  it('passes Speedy’s refusal on in its own words, and tells outages, timeouts and odd answers apart', async () => {
    speedy.refuseShipments = 'Невалиден адрес';
    await expect(api.createShipment(request({ address }))).rejects.toMatchObject({ reason: 'refused', message: 'Невалиден адрес' });
    const wrongPassword = new SpeedyApi({ name: 'speedy', url: speedy.url, username: TEST_SPEEDY_USERNAME, password: 'expired', senderOffice: undefined });
    await expect(wrongPassword.listOffices()).rejects.toMatchObject({ reason: 'refused', message: 'Невалидно потребителско име или парола' });
    speedy.trouble = 'down';
    await expect(api.listOffices()).rejects.toMatchObject({ reason: 'unreachable', message: 'Speedy answered 502' });
    speedy.trouble = { slowMs: 1_500 };
    await expect(api.listOffices()).rejects.toMatchObject({ reason: 'unreachable' });
    speedy.trouble = 'malformed';
    await expect(api.listOffices()).rejects.toMatchObject({ reason: 'malformed' });
  });
});

describe('a courier’s price in the shop’s currency', () => {
  it('is kept in the currency it came in, or converted at the fixed rate, half-up to the stotinka or cent', () => {
    expect(inShopCurrency({ amountMinor: 612, currency: 'EUR' }, 'EUR')).toBe(612);
    expect(inShopCurrency({ amountMinor: 612, currency: 'EUR' }, 'BGN')).toBe(1197);
    expect(inShopCurrency({ amountMinor: 1197, currency: 'BGN' }, 'EUR')).toBe(612);
  });
});
