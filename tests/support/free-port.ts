import { createServer } from 'node:net';

/** A port that was free a moment ago on 127.0.0.1; the server that is to use it binds it itself. */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
