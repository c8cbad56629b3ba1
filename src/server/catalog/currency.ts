import { eq, sql } from 'drizzle-orm';
import { bgnToEurMinor, type Currency } from '../../shared/money.js';
import { convertCartPricesToEuro } from '../cart/currency.js';
import type { Database, Executor } from '../db/client.js';
import { products, shopState } from '../db/schema.js';
import { catalogueChanged } from './service.js';

/** The shop_state key that records the currency of the catalogue's prices. */
const CATALOGUE_CURRENCY = 'catalogue_currency';
/** An advisory lock key, arbitrary but fixed, held while the catalogue's currency is read or changed. */
const CURRENCY_LOCK = 7_260_003;

export class CurrencyMismatchError extends Error {}

async function recordedCurrency(db: Executor): Promise<Currency | undefined> {
  const [row] = await db.select({ value: shopState.value }).from(shopState).where(eq(shopState.key, CATALOGUE_CURRENCY));
  return row?.value as Currency | undefined;
}

async function recordCurrency(db: Executor, currency: Currency): Promise<void> {
  await db
    .insert(shopState)
    .values({ key: CATALOGUE_CURRENCY, value: currency })
    .onConflictDoUpdate({ target: shopState.key, set: { value: currency, updatedAt: sql`now()` } });
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

export interface PriceChange {
  name: string;
  beforeMinor: number;
  afterMinor: number;
}

/**
 * Converts a BGN catalogue to euro at the fixed rate, rounding half-up to the cent: every product's
 * price and the price each cart line remembers (so that no cart shows a price change that is not
 * one). Orders keep the currency they were placed in. Nothing happens when the prices are already
 * in euro, so running it twice changes nothing; null says so.
 */
export async function convertCatalogueToEuro(db: Database): Promise<PriceChange[] | null> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${CURRENCY_LOCK})`);
    if ((await recordedCurrency(tx)) === 'EUR') return null;
    const rows = await tx.select({ id: products.id, nameEn: products.nameEn, nameBg: products.nameBg, priceMinor: products.priceMinor }).from(products).orderBy(products.nameEn).for('update');
    const changes: PriceChange[] = [];
    for (const row of rows) {
      const afterMinor = bgnToEurMinor(row.priceMinor);
      await tx.update(products).set({ priceMinor: afterMinor, updatedAt: sql`now()` }).where(eq(products.id, row.id));
      changes.push({ name: row.nameEn || row.nameBg, beforeMinor: row.priceMinor, afterMinor });
    }
    await convertCartPricesToEuro(tx);
    await recordCurrency(tx, 'EUR');
    if (rows.length > 0) await catalogueChanged(tx);
    return changes;
  });
}
