import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { buildApp } from './app.js';
import { localUrl, newBackupKey, removeBackupAccess, writeBackupAccess } from '#server/backup/backup-access.js';
import { registerBackupRoute } from '#server/backup/backup-routes.js';
import { CurrencyMismatchError } from '#server/catalog/currency.js';
import { ConfigError, loadConfig } from './config.js';
import { DataDirInUseError, openDatabase } from '#server/db/client.js';
import { productImagesFor } from '#server/images/product-images.js';
import { keepPrivate } from './private-files.js';
import type { PageSource } from './pages.js';
import { prepareShop } from './prepare-shop.js';

/**
 * How long a shutdown may take before the process exits anyway (with 1). `docker stop` sends SIGKILL
 * 10 s after SIGTERM (Kubernetes after 30 s); ending before that lets the process log why.
 */
const SHUTDOWN_DEADLINE_MS = 9_000;

/** Reads the configuration, opens and migrates the database, seeds the demo catalogue and listens. */
export async function startServer(createPages: () => Promise<PageSource>): Promise<void> {
  try {
    const config = loadConfig();
    const database = await openDatabase(config.databaseUrl ? { databaseUrl: config.databaseUrl } : { dataDir: config.dataDir });
    // A DATA_DIR restored or copied with loose modes, or written by an earlier version, is made the shop's user's alone.
    const tightened = await keepPrivate(config.dataDir);
    const images = productImagesFor(database, config.dataDir);
    const app = await buildApp({ config, database, images, pages: await createPages(), logger: true });

    if (tightened) app.log.info(`${tightened} file(s) and folder(s) in ${path.resolve(config.dataDir)} were readable by other users; they are now the shop's user's alone`);
    await prepareShop(config, database, images, app.log);

    // The embedded database serves this process only, so `npm run backup` asks it for the backup (backup/backup-routes.ts).
    const backupKey = database.kind === 'pglite' ? newBackupKey() : undefined;
    if (backupKey) registerBackupRoute(app, database, config.dataDir, backupKey);

    // Stops accepting connections and tells open event streams to reconnect elsewhere (live/routes.ts),
    // answers the requests under way (http/graceful-close.ts), lets the e-mail being sent finish
    // (mail/mail-queue.ts), then closes the database. A signal repeated meanwhile (npm passes Ctrl+C
    // on to the server, which the terminal has signalled too) changes nothing.
    let closing = false;
    let failed = false;
    const shutdown = async (reason: string) => {
      if (closing) return;
      closing = true;
      const started = Date.now();
      app.log.info(`${reason}: finishing the requests under way, then closing`);
      const deadline = setTimeout(() => {
        app.log.error(`Still closing after ${SHUTDOWN_DEADLINE_MS / 1000} s; exiting without waiting longer`);
        process.exit(1);
      }, SHUTDOWN_DEADLINE_MS);
      try {
        if (backupKey) await removeBackupAccess(config.dataDir, backupKey);
        await app.close();
        await database.close();
      } catch (error) {
        app.log.error({ err: error }, 'The shop could not close cleanly');
        process.exit(1);
      }
      clearTimeout(deadline);
      app.log.info(`Closed in ${Date.now() - started} ms`);
      process.exit(failed ? 1 : 0);
    };
    process.on('SIGINT', () => void shutdown('SIGINT received'));
    process.on('SIGTERM', () => void shutdown('SIGTERM received'));
    // An error that nothing caught leaves the process in a state no one planned for. Rather than
    // Node's immediate exit, which would cut the requests under way and leave the embedded database
    // unclosed, the shop closes as on SIGTERM and then exits with 1, so that its supervisor (systemd,
    // Docker's restart policy) sees a failure and starts it again. One during the close is logged too;
    // the close goes on. Node's own handling is kept for errors before this point: the start fails.
    // (close-with-grace does the same, but this close already has its order, deadline and exit codes.)
    const closeAfter = (kind: string) => (error: unknown) => {
      app.log.fatal({ err: error }, `${kind}${closing ? ' while closing' : ''}`);
      failed = true;
      void shutdown(`After an ${kind.toLowerCase()}`);
    };
    process.on('uncaughtException', closeAfter('Uncaught exception'));
    process.on('unhandledRejection', closeAfter('Unhandled rejection'));

    await app.listen({ port: config.port, host: config.host });
    if (backupKey) await writeBackupAccess(config.dataDir, { url: localUrl(app.server.address() as AddressInfo), key: backupKey, pid: process.pid });
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
