/** Reads a Server-Sent Events stream over real HTTP and collects the event names it receives, and their data. */
export interface EventStreamReader {
  events: string[];
  /** Each event's data, parsed, in the order of `events`. */
  data: unknown[];
  waitFor(name: string, timeoutMs?: number): Promise<number>;
  /** Whether the server has ended the stream. */
  readonly ended: boolean;
  /** How many comment lines (the server's heartbeats) have arrived. */
  readonly keepAlives: number;
  /** Waits until the server ends the stream, and returns how long the wait took. */
  waitForEnd(timeoutMs?: number): Promise<number>;
  close(): void;
}

/** Opens a stream with the session cookie, or as a visitor without one; headers may name the client (X-Forwarded-For). */
export async function openEventStream(url: string, cookie: string | null, headers: Record<string, string> = {}): Promise<EventStreamReader> {
  const controller = new AbortController();
  const response = await fetch(url, { headers: { ...(cookie ? { cookie } : {}), accept: 'text/event-stream', ...headers }, signal: controller.signal });
  if (!response.ok || !response.body) throw new Error(`Event stream refused: ${response.status}`);
  const events: string[] = [];
  const data: unknown[] = [];
  const consumed = new Map<string, number>();
  let ended = false;
  let keepAlives = 0;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) {
          ended = true;
          return;
        }
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.startsWith(':')) keepAlives++;
          const name = /^event: (.+)$/m.exec(block)?.[1];
          if (name) {
            events.push(name);
            data.push(JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? 'null'));
          }
        }
      }
    } catch {
      // aborted by close()
    }
  })();
  return {
    events,
    data,
    /** Waits for the next event of that name not yet waited for, and returns how long the wait took. */
    async waitFor(name, timeoutMs = 5000) {
      const wanted = (consumed.get(name) ?? 0) + 1;
      consumed.set(name, wanted);
      const started = Date.now();
      while (events.filter((event) => event === name).length < wanted) {
        if (Date.now() - started > timeoutMs) throw new Error(`No "${name}" event within ${timeoutMs} ms (got ${events.join(', ')})`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return Date.now() - started;
    },
    get ended() {
      return ended;
    },
    get keepAlives() {
      return keepAlives;
    },
    async waitForEnd(timeoutMs = 5000) {
      const started = Date.now();
      while (!ended) {
        if (Date.now() - started > timeoutMs) throw new Error(`The stream was still open after ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return Date.now() - started;
    },
    close: () => controller.abort(),
  };
}
