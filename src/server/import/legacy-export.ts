import { COUNTRIES, DEFAULT_COUNTRY, type Country } from '#shared/addresses.js';
import { signInEmailOf } from '#shared/auth-schemas.js';
import { PRODUCT_DESCRIPTION_MAX_LENGTH, PRODUCT_NAME_MAX_LENGTH } from '#shared/catalog-schemas.js';
import { PRODUCT_CATEGORIES, type ProductCategory } from '#shared/catalog.js';
import { MAX_PRICE_MINOR } from '#shared/money.js';
import { isOrderStatus, normalizeOrderStatus, ORDER_STATUSES, type OrderStatus } from '#shared/order-status.js';
import type { PaymentMethod } from '#shared/orders.js';
import { isStorableText, storableText } from '#shared/text.js';
import { plainText } from './plain-text.js';

/**
 * The original app's data as its backup (firestore-export-import) writes it: one object per
 * collection, each an object of documents by id. This module reads it into records the shop can
 * store, applying the specification's rules for the data's old shapes, and notes every problem it
 * meets (the record, the field, what was done). It writes nothing.
 */

export const LEGACY_COLLECTIONS = ['art-users', 'products', 'orders', 'admins'] as const;
export type LegacyCollection = (typeof LEGACY_COLLECTIONS)[number];

export interface ImportProblem {
  collection: string;
  /** The document's id in the export ('' for the file itself). */
  id: string;
  field: string;
  /** What was wrong and what the import did about it. */
  message: string;
}

export interface LegacyProduct {
  originalId: string;
  name: string;
  description: string;
  priceMinor: number;
  category: ProductCategory | '';
  /** Where the photo comes from: an http(s) address, or only a file name to look for in --images. */
  imageUrl: string | null;
  /** Pieces in stock, when the export says; made to order otherwise. */
  stock: number | null;
  createdAt: string | null;
}

interface LegacyAddress {
  id: string;
  fullName: string;
  streetAddress: string;
  apartment: string | null;
  city: string;
  state: string;
  postalCode: string;
  country: Country;
  phone: string;
  isDefault: boolean;
  createdAt: string | null;
}

interface LegacyCartLine {
  productId: string;
  name: string;
  priceMinor: number;
  addedAt: string | null;
}

export interface LegacyCustomer {
  email: string;
  createdAt: string | null;
  lastLoginAt: string | null;
  addresses: LegacyAddress[];
  cart: LegacyCartLine[];
}

interface LegacyOrderLine {
  /** The product's id in the export, when the line names one. */
  productId: string | null;
  name: string;
  priceMinor: number;
  quantity: number;
  addedAt: string | null;
}

export interface LegacyOrder {
  id: string;
  customerEmail: string;
  status: OrderStatus;
  /** When the order entered each status the export dates, oldest first. */
  statusTimes: Array<{ status: OrderStatus; at: string }>;
  orderedAt: string;
  updatedAt: string;
  lines: LegacyOrderLine[];
  subtotalMinor: number;
  taxMinor: number;
  shippingMinor: number;
  totalMinor: number;
  shippingAddress: Omit<LegacyAddress, 'id' | 'isDefault' | 'createdAt'>;
  paymentMethod: PaymentMethod;
  paymentReference: string | null;
  payment: { paymentId: string; method: PaymentMethod; amountMinor: number; processedAt: string; cardLast4: string | null } | null;
}

export interface LegacyExport {
  products: LegacyProduct[];
  customers: LegacyCustomer[];
  orders: LegacyOrder[];
  admins: string[];
  /** How many documents of each collection could not be read into a record, each with its problem. */
  unreadable: Record<LegacyCollection, number>;
  problems: ImportProblem[];
}

/** Why the file as a whole cannot be read: nothing is imported from it. */
export class LegacyExportError extends Error {}

type Doc = Record<string, unknown>;
const isObject = (value: unknown): value is Doc => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Reads what the problems of one document are noted against. */
class DocumentReader {
  constructor(
    private readonly problems: ImportProblem[],
    readonly collection: string,
    readonly id: string,
    private readonly doc: Doc,
  ) {}

  problem(field: string, message: string): void {
    this.problems.push({ collection: this.collection, id: this.id, field, message });
  }

  get(path: string): unknown {
    return path.split('.').reduce<unknown>((value, key) => (isObject(value) ? value[key] : Array.isArray(value) && /^\d+$/.test(key) ? value[Number(key)] : undefined), this.doc);
  }

