import { createServer, request as forward, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { like } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signInTokens } from '#server/db/schema.js';
import { SIGN_IN_RATE_LIMIT } from '#shared/auth.js';
import { describeEachDatabase } from './test-app.js';

// A client behind a proxy that appends to X-Forwarded-For (as nginx's $proxy_add_x_forwarded_for
// does) may send the header itself, naming any address it likes: only the entry the proxy added
// names the client. Each request below claims another address; the shop must still see one client.

const spoofedAddress = (index: number) => `203.0.113.${index + 1}`;

/** The proxy reaches the shop from this address of its own, so that the shop can tell it from the client (127.0.0.1). */
const PROXY_ADDRESS = '127.0.0.2';

/** A reverse proxy in miniature that appends the address it was reached from to X-Forwarded-For. */
async function startAppendingProxy(backend: string): Promise<{ url: string; close(): Promise<void> }> {
  const target = new URL(backend);
  const server: Server = createServer((incoming, outgoing) => {
    const forwardedFor = [incoming.headers['x-forwarded-for'], incoming.socket.remoteAddress].filter(Boolean).join(', ');
    const upstream = forward(
      { host: target.hostname, port: target.port, localAddress: PROXY_ADDRESS, method: incoming.method, path: incoming.url, headers: { ...incoming.headers, 'x-forwarded-for': forwardedFor } },
      (answer) => {
        outgoing.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(outgoing);
      },
    );
    upstream.on('error', () => outgoing.writeHead(502).end());
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

for (const trustProxy of ['true', '1', PROXY_ADDRESS, `${PROXY_ADDRESS}/32,::1`]) {
  describeEachDatabase(
    `client addresses behind an appending proxy with TRUST_PROXY=${trustProxy}`,
    (context) => {
      let proxy: Awaited<ReturnType<typeof startAppendingProxy>>;
      beforeAll(async () => {
        proxy = await startAppendingProxy(await context().app.listen({ port: 0, host: '127.0.0.1' }));
      });
      afterAll(async () => {
        await proxy.close();
      });

      it('counts the sign-in links of a client that names other addresses itself as one client’s', async () => {
        const answers = await Promise.all(
          Array.from({ length: 30 }, async (_, index) => {
            const response = await fetch(`${proxy.url}/api/auth/sign-in-links`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'x-forwarded-for': spoofedAddress(index) },
              body: JSON.stringify({ email: `spoofer${index}@example.com`, language: 'en' }),
            });
            await response.body?.cancel();
            return response.status;
          }),
        );
        expect(answers.filter((status) => status === 202)).toHaveLength(SIGN_IN_RATE_LIMIT.perClient);
        expect(answers.filter((status) => status === 429)).toHaveLength(30 - SIGN_IN_RATE_LIMIT.perClient);
      });

      it('takes the client’s address from the entry the proxy added', async () => {
        // The proxy, reached from 127.0.0.1, names that address; the client's own entry is ignored.
        const rows = await context().database.db.selectDistinct({ from: signInTokens.requestedFrom }).from(signInTokens).where(like(signInTokens.email, 'spoofer%'));
        const addresses = rows.map((row) => row.from);
        expect(addresses).toEqual(['127.0.0.1']);
      });
    },
    { TRUST_PROXY: trustProxy },
  );
}
