import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { localUrl, newBackupKey, removeBackupAccess, writeBackupAccess } from '#server/backup/backup-access.js';
import type { CurrencyMismatchError } from '#server/catalog/currency.js';
import { ConfigError, loadConfig } from './config.js';
import { DataDirInUseError } from '#server/db/data-dir-lock.js';
import { resolveDrizzleFilesDirectly } from './drizzle-resolution.js';
import { startPglite } from '#server/db/pglite-start.js';
import type { PageSource } from './pages.js';
import { keepPrivate } from './private-files.js';

/**
 * How long a shutdown may take before the process exits anyway (with 1). `docker stop` sends SIGKILL
 * 10 s after SIGTERM (Kubernetes after 30 s); ending before that lets the process log why.
 */
const SHUTDOWN_DEADLINE_MS = 9_000;

/** Reads the configuration, opens and migrates the database, seeds the demo catalogue and listens. */
export async function startServer(createPages: () => Promise<PageSource>): Promise<void> {
  // Loaded with the server's modules: a start that fails before them cannot have thrown it.
  let currencyMismatch: typeof CurrencyMismatchError | undefined;
  try {
    const config = loadConfig();
    // The server's modules are loaded here, not imported by this file (nor the pages' by its callers),
    // so that two things happen first: Node 22 is told how to load Drizzle's files faster
    // (drizzle-resolution.ts), and the embedded database's thread starts, so that this thread loads
    // them beside PGlite's start (most of it compiling PostgreSQL's WebAssembly) instead of before it.
    resolveDrizzleFilesDirectly();
    const location = config.databaseUrl ? { databaseUrl: config.databaseUrl } : { starting: await startPglite(config.dataDir) };
    const [{ buildApp }, { registerBackupRoute }, currency, { openDatabase }, { productImagesFor }, { prepareShop }] = await Promise.all([
      import('./app.js'),
      import('#server/backup/backup-routes.js'),
      import('#server/catalog/currency.js'),
      import('#server/db/client.js'),
      import('#server/images/product-images.js'),
      import('./prepare-shop.js'),
    ]);
    currencyMismatch = currency.CurrencyMismatchError;
    const database = await openDatabase(location);
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
    if (error instanceof ConfigError || error instanceof DataDirInUseError || (currencyMismatch && error instanceof currencyMismatch)) {
      console.error(error.message);
    } else {
      console.error('The shop could not start:', error);
    }
    process.exit(1);
  }
}