  /** A text field: trimmed, within `max` characters (cut, and noted), storable; '' when absent. */
  text(path: string, max = 500, value: unknown = this.get(path)): string {
    if (value === undefined || value === null) return '';
    if (typeof value !== 'string' && typeof value !== 'number') {
      this.problem(path, `is not text (${typeof value}); left empty`);
      return '';
    }
    let text = String(value).trim();
    if (!isStorableText(text)) {
      this.problem(path, 'holds characters that cannot be stored; they were removed');
      text = storableText(text);
    }
    if (text.length > max) {
      this.problem(path, `is longer than ${max} characters; cut to ${max}`);
      text = text.slice(0, max);
    }
    return text;
  }

  /** A time in any of the export's shapes, as an ISO string; null when absent or unreadable (noted). */
  time(path: string, value: unknown = this.get(path)): string | null {
    if (value === undefined || value === null || value === '') return null;
    const at = timeOf(value);
    if (at === null) this.problem(path, `is not a time (${JSON.stringify(value).slice(0, 60)}); left out`);
    return at;
  }

  /** An amount in leva or euro as the app kept it (a number, or a string of one), in minor units. */
  money(path: string, value: unknown = this.get(path)): number | undefined {
    if (value === undefined || value === null || value === '') return undefined;
    const minor = moneyOf(value);
    if (minor === undefined) {
      this.problem(path, `is not an amount (${JSON.stringify(value).slice(0, 60)}); read as 0`);
      return 0;
    }
    return minor;
  }
}

/** Seconds and nanoseconds (Firestore's Timestamp), an ISO string, or epoch milliseconds. */
export function timeOf(value: unknown): string | null {
  if (isObject(value)) {
    const seconds = value._seconds ?? value.seconds;
    const nanoseconds = value._nanoseconds ?? value.nanoseconds ?? 0;
    if (typeof seconds === 'number' && typeof nanoseconds === 'number') return validTime(seconds * 1000 + Math.floor(nanoseconds / 1e6));
    return null;
  }
  if (typeof value === 'number') return validTime(value);
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value)) return validTime(Date.parse(value));
  if (typeof value === 'string' && /^\d{10,13}$/.test(value)) return validTime(Number(value));
  return null;
}

const validTime = (ms: number) => (Number.isFinite(ms) && ms > Date.UTC(2000, 0, 1) && ms < Date.UTC(2100, 0, 1) ? new Date(ms).toISOString() : null);

/** 24.9, "24.90", "24,90 лв." → 2490; the spec's parse of a string price. */
export function moneyOf(value: unknown): number | undefined {
  let amount: number;
  if (typeof value === 'number') amount = value;
  else if (typeof value === 'string') {
    // The number without a currency around it ("24,90 лв.", "BGN 5"), a decimal comma read as a point.
    const cleaned = value
      .replace(/[^\d,.-]/g, '')
      .replace(/^[.,]+|[.,]+$/g, '')
      .replace(',', '.');
    if (!/^-?\d+(\.\d+)?$/.test(cleaned)) return undefined;
    amount = Number(cleaned);
  } else return undefined;
  if (!Number.isFinite(amount) || amount < 0) return undefined;
  return Math.min(Math.round(amount * 100), MAX_PRICE_MINOR);
}

/**
 * The shop's category a name spells, as other shops and the original app write it ("nailArt",
 * "Nail Art", "nail_art" are nail-art): '' for no name, null for a name that is no category of the shop.
 */
export function categoryNamed(name: string): ProductCategory | '' | null {
  const spelt = name.trim().replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase().replace(/[\s_]+/g, '-');
  if (spelt === '') return '';
  return (PRODUCT_CATEGORIES as readonly string[]).includes(spelt) ? (spelt as ProductCategory) : null;
}

/** nails, nail-art (also spelt nailArt, as some of the app's texts do), accessories, kits or none. */
function categoryOf(reader: DocumentReader): ProductCategory | '' {
  const raw = reader.text('category', 50);
  const category = categoryNamed(raw);
  if (category !== null) return category;
  reader.problem('category', `"${raw}" is not a category of the shop; left without one`);
  return '';
}

const countryNames = new Map<string, Country>(
  COUNTRIES.flatMap((code) => [code, ...['en', 'bg'].map((language) => new Intl.DisplayNames([language], { type: 'region' }).of(code) ?? code)].map((name) => [name.toLowerCase(), code] as const)),
);

