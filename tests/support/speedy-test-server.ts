import type { IncomingMessage, ServerResponse } from 'node:http';
import { listenLocally, readBody, TEST_LABEL_PDF } from './courier-test-kit.js';

/*
 * A local stand-in for Speedy's Web API v1 (https://api.speedy.bg/api/docs/), answering as it is
 * documented: POSTs of JSON with userName and password in every body, refusals as an `error` object
 * with status 200, names in capitals, lockers as type APT, moments as "2022-02-24T08:59:12+0200", the
 * label as PDF bytes. Its offices are in Sofia, Plovdiv and Varna.
 */

export const TEST_SPEEDY_USERNAME = '999111';
export const TEST_SPEEDY_PASSWORD = 'speedy-test-password';

const SITES = {
  sofia: { siteId: 68134, siteName: 'СОФИЯ', postCode: '1000' },
  plovdiv: { siteId: 56784, siteName: 'ПЛОВДИВ', postCode: '4000' },
  varna: { siteId: 10135, siteName: 'ВАРНА', postCode: '9000' },
};

interface OfficeSeed {
  id: number;
  name: string;
  nameEn: string;
  site: keyof typeof SITES;
  local: string;
  type?: 'APT';
  /** Takes neither cash nor cards: no cash on delivery there. */
  noPayments?: boolean;
  /** Handles pallets only. */
  palletOnly?: boolean;
}

const SPEEDY_TEST_OFFICES: OfficeSeed[] = [
  { id: 98, name: 'СОФИЯ - МЛАДОСТ 1 (ЖК)', nameEn: 'SOFIA - MLADOST 1 (ZHK)', site: 'sofia', local: 'жк МЛАДОСТ 1 бл. 12А МАГАЗИН 14' },
  { id: 261, name: 'СОФИЯ - СРЕБЪРНА', nameEn: 'SOFIA - SREBARNA', site: 'sofia', local: 'ул. СРЕБЪРНА No 15' },
  { id: 12, name: 'СОФИЯ - ЦЕНТЪР', nameEn: 'SOFIA - CENTER', site: 'sofia', local: 'бул. КНЯГИНЯ МАРИЯ ЛУИЗА No 48' },
  { id: 450, name: 'СОФИЯ - ДРУЖБА 2 (ЖК)', nameEn: 'SOFIA - DRUZHBA 2 (ZHK)', site: 'sofia', local: 'жк ДРУЖБА 2 бл. 409', noPayments: true },
  { id: 2043, name: 'АВТОМАТ СОФИЯ - МЛАДОСТ 4 (ЖК)', nameEn: 'APT SOFIA - MLADOST 4 (ZHK)', site: 'sofia', local: 'жк МЛАДОСТ 4 до бл. 455', type: 'APT' },
  { id: 2101, name: 'АВТОМАТ СОФИЯ - ЛЮЛИН 7 (ЖК)', nameEn: 'APT SOFIA - LYULIN 7 (ZHK)', site: 'sofia', local: 'жк ЛЮЛИН 7 до бл. 714', type: 'APT', noPayments: true },
  { id: 900, name: 'СОФИЯ - КАРГО ЦЕНТЪР', nameEn: 'SOFIA - CARGO CENTER', site: 'sofia', local: 'бул. ЛОМСКО ШОСЕ No 240', palletOnly: true },
  { id: 1, name: 'ПЛОВДИВ - КУКЛЕНСКО ШОСЕ', nameEn: 'PLOVDIV - KUKLENSKO SHOSE', site: 'plovdiv', local: 'ул. Кукленско шосе No 15' },
  { id: 125, name: 'ПЛОВДИВ - ТРАКИЯ (ЖК)', nameEn: 'PLOVDIV - TRAKIYA (ZHK)', site: 'plovdiv', local: 'жк ТРАКИЯ бл. 156' },
  { id: 2050, name: 'АВТОМАТ ПЛОВДИВ - МОЛ МАРКОВО ТЕПЕ', nameEn: 'APT PLOVDIV - MALL MARKOVO TEPE', site: 'plovdiv', local: 'ул. ГЕНЕРАЛ ДАНАИЛ НИКОЛАЕВ No 2', type: 'APT' },
  { id: 60, name: 'ВАРНА - ЦЕНТЪР', nameEn: 'VARNA - CENTER', site: 'varna', local: 'бул. ПРИМОРСКИ No 45' },
  { id: 62, name: 'ВАРНА - ВЛАДИСЛАВОВО (ЖК)', nameEn: 'VARNA - VLADISLAVOVO (ZHK)', site: 'varna', local: 'жк ВЛАДИСЛАВОВО бл. 210' },
  { id: 2070, name: 'АВТОМАТ ВАРНА - ГРАНД МОЛ', nameEn: 'APT VARNA - GRAND MALL', site: 'varna', local: 'ул. АНДРЕЙ САХАРОВ No 2', type: 'APT' },
];

