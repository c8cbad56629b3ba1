import { createHash, timingSafeEqual } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { placeOrderSchema, recordPaymentSchema } from '../../shared/orders.js';
import type { DatabaseHandle, PoolStats } from '../db/client.js';
import { mailQueue } from '../db/schema.js';
import type { LiveHub } from '../notices/live-hub.js';
import type { Mailer } from '../mail/mailer.js';
import { errorBody } from './errors.js';

/*
 * Prometheus metrics at GET /metrics. Counters and histograms belong to the process that serves the
 * request (Prometheus sums them over the processes it scrapes); the mail queue is read from the
 * database, so every process reports the same shared queue.
 */

/** Requests no route matched: their paths are whatever a client sent, so they share one label. */
const UNMATCHED_ROUTE = 'unmatched';

/** The checkout: 201 is a new order, 200 the same order again for a repeated key. */
const CHECKOUT_ROUTE = 'POST /api/orders';
/** The routes that record a payment, and how each names its method. */
const PAYMENT_ROUTES: Readonly<Record<string, (request: FastifyRequest) => string>> = {
  'POST /api/orders/:orderId/payment': (request) => {
    const method = recordPaymentSchema.shape.method.safeParse((request.body as { method?: unknown } | null)?.method);
    return method.success ? method.data : 'unknown';
  },
  'POST /api/admin/orders/:orderId/cash-payment': () => 'cash_on_delivery',
};

/** A request refused for want of a session or a role asked for no payment; the rest did, whatever came of it. */
const paymentOutcome = (status: number) => (status === 401 || status === 403 ? undefined : status < 300 ? 'succeeded' : status < 500 ? 'refused' : 'failed');

/** The states of messages still to send; a queued message that failed before waits to be tried again. */
const MAIL_QUEUE_STATES = ['queued', 'retrying', 'sending'] as const;

/**
 * Node's own metrics (memory, CPU, event loop, garbage collection) describe the process, not an app,
 * and collecting them installs observers that are never removed: one registry serves every app the
 * process builds (tests build several).
 */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** The metrics of one app. Build it before the parts it watches, then register it with registerMetrics. */
