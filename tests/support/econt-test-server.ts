import type { IncomingMessage, ServerResponse } from 'node:http';
import { listenLocally, readBody, TEST_LABEL_PDF } from './courier-test-kit.js';

/*
 * A local stand-in for Econt's JSON services (https://ee.econt.com/services/), answering as they are
 * documented: POSTs of JSON with HTTP Basic authentication, errors as { type, message, innerErrors }
 * with status 517, hours as epoch milliseconds, lockers marked isAPS and mobile stations isMPS. Its
 * offices are in Sofia, Plovdiv and Varna, in the shape getOffices answers with.
 */

export const TEST_ECONT_USERNAME = 'iasp-dev';
export const TEST_ECONT_PASSWORD = '1Asp-dev';

/** 09:00 and 18:00 (and 13:00) in Sofia as Econt writes them: any day's moment, in milliseconds. */
const AT_0900 = Date.UTC(2018, 3, 19, 6);
const AT_1800 = Date.UTC(2018, 3, 19, 15);
const AT_1300 = Date.UTC(2018, 3, 19, 10);
const AT_1000 = Date.UTC(2018, 3, 19, 7);
const AT_1900 = Date.UTC(2018, 3, 19, 16);

interface OfficeSeed {
  code: string;
  name: string;
  nameEn: string;
  city: 'sofia' | 'plovdiv' | 'varna';
  quarter?: string;
  street: string;
  num: string;
  kind?: 'aps' | 'mps';
  /** Open till 19:00 on working days, no Saturday hours. */
  late?: boolean;
}

const CITIES = {
  sofia: { id: 41, postCode: '1000', name: 'София', nameEn: 'Sofia' },
  plovdiv: { id: 51, postCode: '4000', name: 'Пловдив', nameEn: 'Plovdiv' },
  varna: { id: 48, postCode: '9000', name: 'Варна', nameEn: 'Varna' },
};

const ECONT_TEST_OFFICES: OfficeSeed[] = [
  { code: '1127', name: 'София Младост 1', nameEn: 'Sofia Mladost 1', city: 'sofia', quarter: 'ж.к. Младост 1', street: 'бл.', num: '10' },
  { code: '1048', name: 'София Лозенец', nameEn: 'Sofia Lozenets', city: 'sofia', quarter: 'кв. Лозенец', street: 'ул. Крум Попов', num: '56' },
  { code: '1360', name: 'София Център', nameEn: 'Sofia Center', city: 'sofia', street: 'бул. Витоша', num: '15', late: true },
  { code: '1505', name: 'София Люлин 5', nameEn: 'Sofia Lyulin 5', city: 'sofia', quarter: 'ж.к. Люлин 5', street: 'бул. Джавахарлал Неру', num: '28' },
  { code: '1809', name: 'Еконтомат София Младост 4', nameEn: 'Econtomat Sofia Mladost 4', city: 'sofia', quarter: 'ж.к. Младост 4', street: 'до бл.', num: '403', kind: 'aps' },
  { code: '1810', name: 'Еконтомат София Бизнес парк', nameEn: 'Econtomat Sofia Business Park', city: 'sofia', quarter: 'ж.к. Младост 4', street: 'Бизнес парк София', num: '1', kind: 'aps' },
  { code: '1999', name: 'София Дружба мобилна станция', nameEn: 'Sofia Druzhba mobile station', city: 'sofia', quarter: 'ж.к. Дружба 1', street: 'ул. Обиколна', num: '2', kind: 'mps' },
  { code: '4001', name: 'Пловдив Център', nameEn: 'Plovdiv Center', city: 'plovdiv', street: 'ул. Гладстон', num: '12' },
  { code: '4003', name: 'Пловдив Тракия', nameEn: 'Plovdiv Trakia', city: 'plovdiv', quarter: 'ж.к. Тракия', street: 'бл.', num: '102' },
  { code: '4017', name: 'Пловдив Кършияка', nameEn: 'Plovdiv Karshiyaka', city: 'plovdiv', quarter: 'кв. Кършияка', street: 'бул. България', num: '146', late: true },
  { code: '4080', name: 'Еконтомат Пловдив Марица', nameEn: 'Econtomat Plovdiv Maritsa', city: 'plovdiv', street: 'бул. Марица', num: '122', kind: 'aps' },
  { code: '4090', name: 'Пловдив Смирненски мобилна станция', nameEn: 'Plovdiv Smirnenski mobile station', city: 'plovdiv', quarter: 'кв. Смирненски', street: 'ул. Шипка', num: '9', kind: 'mps' },
  { code: '9001', name: 'Варна Център', nameEn: 'Varna Center', city: 'varna', street: 'бул. Сливница', num: '5' },
  { code: '9022', name: 'Варна Левски', nameEn: 'Varna Levski', city: 'varna', quarter: 'ж.к. Левски', street: 'бл.', num: '45' },
  { code: '9030', name: 'Варна Аспарухово', nameEn: 'Varna Asparuhovo', city: 'varna', quarter: 'кв. Аспарухово', street: 'ул. Народни будители', num: '7' },
  { code: '9050', name: 'Еконтомат Варна Гранд мол', nameEn: 'Econtomat Varna Grand Mall', city: 'varna', street: 'бул. Андрей Сахаров', num: '2', kind: 'aps' },
];