function countryOf(reader: DocumentReader, path: string): Country {
  const raw = reader.text(path, 100);
  if (raw === '') return DEFAULT_COUNTRY;
  const code = countryNames.get(raw.toLowerCase());
  if (code) return code;
  reader.problem(path, `"${raw}" is not a country the shop ships to; read as Bulgaria`);
  return DEFAULT_COUNTRY;
}

function addressOf(reader: DocumentReader, path: string) {
  const field = (name: string, max = 200) => reader.text(`${path}.${name}`, max);
  return {
    fullName: field('fullName'),
    streetAddress: field('streetAddress'),
    apartment: field('apartment') || null,
    city: field('city', 100),
    state: field('state', 100),
    postalCode: field('postalCode', 20),
    country: countryOf(reader, `${path}.country`),
    phone: field('phone', 50),
  };
}

const PAYMENT_METHODS_OF_THE_APP: readonly PaymentMethod[] = ['pay_by_link', 'card'];

function paymentMethodOf(reader: DocumentReader, path: string): PaymentMethod {
  const raw = reader.text(path, 50);
  if ((PAYMENT_METHODS_OF_THE_APP as readonly string[]).includes(raw) || raw === 'cash_on_delivery') return raw as PaymentMethod;
  if (raw !== '') reader.problem(path, `"${raw}" is not a payment method; read as card`);
  return 'card';
}

function readProduct(reader: DocumentReader): LegacyProduct | null {
  const name = plainText(reader.text('name', 5000)).slice(0, PRODUCT_NAME_MAX_LENGTH);
  if (!name) {
    reader.problem('name', 'is missing; the product was not imported');
    return null;
  }
  let priceMinor = reader.money('price');
  if (priceMinor === undefined) {
    reader.problem('price', 'is missing; read as 0');
    priceMinor = 0;
  }
  const imageUrl = reader.text('imageUrl', 2000) || null;
  const stockValue = reader.get('stock');
  let stock: number | null = null;
  if (typeof stockValue === 'number' && Number.isInteger(stockValue) && stockValue >= 0 && stockValue <= 100_000) stock = stockValue;
  else if (stockValue !== undefined && stockValue !== null) reader.problem('stock', `${JSON.stringify(stockValue)} is not a count; made to order`);
  return {
    originalId: reader.id,
    name,
    description: plainText(reader.text('description', 20_000)).slice(0, PRODUCT_DESCRIPTION_MAX_LENGTH),
    priceMinor,
    category: categoryOf(reader),
    imageUrl,
    stock,
    createdAt: reader.time('createdAt'),
  };
}

function readCustomer(reader: DocumentReader): LegacyCustomer | null {
  const email = signInEmailOf(reader.text('email', 300) || reader.id);
  if (!email) {
    reader.problem('email', 'is not an e-mail address; the customer was not imported');
    return null;
  }
  const list = (field: string) => {
    const value = reader.get(field);
    if (value === undefined || value === null) return [];
    if (Array.isArray(value)) return value;
    reader.problem(field, 'is not a list; left empty');
    return [];
  };
  const addresses: LegacyAddress[] = [];
  list('addresses').forEach((entry, index) => {
    const path = `addresses.${index}`;
    if (!isObject(entry)) return reader.problem(path, 'is not an address; left out');
    const address = addressOf(reader, path);
    if (!address.fullName || !address.streetAddress || !address.city) return reader.problem(path, 'lacks a name, street or city; left out');
    addresses.push({
      id: reader.text(`${path}.id`, 80) || `address_${reader.id}_${index}`,
      ...address,
      isDefault: reader.get(`${path}.isDefault`) === true,
      createdAt: reader.time(`${path}.createdAt`),
    });
  });
  // Exactly one default, as the shop keeps: the first marked one, else the first.
  const defaultIndex = Math.max(0, addresses.findIndex((address) => address.isDefault));
  addresses.forEach((address, index) => (address.isDefault = index === defaultIndex));
  const cart: LegacyCartLine[] = [];
  list('cart').forEach((entry, index) => {
    const path = `cart.${index}`;
    const productId = reader.text(`${path}.productId`, 200) || reader.text(`${path}.id`, 200);
    if (!isObject(entry) || !productId) return reader.problem(path, 'names no product; left out');
    cart.push({ productId, name: reader.text(`${path}.name`, 200), priceMinor: reader.money(`${path}.price`) ?? 0, addedAt: reader.time(`${path}.addedAt`) });
  });
  return { email, createdAt: reader.time('createdAt'), lastLoginAt: reader.time('lastLoginTime'), addresses, cart };
}


