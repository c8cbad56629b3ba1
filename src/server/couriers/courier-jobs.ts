import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '#server/db/client.js';
import type { CourierApi } from './courier.js';
import { claimOfficesRefresh, refreshOffices } from './offices.js';
import { trackShipments, type ShipmentSettings } from './shipments.js';

/** How often a process looks for courier work due: an office list to refresh, shipments to track. */
const COURIER_JOBS_EVERY_MS = 10 * 60 * 1000;

/**
 * How long closing waits for a round under way. A courier slow to answer (up to its 20 s timeout, per
 * request) must not hold the shutdown past its deadline; what the round has not written yet is left
 * for the next process's round, and every write it makes is whole (a transaction, or an insert that
 * a repeat finds done).
 */
const STOP_WAIT_MS = 3_000;

/**
 * The couriers' background work, in every process: each office list refreshed daily and the sent
 * parcels' travel read hourly. The database decides which process does each piece (claimOfficesRefresh,
 * trackShipments), so several processes on one database do it once.
 */
export class CourierJobs {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly db: Database,
    private readonly apis: readonly CourierApi[],
    private readonly settings: ShipmentSettings,
    private readonly log: FastifyBaseLogger,
    private readonly everyMs = COURIER_JOBS_EVERY_MS,
  ) {}

  start(): void {
    if (this.apis.length === 0) return;
    void this.runDue();
    this.timer = setInterval(() => void this.runDue(), this.everyMs);
    this.timer.unref();
  }

  /** Does the work due now, once: a round already under way is awaited rather than run twice. */
  runDue(): Promise<void> {
    this.running ??= this.round().finally(() => (this.running = undefined));
    return this.running;
  }

  private async round(): Promise<void> {
    try {
      for (const api of this.apis) {
        if (!(await claimOfficesRefresh(this.db, api.name))) continue;
        const outcome = await refreshOffices(this.db, api);
        if (outcome.refreshed) this.log.info({ courier: api.name, offices: outcome.count }, `Refreshed the ${api.name} office list`);
        else this.log.warn({ courier: api.name, error: outcome.error }, `Could not refresh the ${api.name} office list; the last one stays`);
      }
      await trackShipments(this.db, this.settings, this.log);
    } catch (error) {
      // Cut off by the shutdown (the database closed under it): the next start's round does the rest.
      if (this.stopped) this.log.info({ err: error }, 'The courier round was cut off by the shutdown');
      else this.log.error({ err: error }, 'The courier jobs failed; they run again in the next round');
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.stopped = true;
    if (!this.running) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.running, new Promise((resolve) => (timer = setTimeout(resolve, STOP_WAIT_MS)))]);
    clearTimeout(timer);
  }
}