/** An office in getOffices' shape, as Econt's documentation shows it ("Шумен Осми март"). */
function officeAnswer(seed: OfficeSeed, index: number) {
  const city = CITIES[seed.city];
  const street = [seed.quarter, seed.street, seed.num ? `№${seed.num}` : ''].filter(Boolean).join(' ');
  return {
    id: 800 + index,
    code: seed.code,
    isMPS: seed.kind === 'mps',
    isAPS: seed.kind === 'aps',
    name: seed.name,
    nameEn: seed.nameEn,
    phones: seed.kind ? [] : ['070014500'],
    emails: [],
    address: {
      id: null,
      city: { id: city.id, country: { id: null, code2: 'BG', code3: 'BGR', name: null, nameEn: null, isEU: null }, postCode: city.postCode, name: city.name, nameEn: city.nameEn, regionName: null, regionNameEn: null, phoneCode: null, location: null, expressCityDeliveries: null },
      fullAddress: ` ${city.name} ${street}`,
      quarter: seed.quarter ?? null,
      street: seed.street,
      num: seed.num,
      other: '',
      location: { latitude: 42.6 + index / 100, longitude: 23.3 + index / 100, confidence: 3 },
      zip: null,
    },
    info: '',
    currency: 'EUR',
    language: 'bg',
    // A locker is open round the clock and Econt gives it no hours.
    normalBusinessHoursFrom: seed.kind === 'aps' ? null : seed.late ? AT_1000 : AT_0900,
    normalBusinessHoursTo: seed.kind === 'aps' ? null : seed.late ? AT_1900 : AT_1800,
    halfDayBusinessHoursFrom: seed.kind === 'aps' || seed.late ? null : AT_0900,
    halfDayBusinessHoursTo: seed.kind === 'aps' || seed.late ? null : AT_1300,
    shipmentTypes: ['courier', 'post'],
    partnerCode: '',
    hubCode: city.postCode,
    hubName: city.name,
    hubNameEn: city.nameEn,
  };
}

interface EcontTestLabel {
  shipmentNumber: string;
  label: Record<string, unknown>;
  events: Array<{ destinationType: string; destinationDetails: string; destinationDetailsEn: string; officeName: string; time: number }>;
  deliveryTime: number | null;
  cdPaidTime: number | null;
}

export interface EcontTestServer {
  url: string;
  labels: Map<string, EcontTestLabel>;
  /** Every request the shop made, in order: its path and body. */
  requests: Array<{ path: string; body: unknown }>;
  /** 'down': 503 with an HTML page; 'slow': no answer for this many ms; 'malformed': answers JSON that is not as documented. */
  trouble: null | 'down' | 'malformed' | { slowMs: number };
  /** While set, createLabel refuses with this message, as Econt refuses a label it cannot take. */
  refuseLabels: string | null;
  /** How long createLabel takes, to let parallel requests meet. */
  labelDelayMs: number;
  /** Adds a step to a label's travel; 'client' is delivery. */
  advance(shipmentNumber: string, step: { destinationType: string; bg: string; en: string; officeName?: string; at?: Date }): void;
  /** The courier reports the cash collected for the label transferred to the shop. */
  payOut(shipmentNumber: string, at?: Date): void;
  close(): Promise<void>;
}

/** Econt's refusal: the error object at the top of the answer, with its unusual status. */
function refuse(response: ServerResponse, type: string, message: string, inner: string[] = []): void {
  response.writeHead(517, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify({ type, message, fields: [], innerErrors: inner.map((text) => ({ type: 'ExInvalidParam', message: text, fields: [], innerErrors: [] })) }));
}