function readOrderLines(reader: DocumentReader): LegacyOrderLine[] {
  const items = reader.get('items');
  // A single-item order carries its product's fields itself.
  if (!Array.isArray(items) || items.length === 0) {
    const name = reader.text('name', 200);
    if (!name) return [];
    return [{ productId: reader.text('productId', 200) || null, name, priceMinor: reader.money('price') ?? 0, quantity: 1, addedAt: reader.time('addedAt') }];
  }
  const lines: LegacyOrderLine[] = [];
  items.forEach((item, index) => {
    const path = `items.${index}`;
    if (!isObject(item)) return reader.problem(path, 'is not an item; left out');
    const quantityValue = reader.get(`${path}.quantity`);
    const quantity = typeof quantityValue === 'number' && Number.isInteger(quantityValue) && quantityValue > 0 ? quantityValue : 1;
    lines.push({
      productId: reader.text(`${path}.productId`, 200) || reader.text(`${path}.id`, 200) || null,
      name: reader.text(`${path}.name`, 200) || 'Item',
      priceMinor: reader.money(`${path}.price`) ?? 0,
      quantity,
      addedAt: reader.time(`${path}.addedAt`),
    });
  });
  return lines;
}

function readOrder(reader: DocumentReader): LegacyOrder | null {
  const id = reader.text('orderId', 100) || reader.id;
  const customerEmail = signInEmailOf(reader.text('customerEmail', 300));
  if (!customerEmail) {
    reader.problem('customerEmail', 'is not an e-mail address; the order was not imported');
    return null;
  }
  const lines = readOrderLines(reader);
  if (lines.length === 0) {
    reader.problem('items', 'the order has no items; it was not imported');
    return null;
  }
  const rawStatus = reader.get('status');
  if (rawStatus !== undefined && rawStatus !== null && typeof rawStatus !== 'string') reader.problem('status', 'is not text; read as pending');
  const storedStatus = typeof rawStatus === 'string' ? rawStatus.trim() : undefined;
  if (storedStatus && !isOrderStatus(storedStatus) && normalizeOrderStatus(storedStatus) === 'pending' && storedStatus !== 'ordered') {
    reader.problem('status', `"${storedStatus.slice(0, 40)}" is not a status; read as pending`);
  }
  const status = normalizeOrderStatus(storedStatus);

  const linesTotal = lines.reduce((sum, line) => sum + line.priceMinor * line.quantity, 0);
  let totalMinor = reader.money('total') ?? reader.money('totalAmount') ?? reader.money('pricing.total');
  if (totalMinor === undefined) {
    reader.problem('total', 'none of total, totalAmount and pricing.total is there; the lines were added up');
    totalMinor = linesTotal;
  }
  const subtotalMinor = reader.money('pricing.subtotal') ?? linesTotal;
  const taxMinor = reader.money('pricing.tax') ?? 0;
  const shippingMinor = reader.money('pricing.shipping') ?? Math.max(0, totalMinor - subtotalMinor - taxMinor);

  const createdAt = reader.time('createdAt');
  const orderedAt = reader.time('orderedAt') ?? createdAt;
  const updatedAt = reader.time('updatedAt');
  // A timestamp named after each status the order entered, the legacy names too (shippedAt, completedAt).
  const statusTimes = [...ORDER_STATUSES.map((entry) => [`${entry}At`, entry] as const), ['shippedAt', 'sent'] as const, ['completedAt', 'delivered'] as const].flatMap(([field, entry]) => {
    const at = reader.time(field);
    return at ? [{ status: entry, at }] : [];
  });
  const placedAt = orderedAt ?? statusTimes[0]?.at ?? updatedAt;
  if (!placedAt) {
    reader.problem('orderedAt', 'the order has no date at all; it was not imported');
    return null;
  }
  if (!statusTimes.some((entry) => entry.status === 'pending')) statusTimes.push({ status: 'pending', at: placedAt });
  if (!statusTimes.some((entry) => entry.status === status)) statusTimes.push({ status, at: updatedAt ?? placedAt });
  statusTimes.sort((a, b) => a.at.localeCompare(b.at) || ORDER_STATUSES.indexOf(a.status) - ORDER_STATUSES.indexOf(b.status));

  const paymentMethod = paymentMethodOf(reader, 'paymentMethod');
  let payment: LegacyOrder['payment'] = null;
  if (isObject(reader.get('payment'))) {
    const paymentId = reader.text('payment.paymentId', 100);
    const processedAt = reader.time('payment.processedAt') ?? statusTimes.find((entry) => entry.status === 'paid')?.at ?? null;
    if (!paymentId || !processedAt) reader.problem('payment', 'lacks its id or time; the order was imported without it');
    else {
      const cardLast4 = reader.text('payment.cardLast4', 10);
      payment = {
        paymentId,
        method: paymentMethodOf(reader, 'payment.method'),
        amountMinor: reader.money('payment.amount') ?? totalMinor,
        processedAt,
        cardLast4: /^\d{4}$/.test(cardLast4) ? cardLast4 : null,
      };
    }
  }
  const shippingAddress = addressOf(reader, 'shippingAddress');
  if (!shippingAddress.fullName) reader.problem('shippingAddress', 'has no name; kept as it is');
  return {
    id,
    customerEmail,
    status,
    statusTimes,
    orderedAt: placedAt,
    updatedAt: updatedAt ?? statusTimes.at(-1)!.at,
    lines,
    subtotalMinor,
    taxMinor,
    shippingMinor,
    totalMinor,
    shippingAddress,
    paymentMethod,
    paymentReference: reader.text('paymentReference', 200) || reader.text('paymentReferenceId', 200) || null,
    payment,
  };
}

