import { randomBytes } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import Fastify, { LogController, type FastifyInstance, type FastifyReply } from 'fastify';
import { sql } from 'drizzle-orm';
import type { PublicSettings } from '#shared/settings.js';
import { registerAccountRoutes } from '#server/account/routes.js';
import { registerAddressRoutes } from '#server/addresses/routes.js';
import { registerAdminRoutes, registerDashboardRoutes } from '#server/admin/routes.js';
import { registerAuthRoutes } from '#server/auth/routes.js';
import { SessionCache } from '#server/auth/session-cache.js';
import { registerCartRoutes } from '#server/cart/routes.js';
import { registerCurrencyWatch } from '#server/catalog/currency.js';
import { registerCatalogRoutes } from '#server/catalog/routes.js';
import { courierApiFor } from '#server/couriers/apis.js';
import { CourierJobs } from '#server/couriers/courier-jobs.js';
import { registerCourierRoutes } from '#server/couriers/routes.js';
import type { ShipmentSettings } from '#server/couriers/shipments.js';
import type { Config, TrustedProxies } from './config.js';
import type { DatabaseHandle } from '#server/db/client.js';
import { registerPoolGauges } from '#server/db/pool-gauges.js';
import { registerCsrfProtection } from '#server/http/csrf.js';
import { registerGracefulClose } from '#server/http/graceful-close.js';
import { registerLoadShedding } from '#server/http/load-shedding.js';
import { registerMetrics } from '#server/http/metrics.js';
import { registerProbes } from '#server/http/probes.js';
import { errorBody, registerErrorHandler } from '#server/http/errors.js';
import { registerRequestLog, serializeError, serializeRequest } from '#server/http/logging.js';
import { registerSecurityHeaders, securityHeaders } from '#server/http/security-headers.js';
import { ShortPath, shortPathServerFactory } from '#server/http/short-path.js';
import { DEFAULT_SERVER_TIMEOUTS, serverTimeoutOptions, type ServerTimeouts } from '#server/http/server-timeouts.js';
import { MAX_UPLOAD_BYTES, registerImageRoutes, type ProductImages } from '#server/images/product-images.js';
import { registerLegalRoutes } from '#server/legal/routes.js';
import { termsVersion } from '#server/legal/service.js';
import { LiveHub } from '#server/notices/live-hub.js';
import { registerLiveRoutes } from '#server/live/routes.js';
import { registerDevMailbox } from '#server/mail/dev-mailbox.js';
import { BACK_IN_STOCK_MAIL, MailWorker, type MailComposer } from '#server/mail/mail-queue.js';
import { registerMailQueueGauges } from '#server/mail/mail-queue-gauges.js';
import { MailTextBook } from '#server/mail/mail-texts.js';
import { countingSendFailures, createMailer, outboxDir } from '#server/mail/mailer.js';
import { ShopMetrics } from '#server/metrics/shop-metrics.js';
import type { CheckoutSettings } from '#server/orders/checkout.js';
import { orderMailComposer } from '#server/orders/order-mail-writer.js';
import type { OrderMailSettings } from '#server/orders/order-mails.js';
import { registerOrderRoutes } from '#server/orders/routes.js';
import { paymentProviderFor } from '#server/payments/providers.js';
import { registerPaymentRoutes } from '#server/payments/routes.js';
import { documentSettingsOf } from '#server/invoices/issue-documents.js';
import { registerDocumentRoutes } from '#server/invoices/routes.js';
import { registerProductCsvRoutes } from '#server/import/routes.js';
import { newPromotionGuessLimit, registerPromotionRoutes } from '#server/promotions/routes.js';
import { registerReturnsRoutes } from '#server/returns/routes.js';
import { registerFavouriteRoutes } from '#server/favourites/routes.js';
import { registerSimilarPieceRoutes } from '#server/similar-pieces/routes.js';
import { registerReviewRoutes } from '#server/reviews/routes.js';
import { backInStockMailComposer } from '#server/stock-alerts/back-in-stock-mail.js';
import { registerStockAlertRoutes } from '#server/stock-alerts/routes.js';
import { registerPageFallback, type PageSource } from './pages.js';
import { registerSeoRoutes } from '#server/seo/routes.js';

