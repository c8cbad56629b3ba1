import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import {
  courierOf,
  deliveryKindOf,
  OFFICE_SEARCH_LIMIT,
  OFFICE_SEARCH_MAX_LENGTH,
  officeSearchKey,
  type Courier,
  type CourierOffice,
  type DeliveryKind,
  type DeliveryMethod,
} from '#shared/delivery.js';
import type { Database, Executor } from '#server/db/client.js';
import { courierOfficeLists, courierOffices } from '#server/db/schema.js';
import { inTransaction } from '#server/db/transaction.js';
import { HttpError } from '#server/http/errors.js';
import type { CourierApi, ListedOffice } from './courier.js';

// The couriers' offices and lockers: kept in the database, refreshed daily, searched by the checkout.

/** How long a refreshed list is good for, and how soon a failed refresh is tried again. */
const OFFICES_REFRESH_MS = 24 * 60 * 60 * 1000;
const OFFICES_RETRY_MS = 60 * 60 * 1000;

type OfficeRow = typeof courierOffices.$inferSelect;

function toOffice(row: OfficeRow): CourierOffice {
  return {
    courier: row.courier as Courier,
    id: row.id,
    kind: row.kind as CourierOffice['kind'],
    name: { bg: row.nameBg, en: row.nameEn },
    city: { bg: row.cityBg, en: row.cityEn },
    postCode: row.postCode,
    address: { bg: row.addressBg, en: row.addressEn },
    hours: row.hours,
    acceptsCashOnDelivery: row.acceptsCashOnDelivery,
  };
}

function toRow(courier: Courier, office: ListedOffice): OfficeRow {
  const { name, city, address } = office;
  return {
    courier,
    id: office.id,
    kind: office.kind,
    nameBg: name.bg,
    nameEn: name.en,
    cityBg: city.bg,
    cityEn: city.en,
    postCode: office.postCode,
    addressBg: address.bg,
    addressEn: address.en,
    hours: office.hours,
    acceptsCashOnDelivery: office.acceptsCashOnDelivery,
    searchKey: officeSearchKey([name.bg, name.en, city.bg, city.en, address.bg, address.en, office.postCode].join(' ')),
    cityKey: officeSearchKey(`${city.bg} ${city.en}`),
  };
}

/** Rows written in one statement: well under PostgreSQL's 65,535 parameters at 14 columns. */
const INSERT_BATCH = 1_000;

export type RefreshOutcome = { refreshed: true; count: number } | { refreshed: false; error: string };

/**
 * Reads the courier's offices and replaces the stored list with them in one transaction, so that a
 * search sees the old list or the new one, never a mix. When the courier cannot be reached or
 * answers with nothing usable, the last good list stays and the error is recorded.
 */
export async function refreshOffices(db: Database, api: CourierApi): Promise<RefreshOutcome> {
  let listed: ListedOffice[];
  try {
    listed = await api.listOffices();
    if (listed.length === 0) throw new Error(`${api.name} listed no offices`);
  } catch (error) {
    const message = (error as Error).message.slice(0, 500);
    await db
      .insert(courierOfficeLists)
      .values({ courier: api.name, triedAt: sql`now()`, lastError: message })
      .onConflictDoUpdate({ target: courierOfficeLists.courier, set: { triedAt: sql`now()`, lastError: message } });
    return { refreshed: false, error: message };
  }
  // A courier lists an office once; should it list one twice, the last wins rather than the refresh failing.
  const rows = [...new Map(listed.map((office) => [office.id, toRow(api.name, office)])).values()];
  await inTransaction(db, async (tx) => {
    await tx.delete(courierOffices).where(eq(courierOffices.courier, api.name));
    for (let start = 0; start < rows.length; start += INSERT_BATCH) await tx.insert(courierOffices).values(rows.slice(start, start + INSERT_BATCH));
    const done = { refreshedAt: sql`now()`, triedAt: sql`now()`, officeCount: rows.length, lastError: null };
    await tx.insert(courierOfficeLists).values({ courier: api.name, ...done }).onConflictDoUpdate({ target: courierOfficeLists.courier, set: done });
  });
  return { refreshed: true, count: rows.length };
}

/**
 * Claims the courier's refresh for this process when it is due: a day after the last good one, or an
 * hour after a failed try. Of several processes asking at once, one gets it (the row's update).
 */
export async function claimOfficesRefresh(db: Database, courier: Courier): Promise<boolean> {
  const rows = await db
    .insert(courierOfficeLists)
    .values({ courier, triedAt: sql`now()` })
    .onConflictDoUpdate({
      target: courierOfficeLists.courier,
      set: { triedAt: sql`now()` },
      setWhere: sql`(${courierOfficeLists.refreshedAt} is null or ${courierOfficeLists.refreshedAt} < now() - ${`${OFFICES_REFRESH_MS} milliseconds`}::interval)
        and ${courierOfficeLists.triedAt} < now() - ${`${OFFICES_RETRY_MS} milliseconds`}::interval`,
    })
    .returning({ courier: courierOfficeLists.courier });
  return rows.length > 0;
}

export interface OfficeSearch {
  courier: Courier;
  kind: Extract<DeliveryKind, 'office' | 'locker'>;
  /** What the buyer typed: a city, an office's name or part of its address, in either script. */
  query: string;
  /** Only offices that take parcels paid on delivery. */
  cashOnDelivery: boolean;
}

/**
 * The offices whose names, city or address hold every word of the search, in the search key's form
 * (so "Plovdiv" and "пловдив" find Пловдив, "Sofiya" and "Sofia" find София). Offices in a city
 * that begins with the first word come first, then by city and name. The search is bounded: at most
 * six words of the first OFFICE_SEARCH_MAX_LENGTH characters, each a plain LIKE (the key has no
 * pattern characters), and OFFICE_SEARCH_LIMIT answers.
 */
export async function searchOffices(db: Executor, search: OfficeSearch): Promise<CourierOffice[]> {
  const words = officeSearchKey(search.query.slice(0, OFFICE_SEARCH_MAX_LENGTH)).split(' ').filter(Boolean).slice(0, 6);
  const conditions: SQL[] = [eq(courierOffices.courier, search.courier), eq(courierOffices.kind, search.kind)];
  if (search.cashOnDelivery) conditions.push(eq(courierOffices.acceptsCashOnDelivery, true));
  for (const word of words) conditions.push(sql`${courierOffices.searchKey} like ${`%${word}%`}`);
  const cityFirst = words[0] ? sql`(${courierOffices.cityKey} like ${`${words[0]}%`}) desc` : sql`true`;
  const rows = await db
    .select()
    .from(courierOffices)
    .where(and(...conditions))
    .orderBy(cityFirst, asc(courierOffices.cityBg), asc(courierOffices.nameBg))
    .limit(OFFICE_SEARCH_LIMIT);
  return rows.map(toOffice);
}

/**
 * The stored office or locker a delivery method goes to, as it is now (to be written on an order, or
 * quoted to); an HttpError when its courier no longer lists it, or it is of another kind than the method.
 */
export async function officeForMethod(db: Executor, method: DeliveryMethod, id: string): Promise<CourierOffice | HttpError> {
  const [row] = await db.select().from(courierOffices).where(and(eq(courierOffices.courier, courierOf(method)!), eq(courierOffices.id, id)));
  if (!row || row.kind !== deliveryKindOf(method)) {
    return new HttpError(409, 'office_unavailable', `The courier no longer lists ${id}; choose another office or locker.`, { field: 'officeId', messageKey: 'checkout.errors.officeUnavailable' });
  }
  return toOffice(row);
}