export async function startEcontTestServer(): Promise<EcontTestServer> {
  const offices = ECONT_TEST_OFFICES.map(officeAnswer);
  let nextNumber = 1055215517000;
  const state: EcontTestServer = {
    url: '',
    labels: new Map(),
    requests: [],
    trouble: null,
    refuseLabels: null,
    labelDelayMs: 0,
    advance(shipmentNumber, step) {
      const label = state.labels.get(shipmentNumber)!;
      const time = (step.at ?? new Date()).getTime();
      label.events.push({ destinationType: step.destinationType, destinationDetails: step.bg, destinationDetailsEn: step.en, officeName: step.officeName ?? '', time });
      if (step.destinationType === 'client') label.deliveryTime = time;
    },
    payOut(shipmentNumber, at = new Date()) {
      state.labels.get(shipmentNumber)!.cdPaidTime = at.getTime();
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  const answer = (response: ServerResponse, body: unknown) => {
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    response.end(JSON.stringify(body));
  };

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? '/', 'http://econt.test').pathname;
    if (request.method === 'GET' && path.startsWith('/labels/')) {
      response.writeHead(200, { 'content-type': 'application/pdf' });
      response.end(TEST_LABEL_PDF);
      return;
    }
    const text = await readBody(request);
    const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    state.requests.push({ path, body });
    const trouble = state.trouble;
    if (trouble === 'down') {
      response.writeHead(503, { 'content-type': 'text/html' });
      response.end('<html><body>Service Unavailable</body></html>');
      return;
    }
    if (trouble !== null && typeof trouble === 'object') await new Promise((resolve) => setTimeout(resolve, trouble.slowMs));
    if (trouble === 'malformed') return answer(response, { offices: 'unavailable', label: null, shipmentStatuses: {} });
    const expected = `Basic ${Buffer.from(`${TEST_ECONT_USERNAME}:${TEST_ECONT_PASSWORD}`).toString('base64')}`;
    if (request.headers.authorization !== expected) return refuse(response, 'ExInvalidParam', 'Невалидно потребителско име и/или парола.');

    switch (path) {
      case '/Nomenclatures/NomenclaturesService.getOffices.json':
        return answer(response, { offices: body.countryCode === 'BGR' ? offices : [] });
      case '/Profile/ProfileService.getClientProfiles.json':
        return answer(response, {
          profiles: [
            {
              client: { name: 'Нейл Арт Ателие ЕООД', phones: ['0888123456'] },
              addresses: [{ city: { country: { code3: 'BGR' }, name: 'София', postCode: '1000' }, street: 'ул. Примерна', num: '1' }],
              cdPayOptions: [{ num: 'CD139879', moneyTransfer: true, method: 'office', officeCode: '1127' }],
            },
          ],
        });
      case '/Shipments/LabelService.createLabel.json': {
        if (state.labelDelayMs) await new Promise((resolve) => setTimeout(resolve, state.labelDelayMs));
        const label = (body.label ?? {}) as Record<string, unknown>;
        if (state.refuseLabels) return refuse(response, 'ExInvalidParam', 'получател: ', [state.refuseLabels]);
        const receiver = label.receiverClient as { name?: string; phones?: string[] } | undefined;
        // A price needs only the two places: names and phones matter to a label that is made.
        if (body.mode !== 'calculate' && (!receiver?.name || !receiver.phones?.[0])) return refuse(response, 'ExInvalidParam', 'получател: ', ['Липсва име или телефон на получателя.']);
        const officeCode = label.receiverOfficeCode as string | undefined;
        if (officeCode && !offices.some((office) => office.code === officeCode)) return refuse(response, 'ExInvalidParam', 'получател: ', [`Няма офис с код ${officeCode}.`]);
        if (!officeCode && !label.receiverAddress) return refuse(response, 'ExInvalidParam', 'получател: ', ['Липсва адрес или офис на получателя.']);
        if (!label.senderOfficeCode && !label.senderAddress) return refuse(response, 'ExInvalidParam', 'подател: ', ['Липсва адрес или офис на подателя.']);
        const services = (label.services ?? {}) as { cdAmount?: number; cdCurrency?: string };
        if (services.cdAmount && !services.cdCurrency) return refuse(response, 'ExInvalidParam', 'Наложен платеж: ', ['Липсва валута.']);
        nextNumber += 1;
        const shipmentNumber = String(nextNumber);
        if (body.mode === 'create') state.labels.set(shipmentNumber, { shipmentNumber, label, events: [], deliveryTime: null, cdPaidTime: null });
        return answer(response, {
          label: {
            shipmentNumber: body.mode === 'create' ? shipmentNumber : null,
            pdfURL: body.mode === 'create' ? `${state.url}/labels/${shipmentNumber}.pdf` : '',
            // Econt's price: less to an office than to a door, and more for a heavier parcel.
            totalPrice: Math.round(((officeCode ? 3.6 : 5.9) + Math.max(0, Number(label.weight ?? 0) - 1) * 0.5) * 100) / 100,
            currency: 'EUR',
            createdTime: Date.now(),
          },
          blockingPaymentURL: null,
          courierRequestID: null,
          payAfterAcceptIgnored: officeCode ? offices.find((office) => office.code === officeCode)!.isAPS : false,
        });
      }
      case '/Shipments/ShipmentService.getShipmentStatuses.json': {
        const numbers = (body.shipmentNumbers ?? []) as string[];
        return answer(response, {
          shipmentStatuses: numbers.map((number) => {
            const label = state.labels.get(number);
            if (!label) return { status: null, error: { type: 'ExInvalidShipmentNum', message: `Невалиден номер на пратка ${number}`, fields: [], innerErrors: [] } };
            return {
              status: { shipmentNumber: number, deliveryTime: label.deliveryTime, cdPaidTime: label.cdPaidTime, trackingEvents: label.events, shortDeliveryStatus: null, shortDeliveryStatusEn: null },
              error: null,
            };
          }),
        });
      }
      default:
        response.writeHead(404, { 'content-type': 'text/plain' });
        response.end('not found');
    }
  }

  const { server, origin } = await listenLocally(handle);
  state.url = origin;
  return state;
}
