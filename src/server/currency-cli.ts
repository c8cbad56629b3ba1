import { bgnToEurMinor, formatMoney } from '../shared/money.js';
import { convertCatalogueToEuro } from './catalog/currency.js';
import { ConfigError, loadConfig } from './config.js';
import { DataDirInUseError, openDatabase } from './db/client.js';

const decimal = (minor: number) => (minor / 100).toFixed(2);

/**
 * Converts a BGN shop's catalogue to euro at the fixed rate 1.95583, with a report of every price
 * it changed. With the embedded database it refuses while a server holds it; on PostgreSQL, stop
 * every server first. A second run finds the prices in euro and changes nothing.
 */
async function run(): Promise<number> {
  const config = loadConfig();
  const database = await openDatabase(config.databaseUrl ? { databaseUrl: config.databaseUrl } : { dataDir: config.dataDir });
  try {
    const changes = await convertCatalogueToEuro(database.db);
    if (!changes) {
      console.warn('The catalogue is already priced in euro: nothing changed.');
      return 0;
    }
    for (const change of changes) {
      console.warn(`${change.name}: ${formatMoney(change.beforeMinor, 'BGN', 'en')} → ${formatMoney(change.afterMinor, 'EUR', 'en')}`);
    }
    console.warn(`\n${changes.length} product price(s) converted at 1 EUR = 1.95583 BGN, rounded half-up to the cent; carts follow.`);
    // The fees are settings in the shop's currency: these keep them what they were in leva.
    const { shippingMinor, cashOnDeliveryFeeMinor } = config.pricing;
    console.warn(`Now set SHOP_CURRENCY=EUR, and to keep the fees: SHIPPING_FEE=${decimal(bgnToEurMinor(shippingMinor))} (was ${decimal(shippingMinor)} BGN)`);
    if (cashOnDeliveryFeeMinor > 0) console.warn(`COD_FEE=${decimal(bgnToEurMinor(cashOnDeliveryFeeMinor))} (was ${decimal(cashOnDeliveryFeeMinor)} BGN)`);
    console.warn('Past orders keep their BGN amounts.');
    return 0;
  } finally {
    await database.close();
  }
}

try {
  process.exitCode = await run();
} catch (error) {
  console.error(error instanceof ConfigError || error instanceof DataDirInUseError ? error.message : error);
  process.exitCode = 1;
}
