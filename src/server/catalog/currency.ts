import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { bgnToEurMinor, type Currency } from '#shared/money.js';
import { convertCartPricesToEuro } from '#server/cart/currency.js';
import type { Database, DatabaseHandle, Executor } from '#server/db/client.js';
import { products } from '#server/db/schema.js';
import { readShopState, shopStateColumn, writeShopState } from '#server/db/shop-state.js';
import { HttpError } from '#server/http/errors.js';
import { convertDiscountCodesToEuro } from '#server/promotions/discount-codes.js';
import { convertGiftCardsToEuro } from '#server/promotions/gift-cards.js';
import { CHANGE_CHANNEL } from './catalogue-cache.js';
import { catalogueChanged } from './catalogue-state.js';
import { repriced } from './product-writes.js';

/** The shop_state key that records the currency of the catalogue's prices. */
const CATALOGUE_CURRENCY = 'catalogue_currency';
/** An advisory lock key, arbitrary but fixed, held while the catalogue's currency is read or changed. */
const CURRENCY_LOCK = 7_260_003;

export class CurrencyMismatchError extends Error {}

async function recordedCurrency(db: Executor): Promise<Currency | undefined> {
  return (await readShopState(db, CATALOGUE_CURRENCY)) as Currency | undefined;
}

async function recordCurrency(db: Executor, currency: Currency): Promise<void> {
  await writeShopState(db, CATALOGUE_CURRENCY, currency);
}

/**
 * At start: the catalogue's prices must be in the currency the shop charges in, or every price
 * would be read in the wrong one. A new shop records its currency; a shop whose products predate
 * the record has BGN prices, as every shop had before SHOP_CURRENCY existed. A mismatch stops the
 * server with what to do.
 */
export async function checkCatalogueCurrency(db: Database, currency: Currency): Promise<void> {
  const recorded = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${CURRENCY_LOCK})`);
    const existing = await recordedCurrency(tx);
    if (existing) return existing;
    const [product] = await tx.select({ id: products.id }).from(products).limit(1);
    const found: Currency = product ? 'BGN' : currency;
    await recordCurrency(tx, found);
    return found;
  });
  if (recorded === currency) return;
  throw new CurrencyMismatchError(
    recorded === 'BGN'
      ? `The catalogue's prices are in BGN, but SHOP_CURRENCY is ${currency}. Stop the shop, convert them with "npm run currency:euro", then start it again.`
      : `The catalogue's prices are in ${recorded}, but SHOP_CURRENCY is ${currency}. Set SHOP_CURRENCY=${recorded}.`,
  );
}

/** The refusal of a server whose SHOP_CURRENCY is no longer the catalogue's, until it is restarted with the right one. */
function currencyChanged(recorded: Currency, currency: Currency): HttpError {
  return new HttpError(
    503,
    'currency_changed',
    `The catalogue's prices are now in ${recorded}, but this server charges in ${currency}: restart it with SHOP_CURRENCY=${recorded}.`,
  );
}

/**
 * In an order's transaction, before its prices are read, the catalogue's currency is held: the shared
 * lock makes a conversion (which takes it exclusively) wait for the orders under way, and the orders
 * that come meanwhile wait for it. An expression, for the statement that takes the order's other locks.
 */
export const catalogueCurrencyHold = sql`pg_advisory_xact_lock_shared(${sql.raw(String(CURRENCY_LOCK))})`;

/**
 * The catalogue's recorded currency, as a column of a query that reads prices. Read in a statement
 * after catalogueCurrencyHold's, it sees a conversion the hold waited for (each statement reads what
 * had committed when it began), so no order is ever priced in one currency and recorded in another.
 */
export const catalogueCurrencyColumn = shopStateColumn(CATALOGUE_CURRENCY);

/** Refuses an order whose prices were read in another currency than the one the server charges in. */
export function checkPricesCurrency(recorded: string | null | undefined, currency: Currency): void {
  if (recorded && recorded !== currency) throw currencyChanged(recorded as Currency, currency);
}

/**
 * Notices at once, through the catalogue's change notices, that `npm run currency:euro` converted
 * the prices while this server runs with the former SHOP_CURRENCY (on PostgreSQL, other processes
 * share the database). From then on the server refuses to show or take prices (`refuse`) and says so
 * in its log, until it is restarted with the catalogue's currency.
 */
class CatalogueCurrencyWatch {
  private mismatch: Currency | undefined;
  private reading: Promise<void> | undefined;
  private readAgain = false;

