import { randomUUID } from 'node:crypto';
import { STOCK_TOPIC, type StockEvent } from '#shared/live.js';
import type { DatabaseHandle } from '#server/db/client.js';
import { announceStock } from '#server/notices/live-hub.js';
import type { EventStreamReader } from '../support/event-stream.js';

/**
 * Shows that open streams got everything announced so far, and nothing else will come of it, without
 * waiting an arbitrary time. It announces a marker on the live channel (a stock event naming a product
 * that does not exist) and waits until each stream has received it or has ended. Notifications reach
 * every server process in the order their transactions committed, and each stream is written in that
 * order, so a stream holding the marker holds everything announced before it: what it lacks then, it
 * will not get. A stream that was ended never receives it.
 */
export async function deliverMarker(database: DatabaseHandle, streams: readonly EventStreamReader[], timeoutMs = 5000): Promise<void> {
  const marker = randomUUID();
  await announceStock(database.db, { [marker]: 0 });
  const holdsMarker = (stream: EventStreamReader) =>
    stream.events.some((event, index) => event === STOCK_TOPIC && marker in (stream.data[index] as StockEvent).stock);
  const deadline = Date.now() + timeoutMs;
  while (!streams.every((stream) => stream.ended || holdsMarker(stream))) {
    if (Date.now() > deadline) throw new Error(`The marker did not reach every stream within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