export class ShopMetrics {
  readonly registry = new Registry();
  readonly requests = new Counter({ name: 'http_requests_total', help: 'HTTP requests answered, by route pattern.', labelNames: ['method', 'route', 'status'] as const, registers: [this.registry] });
  readonly requestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route pattern (event streams apart, which stay open).',
    labelNames: ['method', 'route'] as const,
    registers: [this.registry],
  });
  readonly ordersPlaced = new Counter({ name: 'shop_orders_placed_total', help: 'Orders placed at the checkout, by payment method.', labelNames: ['payment_method'] as const, registers: [this.registry] });
  readonly payments = new Counter({
    name: 'shop_payments_total',
    help: 'Payments asked for, by method and outcome: succeeded, refused (the request or the order did not allow it) or failed (a server fault).',
    labelNames: ['method', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly mailFailures = new Counter({
    name: 'shop_mail_send_failures_total',
    help: 'Tries to hand an e-mail (a sign-in link or a queued order message) to the mail server that failed.',
    registers: [this.registry],
  });

  /** The mailer, counting its failed sends. */
  countMailFailures(mailer: Mailer): Mailer {
    return {
      ...mailer,
      send: async (message) => {
        try {
          await mailer.send(message);
        } catch (error) {
          this.mailFailures.inc();
          throw error;
        }
      },
    };
  }
}

export interface MetricsSources {
  database: DatabaseHandle;
  hub: LiveHub;
  /** Required as a bearer token when set; without it /metrics answers only requests from this host. */
  token: string | undefined;
}

/** Counts every request, adds the gauges read at scrape time, and serves GET /metrics. */
export function registerMetrics(app: FastifyInstance, metrics: ShopMetrics, { database, hub, token }: MetricsSources): void {
  const { registry } = metrics;

  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
    const status = reply.statusCode;
    metrics.requests.inc({ method: request.method, route, status: String(status) });
    if (!String(reply.raw.getHeader('content-type')).startsWith('text/event-stream')) {
      metrics.requestDuration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    }
    const operation = `${request.method} ${route}`;
    if (operation === CHECKOUT_ROUTE && status === 201) {
      const method = placeOrderSchema.shape.paymentMethod.safeParse((request.body as { paymentMethod?: unknown } | null)?.paymentMethod);
      metrics.ordersPlaced.inc({ payment_method: method.success ? method.data : 'unknown' });
    }
    const paymentMethod = PAYMENT_ROUTES[operation];
    const outcome = paymentOutcome(status);
    if (paymentMethod && outcome) metrics.payments.inc({ method: paymentMethod(request), outcome });
  });

  new Gauge({
    name: 'shop_mail_queue_messages',
    help: 'E-mails still to send, in all server processes: queued, retrying (after a failed try) or sending.',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      try {
        // The partial index mail_queue_due_idx holds exactly the messages still to send, so the count
        // reads those and never the history of sent ones.
        const rows = await database.db
          .select({
            state: sql<string>`case when ${mailQueue.state} = 'sending' then 'sending' when ${mailQueue.lastError} is null then 'queued' else 'retrying' end`,
            count: sql<number>`count(*)::int`,
          })
          .from(mailQueue)
          .where(sql`${mailQueue.state} in ('queued', 'sending')`)
          .groupBy(sql`1`);
        for (const state of MAIL_QUEUE_STATES) this.set({ state }, rows.find((row) => row.state === state)?.count ?? 0);
      } catch (error) {
        // The other metrics still go out; a missing series says the count is unknown, where a stale one would mislead.
        this.reset();
        app.log.warn({ err: error }, 'The mail queue could not be counted for /metrics');
      }
    },
  });

  new Gauge({
    name: 'shop_mail_failed_messages',
    help: 'E-mails given up on (refused, or out of tries), in all server processes; the admin can send each again.',
    registers: [registry],
    async collect() {
      try {
        // Read through the partial index mail_queue_failed_idx, which holds only these.
        const [row] = await database.db.select({ count: sql<number>`count(*)::int` }).from(mailQueue).where(sql`${mailQueue.state} = 'failed'`);
        this.set(row?.count ?? 0);
      } catch (error) {
        this.reset();
        app.log.warn({ err: error }, 'The failed e-mails could not be counted for /metrics');
      }
    },
  });

  new Gauge({
    name: 'shop_event_streams_open',
    help: 'Live-update event streams this process holds open, of signed-in customers and of visitors.',
    labelNames: ['kind'] as const,
    registers: [registry],
    collect() {
      const visitors = hub.visitorStreamCount();
      this.set({ kind: 'visitor' }, visitors);
      this.set({ kind: 'signed_in' }, hub.connectionCount - visitors);
    },
  });

  const { poolStats } = database;
  // A driver that cannot tell a number has no series for it, rather than a made-up 0.
  const poolGauge = (name: string, help: string, read: (stats: PoolStats) => number | undefined) => {
    if (!poolStats || read(poolStats()) === undefined) return;
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read(poolStats()) ?? 0);
      },
    });
  };
  poolGauge('shop_db_pool_connections_max', 'The most database connections this process opens.', (stats) => stats.max);
  poolGauge('shop_db_pool_connections_open', 'Database connections this process holds open, busy or idle.', (stats) => stats.total);
  poolGauge('shop_db_pool_connections_idle', 'Open database connections that no query is using.', (stats) => stats.idle);
  poolGauge('shop_db_pool_queries_waiting', 'Queries waiting for a free database connection.', (stats) => stats.waiting);

  app.get('/metrics', async (request, reply) => {
    if (token === undefined ? !isFromThisHost(request) : !bearerTokenMatches(request, token)) {
      if (token === undefined) return reply.callNotFound();
      return reply.status(401).header('www-authenticate', 'Bearer').send(errorBody('unauthorized', 'The metrics need their bearer token.'));
    }
    const body = (await processMetrics().metrics()) + (await registry.metrics());
    return reply.type(registry.contentType).header('cache-control', 'no-store').send(body);
  });
}

/** Compares digests, which have one length, so that the time taken says nothing about the token. */
function bearerTokenMatches(request: FastifyRequest, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  if (!match) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(match[1]!), digest(token));
}

const isLoopback = (address: string) => {
  const plain = address.trim().replace(/^::ffff:/i, '');
  return plain === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(plain);
};

/**
 * Whether the request came from this host and from nobody behind it. A reverse proxy on this host
 * connects from the loopback address for every client it serves, so an address it names (it adds
 * the client's to X-Forwarded-For) must be a loopback one too, whether or not TRUST_PROXY lets the
 * shop believe those headers otherwise: a header can only narrow who is let in here. A proxy that
 * names nobody cannot be told from a local client, which is why the README says to set METRICS_TOKEN
 * or keep /metrics from the proxy.
 */
function isFromThisHost(request: FastifyRequest): boolean {
  const { headers } = request;
  const named = [headers['x-forwarded-for'], headers['x-real-ip']].flat().flatMap((value) => value?.split(',') ?? []);
  // The RFC 7239 header names clients in a syntax of its own that the shop reads nowhere else.
  if (headers.forwarded !== undefined) return false;
  return [request.socket.remoteAddress ?? '', ...named].every(isLoopback);
}