/** An office in location/office's shape, after the one Speedy answers for its Младост 1 office. */
function officeAnswer(seed: OfficeSeed) {
  const site = SITES[seed.site];
  const apt = seed.type === 'APT';
  return {
    id: seed.id,
    name: seed.name,
    nameEn: seed.nameEn,
    siteId: site.siteId,
    address: {
      countryId: 100,
      siteId: site.siteId,
      siteType: 'ГР.',
      siteName: site.siteName,
      postCode: site.postCode,
      x: 23.3 + seed.id / 10_000,
      y: 42.6 + seed.id / 10_000,
      fullAddressString: `гр. ${site.siteName} ${seed.local}`,
      siteAddressString: `гр. ${site.siteName}`,
      localAddressString: seed.local,
    },
    workingTimeFrom: apt ? '00:00' : '09:00',
    workingTimeTo: apt ? '23:59' : '19:00',
    workingTimeHalfFrom: apt ? '00:00' : '09:00',
    workingTimeHalfTo: apt ? '23:59' : '14:00',
    workingTimeDayOffFrom: apt ? '00:00' : '00:00',
    workingTimeDayOffTo: apt ? '23:59' : '00:00',
    sameDayDepartureCutoff: '18:30',
    maxParcelDimensions: apt ? { width: 47, height: 60, depth: 65 } : { width: 80, height: 180, depth: 80 },
    maxParcelWeight: apt ? 20 : 32,
    type: apt ? 'APT' : 'OFFICE',
    nearbyOfficeId: 240,
    workingTimeSchedule: [],
    validFrom: '2000-01-01',
    validTo: '3000-01-01',
    cargoTypesAllowed: seed.palletOnly ? ['PALLET'] : ['PARCEL'],
    pickUpAllowed: true,
    dropOffAllowed: true,
    palletOffice: Boolean(seed.palletOnly),
    cashPaymentAllowed: !seed.noPayments && !apt,
    cardPaymentAllowed: !seed.noPayments,
  };
}

interface SpeedyTestShipment {
  id: string;
  request: Record<string, unknown>;
  operations: Array<{ dateTime: string; operationCode: number; bg: string; en: string; place?: string }>;
  codPaidAt: string | null;
}

export interface SpeedyTestServer {
  url: string;
  shipments: Map<string, SpeedyTestShipment>;
  requests: Array<{ path: string; body: Record<string, unknown> }>;
  trouble: null | 'down' | 'malformed' | { slowMs: number };
  refuseShipments: string | null;
  /** Adds an operation to a shipment's travel; -14 is delivery. */
  advance(id: string, operation: { code: number; bg: string; en: string; place?: string; at?: Date }): void;
  payOut(id: string, at?: Date): void;
  close(): Promise<void>;
}

/** A moment as Speedy writes it: Sofia's time with its offset, without a colon ("2022-02-24T08:59:12+0200"). */
function speedyTime(at: Date): string {
  const offsetMinutes = at.toLocaleString('en-GB', { timeZone: 'Europe/Sofia', timeZoneName: 'longOffset' }).endsWith('+03:00') ? 180 : 120;
  const local = new Date(at.getTime() + offsetMinutes * 60_000).toISOString().slice(0, 19);
  return `${local}+0${offsetMinutes / 60}00`;
}

