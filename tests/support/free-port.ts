import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * The ports the kernel hands out to outgoing connections (Linux's ip_local_port_range). A port taken
 * from there with listen(0) and freed for a server to bind seconds later can meanwhile become the
 * local end of one of the run's many connections (the browser's, the database pool's), and the
 * server then fails with EADDRINUSE: seen under load. Ports below that range are only ever listened on.
 */
const ephemeralPorts = (() => {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    return { low: low!, high: high! };
  } catch {
    return { low: 32768, high: 60999 };
  }
})();
const LOWEST = 20_000;
const highest = Math.max(LOWEST + 1000, ephemeralPorts.low - 1);

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/**
 * A port that was free a moment ago on 127.0.0.1, below the ephemeral range, chosen at random so that
 * processes starting servers at once seldom pick the same; the server that is to use it binds it itself.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = LOWEST + Math.floor(Math.random() * (highest - LOWEST + 1));
    if (await isFree(port)) return port;
  }
}
