import { request } from 'node:http';
import { performance } from 'node:perf_hooks';

/**
 * Many visitors' event streams at once, as light as a page's: one plain HTTP request each (no fetch
 * and no web streams, which cost a reader tens of kilobytes a stream), each counting the events it
 * hears by name and when it heard the last of each. For the capacity test and `npm run bench`.
 */
export interface ManyEventStreams {
  /** How many streams are open (their "ready" event heard). */
  readonly open: number;
  /**
   * Waits until every stream has heard `event` since `since` (a performance.now() time), and returns
   * how long after `since` each heard it, in ms, sorted; rejects after `timeoutMs` with how many did.
   */
  heardBy(event: string, since: number, timeoutMs?: number): Promise<number[]>;
  close(): void;
}

/** The streams each client address holds (the server's per-address limit for visitors is 20). */
const STREAMS_PER_ADDRESS = 20;

/**
 * Opens `count` visitors' streams to `eventsUrl` (…/api/events), `concurrency` at a time, each client
 * address (X-Forwarded-For: the server must trust it) holding STREAMS_PER_ADDRESS of them.
 */
export async function openManyEventStreams(eventsUrl: string, count: number, concurrency = 50): Promise<ManyEventStreams> {
  const heard: Array<Map<string, number>> = [];
  const requests: Array<ReturnType<typeof request>> = [];
  const openOne = (index: number) =>
    new Promise<void>((resolve, reject) => {
      const address = Math.floor(index / STREAMS_PER_ADDRESS);
      const events = new Map<string, number>();
      heard.push(events);
      const opened = request(eventsUrl, { agent: false, headers: { accept: 'text/event-stream', 'x-forwarded-for': `10.${200 + (address >> 16)}.${(address >> 8) & 255}.${address & 255}` } }, (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          return reject(new Error(`Stream ${index} refused: ${response.statusCode}`));
        }
        response.setEncoding('utf8');
        let buffered = '';
        response.on('data', (chunk: string) => {
          buffered += chunk;
          let end: number;
          while ((end = buffered.indexOf('\n\n')) >= 0) {
            const name = /^event: (.+)$/m.exec(buffered.slice(0, end))?.[1];
            buffered = buffered.slice(end + 2);
            if (!name) continue;
            events.set(name, performance.now());
            if (name === 'ready') resolve();
          }
        });
        response.on('error', () => {});
      });
      opened.on('error', reject);
      opened.end();
      requests.push(opened);
    });
  let next = 0;
  const openers = Array.from({ length: Math.min(concurrency, count) }, async () => {
    while (next < count) await openOne(next++);
  });
  try {
    await Promise.all(openers);
  } catch (error) {
    for (const opened of requests) opened.destroy();
    throw error;
  }
  return {
    get open() {
      return heard.filter((events) => events.has('ready')).length;
    },
    async heardBy(event, since, timeoutMs = 10_000) {
      const late = () => heard.filter((events) => (events.get(event) ?? -1) < since).length;
      const deadline = performance.now() + timeoutMs;
      while (late() > 0) {
        if (performance.now() > deadline) throw new Error(`${count - late()} of ${count} streams heard "${event}" within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      return heard.map((events) => events.get(event)! - since).sort((a, b) => a - b);
    },
    close() {
      for (const opened of requests) opened.destroy();
    },
  };
}