export async function startSpeedyTestServer(): Promise<SpeedyTestServer> {
  const offices = SPEEDY_TEST_OFFICES.map(officeAnswer);
  let nextId = 299_999_990;
  const state: SpeedyTestServer = {
    url: '',
    shipments: new Map(),
    requests: [],
    trouble: null,
    refuseShipments: null,
    advance(id, operation) {
      state.shipments.get(id)!.operations.push({ dateTime: speedyTime(operation.at ?? new Date()), operationCode: operation.code, bg: operation.bg, en: operation.en, place: operation.place });
    },
    payOut(id, at = new Date()) {
      state.shipments.get(id)!.codPaidAt = speedyTime(at);
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  const answer = (response: ServerResponse, body: unknown) => {
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    response.end(JSON.stringify(body));
  };
  const refuse = (response: ServerResponse, code: number, message: string, context?: string) => answer(response, { error: { context, message, id: `EE${Date.now()}`, code } });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? '/', 'http://speedy.test').pathname.replace(/^\/v1/, '').replace(/\/$/, '');
    const body = JSON.parse((await readBody(request)) || '{}') as Record<string, unknown>;
    state.requests.push({ path, body });
    const trouble = state.trouble;
    if (trouble === 'down') {
      response.writeHead(502, { 'content-type': 'text/html' });
      response.end('<html><body>Bad Gateway</body></html>');
      return;
    }
    if (trouble !== null && typeof trouble === 'object') await new Promise((resolve) => setTimeout(resolve, trouble.slowMs));
    if (trouble === 'malformed') return answer(response, { offices: [{ id: 'x' }], parcels: 7 });
    if (body.userName !== TEST_SPEEDY_USERNAME || body.password !== TEST_SPEEDY_PASSWORD) return refuse(response, 1, 'Невалидно потребителско име или парола');
    const english = body.language === 'EN';

    switch (path) {
      case '/location/office':
        return answer(response, { offices: body.countryId === 100 ? offices : [] });
      case '/shipment': {
        if (state.refuseShipments) return refuse(response, 120, state.refuseShipments, 'recipient.address');
        const recipient = (body.recipient ?? {}) as { phone1?: { number?: string }; clientName?: string; pickupOfficeId?: number; address?: unknown };
        if (!recipient.phone1?.number || !recipient.clientName) return refuse(response, 100, 'Невалидни данни за получателя', 'recipient');
        if (recipient.pickupOfficeId !== undefined && !offices.some((office) => office.id === recipient.pickupOfficeId)) return refuse(response, 180, 'Невалиден офис за получаване', 'recipient.pickupOfficeId');
        if (recipient.pickupOfficeId === undefined && !recipient.address) return refuse(response, 120, 'Невалиден адрес', 'recipient.address');
        const content = (body.content ?? {}) as { contents?: string; package?: string };
        if (!content.contents || !content.package) return refuse(response, 600, 'Невалидно съдържание на пратката', 'content');
        nextId += 1;
        const id = String(nextId);
        state.shipments.set(id, { id, request: body, operations: [], codPaidAt: null });
        return answer(response, { id, parcels: [{ seqNo: 1, id }], price: { amount: 5.1, vat: 1.02, total: 6.12, currency: 'EUR' }, pickupDate: new Date().toISOString().slice(0, 10) });
      }
      case '/calculate': {
        const recipient = (body.recipient ?? {}) as { pickupOfficeId?: number; addressLocation?: { siteName?: string } };
        const content = (body.content ?? {}) as { totalWeight?: number };
        if (recipient.pickupOfficeId !== undefined && !offices.some((office) => office.id === recipient.pickupOfficeId)) {
          return answer(response, { calculations: [{ serviceId: 505, error: { message: 'Невалиден офис за получаване', code: 180, id: 'x' } }] });
        }
        const total = (recipient.pickupOfficeId !== undefined ? 4.2 : 6.9) + Math.max(0, (content.totalWeight ?? 0) - 1) * 0.6;
        return answer(response, { calculations: [{ serviceId: 505, price: { amount: total / 1.2, vat: total - total / 1.2, total: Math.round(total * 100) / 100, currency: 'EUR' }, pickupDate: '2026-11-27' }] });
      }
      case '/print': {
        const parcels = (body.parcels ?? []) as Array<{ parcel?: { id?: string } }>;
        if (!parcels.every((entry) => entry.parcel?.id && state.shipments.has(entry.parcel.id))) return refuse(response, 630, 'Невалидни пакети');
        response.writeHead(200, { 'content-type': 'application/pdf' });
        response.end(TEST_LABEL_PDF);
        return;
      }
      case '/track': {
        const parcels = (body.parcels ?? []) as Array<{ id: string }>;
        if (parcels.length > 10) return refuse(response, 1, 'Too many parcels');
        return answer(response, {
          parcels: parcels.map(({ id }) => {
            const shipment = state.shipments.get(id);
            if (!shipment) return { parcelId: id, error: { message: 'Невалидна товарителница', code: 1, id: 'x' } };
            return {
              parcelId: id,
              operations: shipment.operations.map((operation) => ({ dateTime: operation.dateTime, operationCode: operation.operationCode, description: english ? operation.en : operation.bg, ...(operation.place ? { place: operation.place } : {}) })),
            };
          }),
        });
      }
      case '/shipment/info': {
        const ids = (body.shipmentIds ?? []) as string[];
        return answer(response, {
          shipments: ids.flatMap((id) => {
            const shipment = state.shipments.get(id);
            return shipment ? [{ id, payment: { codPayment: shipment.codPaidAt ? { date: shipment.codPaidAt, totalPayedOutAmount: 1 } : null } }] : [];
          }),
        });
      }
      default:
        response.writeHead(404, { 'content-type': 'text/plain' });
        response.end('not found');
    }
  }

  const { server, origin } = await listenLocally(handle);
  state.url = `${origin}/v1/`;
  return state;
}
