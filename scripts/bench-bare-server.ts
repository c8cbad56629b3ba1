/**
 * The benchmark's baseline: a bare node:http server that answers each path with the exact bytes
 * (status, headers, body) the shop answered for it, held in memory. What the shop costs beyond
 * this is its own work: routing, database, compression choices, logging.
 *
 *   node --import tsx scripts/bench-bare-server.ts <replies.json>
 *
 * It listens on a free port of 127.0.0.1 and writes that port as one line to stdout.
 */
import { readFileSync } from 'node:fs';
import { createServer, type OutgoingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One captured answer, as scripts/bench.ts writes it. */
export interface RecordedReply {
  status: number;
  headers: OutgoingHttpHeaders;
  /** The body exactly as sent on the wire (compressed when the shop compressed it), in base64. */
  body: string;
}

const file = process.argv[2];
if (!file) throw new Error('Usage: bench-bare-server.ts <replies.json>');
const recorded = JSON.parse(readFileSync(file, 'utf8')) as Record<string, RecordedReply>;
const replies = new Map(Object.entries(recorded).map(([pathname, reply]) => [pathname, { ...reply, body: Buffer.from(reply.body, 'base64') }]));

const server = createServer((request, response) => {
  const reply = replies.get(request.url ?? '');
  if (!reply) {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(reply.status, { ...reply.headers, 'content-length': reply.body.length });
  response.end(reply.body);
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
