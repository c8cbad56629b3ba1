import type { ShopMetrics } from '#server/metrics/shop-metrics.js';
import type { DatabaseHandle, PoolStats } from './client.js';

/** The database connections of this process; a driver that cannot tell a number has no series for it, rather than a made-up 0. */
export function registerPoolGauges(metrics: ShopMetrics, { poolStats }: DatabaseHandle): void {
  if (!poolStats) return;
  const gauge = (name: string, help: string, read: (stats: PoolStats) => number | undefined) => {
    if (read(poolStats()) === undefined) return;
    metrics.addGauge({ name, help, read: () => read(poolStats()) ?? 0 });
  };
  gauge('shop_db_pool_connections_max', 'The most database connections this process opens.', (stats) => stats.max);
  gauge('shop_db_pool_connections_open', 'Database connections this process holds open, busy or idle.', (stats) => stats.total);
  gauge('shop_db_pool_connections_idle', 'Open database connections that no query is using.', (stats) => stats.idle);
  gauge('shop_db_pool_queries_waiting', 'Queries waiting for a free database connection.', (stats) => stats.waiting);
}
