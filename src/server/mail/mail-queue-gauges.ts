import { sql } from 'drizzle-orm';
import type { Database } from '#server/db/client.js';
import { mailQueue } from '#server/db/schema.js';
import type { ShopMetrics } from '#server/metrics/shop-metrics.js';

/** The states of messages still to send; a queued message that failed before waits to be tried again. */
const WAITING_STATES = ['queued', 'retrying', 'sending'] as const;

/**
 * The mail queue's gauges, read from the database at each scrape, so that every process reports the
 * same shared queue. Each reads one partial index, never the history of sent messages.
 */
export function registerMailQueueGauges(metrics: ShopMetrics, db: Database): void {
  metrics.addGauge({
    name: 'shop_mail_queue_messages',
    help: 'E-mails still to send, in all server processes: queued, retrying (after a failed try) or sending.',
    labelNames: ['state'],
    unreadable: 'The mail queue could not be counted for /metrics',
    async read() {
      // mail_queue_due_idx holds exactly the messages still to send.
      const rows = await db
        .select({
          state: sql<string>`case when ${mailQueue.state} = 'sending' then 'sending' when ${mailQueue.lastError} is null then 'queued' else 'retrying' end`,
          count: sql<number>`count(*)::int`,
        })
        .from(mailQueue)
        .where(sql`${mailQueue.state} in ('queued', 'sending')`)
        .groupBy(sql`1`);
      return WAITING_STATES.map((state) => ({ labels: { state }, value: rows.find((row) => row.state === state)?.count ?? 0 }));
    },
  });

  metrics.addGauge({
    name: 'shop_mail_failed_messages',
    help: 'E-mails given up on (refused, or out of tries), in all server processes; the admin can send each again.',
    unreadable: 'The failed e-mails could not be counted for /metrics',
    async read() {
      // mail_queue_failed_idx holds only these.
      const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(mailQueue).where(sql`${mailQueue.state} = 'failed'`);
      return row?.count ?? 0;
    },
  });
}
