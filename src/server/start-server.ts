import path from 'node:path';
import { buildApp } from './app.js';
import { addAdmin } from './auth/roles.js';
import { checkCatalogueCurrency, CurrencyMismatchError } from './catalog/currency.js';
import { refreshSearchTexts, seedDemoCatalogue } from './catalog/service.js';
import { ConfigError, loadConfig } from './config.js';
import { DataDirInUseError, openDatabase } from './db/client.js';
import { ProductImages } from './images/product-images.js';
import type { PageSource } from './pages.js';

/** Reads the configuration, opens and migrates the database, seeds the demo catalogue and listens. */
export async function startServer(createPages: () => Promise<PageSource>): Promise<void> {
  try {
    const config = loadConfig();
    const database = await openDatabase(config.databaseUrl ? { databaseUrl: config.databaseUrl } : { dataDir: config.dataDir });
    const images = new ProductImages(config.dataDir);
    const app = await buildApp({ config, database, images, pages: await createPages(), logger: true });

    let added = 0;
    for (const email of config.adminEmails) if (await addAdmin(database.db, email)) added++;
    if (added) app.log.info(`${added} admin(s) added from ADMIN_EMAILS`);
    await refreshSearchTexts(database.db);
    await checkCatalogueCurrency(database.db, config.pricing.currency);
    if (config.seedDemo) {
      const seeded = await seedDemoCatalogue(database.db, images, config.pricing.currency);
      if (seeded) app.log.info(`Added ${seeded} demo products to the empty catalogue`);
    }

    let closing = false;
    const shutdown = async (signal: string) => {
      if (closing) return;
      closing = true;
      app.log.info(`${signal} received, closing`);
      await app.close();
      await database.close();
      process.exit(0);
    };
    process.on('SIGINT', () => void shutdown('SIGINT'));
    process.on('SIGTERM', () => void shutdown('SIGTERM'));

    await app.listen({ port: config.port, host: config.host });
    const where = database.kind === 'pglite' ? `embedded database in ${path.resolve(config.dataDir)}` : 'PostgreSQL';
    app.log.info(`Shop ready at ${config.publicUrl} (${where})`);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof DataDirInUseError || error instanceof CurrencyMismatchError) {
      console.error(error.message);
    } else {
      console.error('The shop could not start:', error);
    }
    process.exit(1);
  }
}
