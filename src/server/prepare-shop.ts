import type { FastifyBaseLogger } from 'fastify';
import { addAdmin } from '#server/auth/roles.js';
import { checkCatalogueCurrency } from '#server/catalog/currency.js';
import { refreshSearchTexts } from '#server/catalog/product-writes.js';
import { seedDemoCatalogue } from '#server/catalog/seed-demo-catalogue.js';
import type { Config } from './config.js';
import type { DatabaseHandle } from '#server/db/client.js';
import type { ProductImages } from '#server/images/product-images.js';

/**
 * What a start does to the database before the shop serves: the admins of ADMIN_EMAILS, the search
 * texts, the check that the catalogue is in the shop's currency, and a demo shop's demo catalogue; and
 * a live shop's warnings about settings that contradict each other.
 */
export async function prepareShop(config: Config, database: DatabaseHandle, images: ProductImages, log: FastifyBaseLogger): Promise<void> {
  let added = 0;
  for (const email of config.adminEmails) if (await addAdmin(database.db, email)) added++;
  if (added) log.info(`${added} admin(s) added from ADMIN_EMAILS`);
  await refreshSearchTexts(database.db);
  await checkCatalogueCurrency(database.db, config.pricing.currency);
  if (config.seedDemo) {
    const seeded = await seedDemoCatalogue(database.db, images, config.pricing.currency);
    if (seeded) log.info(`Added ${seeded} demo products to the empty catalogue`);
  }
  if (config.shopMode === 'live' && config.pricing.taxRateBasisPoints > 0 && !config.seller.vatNumber) {
    log.warn(
      `SHOP_MODE=live: prices charge VAT at ${config.pricing.taxRateBasisPoints / 100}% (TAX_RATE) while SHOP_VAT_NUMBER is empty, so invoices say the seller is not ` +
        'registered for VAT; set SHOP_VAT_NUMBER, or TAX_RATE=0 for a seller who is not registered',
    );
  }
  if (config.droppedPaymentMethods.length > 0) {
    log.warn(
      `SHOP_MODE=live: not offering ${config.droppedPaymentMethods.join(', ')} from PAYMENT_METHODS, which the simulated provider settles without taking money ` +
        '(KEEP_SIMULATED_PAYMENTS=true offers them anyway)',
    );
  }
}