  constructor(
    private readonly db: Database,
    private readonly currency: Currency,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Listens for the notices; returns the function that stops. */
  async start(database: Pick<DatabaseHandle, 'listen'>): Promise<() => Promise<void>> {
    const check = () => void this.check();
    // After a lost connection the notices sent meanwhile are gone: the currency is read again.
    return database.listen(CHANGE_CHANNEL, check, check);
  }

  /** Whether the catalogue's currency is known not to be the server's. */
  get mismatched(): boolean {
    return this.mismatch !== undefined;
  }

  /** Throws the refusal once the catalogue's currency is not the server's. */
  refuse(): void {
    if (this.mismatch) throw currencyChanged(this.mismatch, this.currency);
  }

  /** Reads the recorded currency; notices that come while it reads lead to one more read after it. */
  check(): Promise<void> {
    if (this.reading) {
      this.readAgain = true;
      return this.reading;
    }
    this.reading = (async () => {
      do {
        this.readAgain = false;
        const recorded = await recordedCurrency(this.db).catch(() => undefined);
        if (recorded && recorded !== this.currency && !this.mismatch) {
          this.mismatch = recorded;
          this.log.error(`The catalogue's prices were converted to ${recorded}, but this server runs with SHOP_CURRENCY=${this.currency}: it refuses orders and prices until it is restarted with SHOP_CURRENCY=${recorded}.`);
        }
      } while (this.readAgain);
    })().finally(() => (this.reading = undefined));
    return this.reading;
  }
}

/** The requests that show or take the catalogue's prices: the catalogue, the cart, and placing an order. */
const PRICED = /^\/api\/(products|cart)(\/|\?|$)/;

/**
 * Watches the catalogue's currency for as long as the app runs (CatalogueCurrencyWatch), and once it
 * is not the server's, refuses every request that shows or takes prices with 503 currency_changed,
 * and answers /ready with 503 too, so that a load balancer sends the shop's visitors elsewhere.
 * Answers whether the currencies agree, for the short path (http/short-path.ts).
 */
export async function registerCurrencyWatch(app: FastifyInstance, database: DatabaseHandle, currency: Currency): Promise<() => boolean> {
  const watch = new CatalogueCurrencyWatch(database.db, currency, app.log);
  app.addHook('onClose', await watch.start(database));
  app.addHook('onRequest', async (request, reply) => {
    // Every request passes here: while the currencies agree (always, but for a rolling change) nothing is looked at.
    if (!watch.mismatched) return undefined;
    const pathname = request.url.split('?')[0];
    if (pathname === '/ready') return reply.status(503).header('cache-control', 'no-store').send({ status: 'unavailable', reason: 'currency' });
    if (PRICED.test(request.url) || (request.method === 'POST' && pathname === '/api/orders')) watch.refuse();
    return undefined;
  });
  return () => !watch.mismatched;
}

/**
 * The other sessions on this PostgreSQL database (shop servers, most likely; a psql session counts
 * too), described by application name and client address.
 */
export async function otherConnections(db: Database): Promise<{ count: number; clients: string }> {
  const result = (await db.execute(sql`
    select count(*)::int as count,
           coalesce(string_agg(distinct coalesce(nullif(application_name, ''), 'unnamed') || ' from ' || coalesce(host(client_addr), 'a local socket'), ', '), '') as clients
      from pg_stat_activity
     where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`)) as unknown as { rows: Array<{ count: number; clients: string }> };
  return result.rows[0]!;
}

export interface PriceChange {
  name: string;
  beforeMinor: number;
  afterMinor: number;
}

/**
 * Converts a BGN catalogue to euro at the fixed rate, rounding half-up to the cent: every product's
 * price, its options' and answers' price differences, and the price each cart line remembers (so
 * that no cart shows a price change that is not one), and the discount codes' and gift cards'
 * amounts. Orders keep the currency they were placed in. Nothing happens when the prices are already
 * in euro, so running it twice changes nothing; null says so.
 */
export async function convertCatalogueToEuro(db: Database): Promise<PriceChange[] | null> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${CURRENCY_LOCK})`);
    if ((await recordedCurrency(tx)) === 'EUR') return null;
    const rows = await tx
      .select({ id: products.id, nameEn: products.nameEn, nameBg: products.nameBg, priceMinor: products.priceMinor, optionGroups: products.optionGroups, questions: products.questions })
      .from(products)
      .orderBy(products.nameEn)
      .for('update');
    const changes: PriceChange[] = [];
    for (const row of rows) {
      const afterMinor = bgnToEurMinor(row.priceMinor);
      // The options' and answers' price differences are amounts in the same currency.
      const { optionGroups, questions } = repriced(row, bgnToEurMinor);
      await tx.update(products).set({ priceMinor: afterMinor, optionGroups, questions, updatedAt: sql`now()` }).where(eq(products.id, row.id));
      changes.push({ name: row.nameEn || row.nameBg, beforeMinor: row.priceMinor, afterMinor });
    }
    await convertCartPricesToEuro(tx);
    await convertDiscountCodesToEuro(tx);
    await convertGiftCardsToEuro(tx);
    await recordCurrency(tx, 'EUR');
    if (rows.length > 0) await catalogueChanged(tx);
    return changes;
  });
}
