import { createServer, request as forward } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the proxy passed on, and the backend (by its index) that served it. */
interface ProxiedRequest {
  method: string;
  path: string;
  backend: number;
}

export interface RoundRobinProxy {
  /** The proxy's own address, which the backends are told is the shop's (PUBLIC_URL). */
  url: string;
  /** Every request passed on, in the order they arrived. */
  served: ProxiedRequest[];
  /** The backend the next request will go to. */
  readonly nextBackend: number;
  /** The backends to take turns between; set once they listen, since they need the proxy's address first. */
  setBackends(urls: string[]): void;
  close(): Promise<void>;
}

/** The response header that names the backend which served a request. */
export const SERVED_BY_HEADER = 'x-served-by';

/**
 * A load balancer in miniature: each new request goes to the next backend in turn, and its answer,
 * streamed (so an event stream stays with the backend it opened on, for as long as it is open), is
 * marked with the backend's index. Like nginx's $proxy_add_x_forwarded_for, it adds the address it
 * was reached from to X-Forwarded-For, so that backends with TRUST_PROXY see the client's address.
 */
export async function startRoundRobinProxy(): Promise<RoundRobinProxy> {
  let backends: URL[] = [];
  let turn = 0;
  const served: ProxiedRequest[] = [];
  const server = createServer((incoming, outgoing) => {
    if (backends.length === 0) return void outgoing.writeHead(503).end();
    const backend = turn++ % backends.length;
    const target = backends[backend]!;
    served.push({ method: incoming.method!, path: incoming.url!, backend });
    const forwardedFor = [incoming.headers['x-forwarded-for'], incoming.socket.remoteAddress].filter(Boolean).join(', ');
    const upstream = forward(
      { host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: { ...incoming.headers, 'x-forwarded-for': forwardedFor } },
      (answer) => {
        outgoing.writeHead(answer.statusCode!, { ...answer.headers, [SERVED_BY_HEADER]: String(backend) });
        answer.pipe(outgoing);
      },
    );
    upstream.on('error', () => (outgoing.headersSent ? outgoing.destroy() : outgoing.writeHead(502).end()));
    // A client that leaves before the answer ends (an event stream closed) closes the backend's side too.
    outgoing.on('close', () => {
      if (!outgoing.writableFinished) upstream.destroy();
    });
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    get nextBackend() {
      return turn % Math.max(backends.length, 1);
    },
    setBackends: (urls) => void (backends = urls.map((url) => new URL(url))),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