/** Reads the export's text; a file that is not such an export is refused as a whole. */
export function readLegacyExport(json: string): LegacyExport {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (error) {
    throw new LegacyExportError(`The file is not valid JSON: ${(error as Error).message}`);
  }
  if (!isObject(parsed)) throw new LegacyExportError('The file is not an export of collections: its top level must be an object of collections.');
  const problems: ImportProblem[] = [];
  const unreadable: Record<LegacyCollection, number> = { 'art-users': 0, products: 0, orders: 0, admins: 0 };
  const result: LegacyExport = { products: [], customers: [], orders: [], admins: [], unreadable, problems };
  const known = Object.keys(parsed).filter((name) => (LEGACY_COLLECTIONS as readonly string[]).includes(name));
  if (known.length === 0) throw new LegacyExportError(`The file holds none of the collections ${LEGACY_COLLECTIONS.join(', ')}.`);
  for (const name of Object.keys(parsed)) {
    if (!known.includes(name)) problems.push({ collection: name, id: '', field: '', message: 'is not a collection of the original app; skipped' });
  }
  const documents = (collection: LegacyCollection) => {
    const value = parsed[collection];
    if (value === undefined) return [];
    if (!isObject(value)) {
      problems.push({ collection, id: '', field: '', message: 'is not an object of documents by id; skipped' });
      return [];
    }
    return Object.entries(value).flatMap(([id, doc]) => {
      if (isObject(doc)) return [new DocumentReader(problems, collection, id, doc)];
      problems.push({ collection, id, field: '', message: 'is not a document; skipped' });
      unreadable[collection]++;
      return [];
    });
  };
  for (const reader of documents('products')) {
    const product = readProduct(reader);
    if (product) result.products.push(product);
    else unreadable.products++;
  }
  const customers = new Map<string, LegacyCustomer>();
  for (const reader of documents('art-users')) {
    const customer = readCustomer(reader);
    if (customer && customers.has(customer.email)) {
      reader.problem('email', `${customer.email} is the address of another document too (e-mail addresses are the same in any case); this one was skipped`);
    }
    if (!customer || customers.has(customer.email)) {
      unreadable['art-users']++;
      continue;
    }
    customers.set(customer.email, customer);
  }
  result.customers = [...customers.values()];
  const orderIds = new Set<string>();
  for (const reader of documents('orders')) {
    const order = readOrder(reader);
    if (order && orderIds.has(order.id)) reader.problem('orderId', `${order.id} is the id of another order too; this one was skipped`);
    if (!order || orderIds.has(order.id)) {
      unreadable.orders++;
      continue;
    }
    orderIds.add(order.id);
    result.orders.push(order);
  }
  const admins = new Set<string>();
  for (const reader of documents('admins')) {
    const email = signInEmailOf(reader.text('email', 300)) ?? signInEmailOf(reader.id);
    if (email) admins.add(email);
    else {
      reader.problem('email', 'neither the id nor the email field is an e-mail address; skipped');
      unreadable.admins++;
    }
  }
  result.admins = [...admins];
  return result;
}