export interface AppParts {
  config: Config;
  database: DatabaseHandle;
  images: ProductImages;
  pages: PageSource;
  /** Pino logger options (a test may give a stream to read), or false for silence in tests. */
  logger?: boolean | { level: string; stream?: { write(line: string): void } };
  /** How often event streams are kept alive and their sessions checked again; tests shorten it. */
  liveHeartbeatMs?: number;
  /** The most visitors' event streams the server holds at once; tests lower it. */
  liveMaxVisitorStreams?: number;
  /** Opens the development mailbox; a new random one at every start unless a test names one. */
  devMailboxKey?: string;
  /** The wait before an e-mail that failed is tried again (doubling with each try); tests shorten it. */
  mailRetryBaseMs?: number;
  /** How long the server waits for clients (http/server-timeouts.ts); tests shorten them. */
  timeouts?: Partial<ServerTimeouts>;
  /** How often the event loop's delay is measured for load shedding; tests shorten it. */
  pressureSampleMs?: number;
  /** Whether the courier jobs run by themselves (tests run their rounds instead). */
  courierJobsRunning?: boolean;
  /** How long a catalogue state read stays current on PostgreSQL without a change notice (MAX_STALENESS_MS); a test of something else may lengthen it. */
  catalogueMaxStalenessMs?: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Sends the queued e-mails; tests wake it when they have made a waiting message due. */
    mailWorker: MailWorker;
    /** Refreshes the couriers' office lists and reads the parcels' travel; tests run a round when they need one. */
    courierJobs: CourierJobs;
  }
}

/**
 * Fastify's form of the trusted proxies. A hop count is a function of the hop, since Fastify 5.12
 * takes a plain number as trusting nothing (it cannot tell a proxy from a client that reached the
 * shop directly; the README says to name the proxies' addresses when that can happen).
 */
function fastifyTrustProxy(trusted: TrustedProxies): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (trusted === false) return false;
  if ('addresses' in trusted) return trusted.addresses;
  const { hops } = trusted;
  return hops === 0 ? false : (_address, hop) => hop < hops;
}

