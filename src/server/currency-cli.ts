import { bgnToEurMinor, formatMoney } from '#shared/money.js';
import { convertCatalogueToEuro, otherConnections } from '#server/catalog/currency.js';
import { ConfigError, loadConfig } from './config.js';
import { DataDirInUseError, openDatabase } from '#server/db/client.js';

const decimal = (minor: number) => (minor / 100).toFixed(2);

const usage = `Usage:
  npm run currency:euro               convert the catalogue's BGN prices to euro
  npm run currency:euro -- --force    on PostgreSQL, even while other sessions are connected to the database`;

/**
 * Converts a BGN shop's catalogue to euro at the fixed rate 1.95583, with a report of every price
 * it changed. With the embedded database it refuses while a server holds it; on PostgreSQL while any
 * other session is connected to the database (a server, most likely), unless told --force. A server
 * still running with SHOP_CURRENCY=BGN refuses orders once the prices are converted (catalog/currency.ts).
 * A second run finds the prices in euro and changes nothing.
 */
async function run(args: string[]): Promise<number> {
  const force = args.includes('--force');
  if (args.some((arg) => arg !== '--force')) {
    console.error(usage);
    return 2;
  }
  const config = loadConfig();
  const database = await openDatabase(config.databaseUrl ? { databaseUrl: config.databaseUrl } : { dataDir: config.dataDir });
  try {
    if (database.kind === 'postgres' && !force) {
      const others = await otherConnections(database.db);
      if (others.count > 0) {
        console.error(
          `${others.count} other session(s) are connected to this database (${others.clients}), most likely shop servers running with SHOP_CURRENCY=BGN. ` +
            'Stop every server, run this again, then start them with SHOP_CURRENCY=EUR. To convert anyway (when those sessions are not shop servers, such as psql or a monitoring tool), ' +
            'run "npm run currency:euro -- --force": a server still running with SHOP_CURRENCY=BGN then refuses the catalogue, carts and orders until it is restarted with SHOP_CURRENCY=EUR.',
        );
        return 1;
      }
    }
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
  process.exitCode = await run(process.argv.slice(2));
} catch (error) {
  console.error(error instanceof ConfigError || error instanceof DataDirInUseError ? error.message : error);
  process.exitCode = 1;
}
