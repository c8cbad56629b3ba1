import type { FastifyBaseLogger } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { PaymentMethod } from '#shared/orders.js';

/*
 * The shop's metrics port. The parts that do the business count what they did here (an order
 * placed, a payment asked for, an e-mail the mail server would not take), and the parts that hold a
 * state (the mail queue, the event streams, the database pool) give a gauge to read when Prometheus
 * scrapes; http/metrics.ts serves it all at GET /metrics. Counters belong to the process that did
 * the work (Prometheus sums them over the processes it scrapes).
 */

/** Succeeded; refused (the request or the order did not allow it); failed (a fault of the server's). */
export type PaymentOutcome = 'succeeded' | 'refused' | 'failed';

/** A gauge's values as read at a scrape: one number, or one per label value. */
type GaugeReading<Label extends string> = number | readonly { labels: Record<Label, string>; value: number }[];

interface GaugeDefinition<Label extends string> {
  name: string;
  help: string;
  labelNames?: readonly Label[];
  read: () => GaugeReading<Label> | Promise<GaugeReading<Label>>;
  /** Logged when a read fails; the gauge then has no series, since a stale one would mislead. */
  unreadable?: string;
}

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

/** The metrics of one app: build it before the parts that count into it. */
export class ShopMetrics {
  readonly registry = new Registry();
  private readonly ordersPlaced = new Counter({ name: 'shop_orders_placed_total', help: 'Orders placed at the checkout, by payment method.', labelNames: ['payment_method'] as const, registers: [this.registry] });
  private readonly payments = new Counter({
    name: 'shop_payments_total',
    help: 'Payments asked for, by method and outcome: succeeded, refused (the request or the order did not allow it) or failed (a server fault).',
    labelNames: ['method', 'outcome'] as const,
    registers: [this.registry],
  });
  private readonly mailSendFailures = new Counter({
    name: 'shop_mail_send_failures_total',
    help: 'Tries to hand an e-mail (a sign-in link or a queued order message) to the mail server that failed.',
    registers: [this.registry],
  });

  constructor(private readonly log: FastifyBaseLogger) {}

  /** A new order, once its transaction has committed (a repeated checkout of the same order is none). */
  countOrderPlaced(paymentMethod: PaymentMethod): void {
    this.ordersPlaced.inc({ payment_method: paymentMethod });
  }

  /** A payment asked for: 'unknown' is a request that named no method the shop knows. */
  countPayment(method: PaymentMethod | 'unknown', outcome: PaymentOutcome): void {
    this.payments.inc({ method, outcome });
  }

  /** One try to hand an e-mail to the mail server that failed. */
  countMailSendFailure(): void {
    this.mailSendFailures.inc();
  }

  /** A gauge read at every scrape, from the part that holds its state. */
  addGauge<Label extends string = never>({ name, help, labelNames = [], read, unreadable }: GaugeDefinition<Label>): void {
    const { log } = this;
    new Gauge<Label>({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        try {
          const reading = await read();
          if (typeof reading === 'number') this.set(reading);
          else for (const { labels, value } of reading) this.set(labels, value);
        } catch (error) {
          // The other metrics still go out; a missing series says the value is unknown.
          this.reset();
          log.warn({ err: error }, unreadable ?? `${name} could not be read for /metrics`);
        }
      },
    });
  }

  /** The text Prometheus reads: the process's own metrics and this app's. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: (await processMetrics().metrics()) + (await this.registry.metrics()) };
  }
}