/** Builds the whole server without listening; main.ts listens, tests use inject or listen on a free port. */
export async function buildApp({
  config,
  database,
  images,
  pages,
  logger = false,
  devMailboxKey = randomBytes(18).toString('base64url'),
  mailRetryBaseMs = 30_000,
  liveHeartbeatMs,
  liveMaxVisitorStreams,
  timeouts,
  pressureSampleMs,
  courierJobsRunning = true,
  catalogueMaxStalenessMs,
}: AppParts): Promise<FastifyInstance> {
  // Answers ready in memory go out before Fastify routes them (http/short-path.ts).
  const shortPath = new ShortPath();
  const app = Fastify({
    serverFactory: shortPathServerFactory(shortPath),
    logger: logger === false ? false : { ...(logger === true ? { level: config.logLevel } : logger), serializers: { err: serializeError, req: serializeRequest } },
    trustProxy: fastifyTrustProxy(config.trustProxy),
    // One line per answered request instead, by its outcome (http/logging.ts).
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1024 * 1024,
    ...serverTimeoutOptions({ ...DEFAULT_SERVER_TIMEOUTS, requestMs: config.requestTimeoutMs, ...timeouts }),
    // While closing, a request on a connection still open is answered, not refused (http/graceful-close.ts).
    return503OnClosing: false,
    // A path the router cannot even decode (bad percent-encoding, an over-long parameter) is bad input too.
    frameworkErrors: (error, _request, reply) => void (reply as FastifyReply).status(error.statusCode ?? 400).send(errorBody('bad_request', error.message)),
  });
  const { db } = database;
  const metrics = new ShopMetrics(app.log);
  const mailer = countingSendFailures(createMailer(config, app.log), metrics);
  const mailTexts = new MailTextBook(config.dataDir, app.log);
  const mailSettings: OrderMailSettings = {
    publicUrl: config.publicUrl,
    supportEmail: config.supportEmail,
    notifyEmails: config.orderNotifyEmails,
    notifyLanguage: config.orderNotifyLanguage,
    statusDelayMs: config.statusMailDelaySeconds * 1000,
    reviewRequestDelayMs: config.reviewRequestDelayMs,
    bankAccount: config.bankAccount,
    showBgnEquivalent: config.showBgnEquivalent,
  };
  const documents = documentSettingsOf(config);
  const paymentProvider = paymentProviderFor(config.paymentProvider, config.publicUrl);
  const checkoutSettings: CheckoutSettings = {
    pricing: config.pricing,
    paymentMethods: config.paymentMethods,
    deliveryMethods: config.deliveryMethods,
    simulatedPayments: config.paymentProvider.name === 'simulated',
    termsVersion: () => termsVersion(config),
    mail: mailSettings,
    documents,
  };

  registerErrorHandler(app);
  app.decorate('shortPath', shortPath);
  const closing = registerGracefulClose(app);
  shortPath.headers = securityHeaders({
    // Development's pages run Vite's inline scripts.
    contentSecurityPolicy: pages.needsInlineScripts
      ? null
      : {
          'default-src': ["'self'"],
          'base-uri': ["'self'"],
          'font-src': ["'self'", 'https:', 'data:'],
          // ePay.bg takes the signed payment request as a form the buyer's browser posts to it.
          'form-action': ["'self'", ...(config.paymentProvider.name === 'epay' ? [new URL(config.paymentProvider.url).origin] : [])],
          'frame-ancestors': ["'self'"],
          // blob: lets the product form preview the chosen image before it is uploaded.
          'img-src': ["'self'", 'data:', 'blob:'],
          'object-src': ["'none'"],
          'script-src': ["'self'"],
          'script-src-attr': ["'none'"],
          'style-src': ["'self'", "'unsafe-inline'"],
          'connect-src': ["'self'"],
          // The offline service worker (/sw.js) and the web app manifest come from the shop itself.
          'worker-src': ["'self'"],
          'manifest-src': ["'self'"],
          ...(config.publicUrl.startsWith('https:') ? { 'upgrade-insecure-requests': [] } : {}),
        },
    https: config.publicUrl.startsWith('https:'),
  });
  registerSecurityHeaders(app, shortPath.headers);
  await app.register(fastifyCookie);
  // Early, so that a refused request costs little; after the cookies, which every answer's hooks read.
  const overloaded = await registerLoadShedding(app, { maxEventLoopDelayMs: config.maxEventLoopDelayMs, sampleIntervalMs: pressureSampleMs });
  registerCsrfProtection(app, config.publicUrl);
  await app.register(fastifyMultipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 10, parts: 11 }, throwFileSizeLimit: true });
  await pages.register(app);

  app.get('/api/health', async () => {
    await db.execute(sql`select 1`);
    return { ok: true };
  });
  registerProbes(app, db, overloaded);
  // Fastify answers while the server closes or sheds load, and logs every request at debug.
  const debugLogging = logger !== false && ['debug', 'trace'].includes(app.log.level);
  shortPath.isOpen = () => !closing() && !overloaded() && !debugLogging;
  app.decorate('sessionCache', new SessionCache());
  registerAuthRoutes(app, db, { mailer, texts: mailTexts }, config);
  const currencyAgrees = await registerCurrencyWatch(app, database, config.pricing.currency);
  const catalogue = await registerCatalogRoutes(app, database, { currencyAgrees, maxStalenessMs: catalogueMaxStalenessMs });
  registerCartRoutes(app, db);
  registerAddressRoutes(app, db);
  registerAccountRoutes(app, db, images);
  registerReviewRoutes(app, db, images);
  registerSimilarPieceRoutes(app, db);
  registerStockAlertRoutes(app, db);
  registerFavouriteRoutes(app, db);
  const promotionGuesses = newPromotionGuessLimit();
  registerPromotionRoutes(app, db, promotionGuesses, config.pricing.currency);
  registerOrderRoutes(app, db, checkoutSettings, metrics, promotionGuesses);
  registerPaymentRoutes(app, db, { offered: config.paymentMethods, provider: paymentProvider, publicUrl: config.publicUrl, metrics, documents });
  registerDocumentRoutes(app, db, { ...documents, publicUrl: config.publicUrl });
  registerProductCsvRoutes(app, db, images, config.publicUrl);
  registerAdminRoutes(app, db, images, mailSettings, metrics, documents);
  registerDashboardRoutes(app, db, config.pricing.currency);
  registerLegalRoutes(app, config);
  registerReturnsRoutes(app, db, mailSettings, { customerCancellation: config.customerCancellation, provider: paymentProvider });
  const courierApis = config.couriers.map(courierApiFor);
  const shipmentSettings: ShipmentSettings = {
    couriers: new Map(courierApis.map((api) => [api.name, api])),
    sender: { name: config.seller.legalName, phone: config.seller.phone },
    inspectBeforePaying: config.inspectBeforePaying,
    mail: mailSettings,
    documents,
  };
  registerCourierRoutes(app, db, config.couriers.map((courier) => courier.name), shipmentSettings, {
    currency: config.pricing.currency,
    quotedMethods: config.pricing.quotedDeliveryMethods ?? [],
  });
  const courierJobs = new CourierJobs(db, courierApis, shipmentSettings, app.log);
  app.decorate('courierJobs', courierJobs);
  if (courierJobsRunning) app.addHook('onReady', () => courierJobs.start());
  app.addHook('onClose', () => courierJobs.stop());

  const composeOrderMail = orderMailComposer(db, mailTexts, mailSettings);
  const composeBackInStockMail = backInStockMailComposer(db, mailTexts, config.publicUrl);
  const composeMail: MailComposer = (mail) => (mail.kind === BACK_IN_STOCK_MAIL ? composeBackInStockMail(mail) : composeOrderMail(mail));
  const mailWorker = new MailWorker(database, mailer, composeMail, app.log, {
    claimSeconds: config.mailClaimSeconds,
    retryBaseMs: mailRetryBaseMs,
    pollMs: 60_000,
  });
  app.decorate('mailWorker', mailWorker);
  registerMailQueueGauges(metrics, db);
  app.addHook('onReady', () => mailWorker.start());
  // Stopping begins with the close, so that the e-mail being sent finishes while the requests under way do.
  let mailWorkerStopped: Promise<void> | undefined;
  app.addHook('preClose', async () => {
    mailWorkerStopped = mailWorker.stop();
    // A failure is reported where onClose awaits it, not as an unhandled rejection meanwhile.
    mailWorkerStopped.catch(() => {});
  });
  app.addHook('onClose', () => mailWorkerStopped ?? mailWorker.stop());

  // The hub hears the notices that end sessions and change roles, and passes them to the session cache.
  const hub = new LiveHub(app.log, app.sessionCache);
  await hub.start(database);
  app.addHook('onClose', () => hub.stop());
  registerLiveRoutes(app, db, hub, metrics, catalogue, { heartbeatMs: liveHeartbeatMs, maxVisitorStreams: liveMaxVisitorStreams });
  registerPoolGauges(metrics, database);
  shortPath.record = registerMetrics(app, metrics, { token: config.metricsToken });
  // After the metrics, so that a request is counted before its line is written.
  registerRequestLog(app);

  registerImageRoutes(app, images);
  registerSeoRoutes(app, db, config);

  const devMailbox = mailer.kind === 'outbox' && config.nodeEnv !== 'production';
  if (devMailbox) {
    registerDevMailbox(app, outboxDir(config), { key: devMailboxKey, publicUrl: config.publicUrl });
    app.log.info(`No SMTP_URL: e-mails go to the development mailbox at ${config.publicUrl}/dev/mailbox?key=${devMailboxKey}`);
  }

  const settings: PublicSettings = {
    supportEmail: config.supportEmail,
    publicUrl: config.publicUrl,
    devMailbox,
    pricing: config.pricing,
    showBgnEquivalent: config.showBgnEquivalent,
    paymentMethods: config.paymentMethods,
    deliveryMethods: config.deliveryMethods,
    shopMode: config.shopMode,
    paymentProvider: config.paymentProvider.name,
    bankAccount: config.paymentMethods.includes('bank_transfer') ? config.bankAccount : null,
  };
  await registerPageFallback(app, pages, settings, database);
  return app;
}
