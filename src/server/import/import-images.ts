import { lookup } from 'node:dns/promises';
import { readFile, stat } from 'node:fs/promises';
import { BlockList, isIP } from 'node:net';
import path from 'node:path';
import { MAX_UPLOAD_BYTES } from '#server/images/product-images.js';

/** A photo an import found for a product, or why it found none. */
export type FoundImage = { bytes: Buffer } | { problem: string };

const FETCH_TIMEOUT_MS = 15_000;
const MAX_REDIRECTS = 3;

/** Addresses of this machine and of private networks, which a file uploaded to the admin must not make the server fetch from. */
const PRIVATE = new BlockList();
for (const [network, prefix] of [['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.168.0.0', 16], ['224.0.0.0', 3]] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [['::', 127], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['::ffff:0:0', 96]] as const) PRIVATE.addSubnet(network, prefix, 'ipv6');

/** Whether the host is, or its name points to, an address of this machine or a private network. */
async function isPrivateHost(hostname: string): Promise<boolean> {
  const host = hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true }).catch(() => []);
  return addresses.some(({ address, family }) => PRIVATE.check(address, family === 6 ? 'ipv6' : 'ipv4'));
}

/**
 * Where an import's product photos come from: with a folder (--images), the file named as the
 * address's last part (or as the whole value, when the export holds only a name); otherwise the
 * address itself, fetched only over http or https, at most MAX_UPLOAD_BYTES and FETCH_TIMEOUT_MS,
 * following at most three redirects, each to http(s) again (and, for a file uploaded to the admin,
 * never to this machine or a private network). What is fetched is only bytes: the
 * image pipeline decides by their content whether they are a photo (JPEG, PNG or WebP).
 */
export class ImportImages {
  constructor(
    private readonly folder: string | undefined,
    /** The command run by the owner may fetch from her own network; a file uploaded to the admin may not. */
    private readonly privateHostsAllowed = true,
  ) {}

  async find(source: string): Promise<FoundImage> {
    return this.folder ? this.fromFolder(this.folder, source) : this.fetch(source);
  }

  private async fromFolder(folder: string, source: string): Promise<FoundImage> {
    let name = source;
    try {
      name = decodeURIComponent(new URL(source).pathname.split('/').pop() ?? '');
    } catch {
      // Not an address: the value is the file's name itself.
    }
    // Only the name counts: a value such as ../../etc/passwd looks in the folder for "passwd".
    const file = path.join(folder, path.basename(name));
    try {
      const info = await stat(file);
      if (!info.isFile()) return { problem: `${path.basename(name)} is not a file in ${folder}` };
      if (info.size > MAX_UPLOAD_BYTES) return { problem: `${path.basename(name)} is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB` };
      return { bytes: await readFile(file) };
    } catch {
      return { problem: `${path.basename(name) || source} was not found in ${folder}` };
    }
  }

  private async fetch(source: string, redirects = 0): Promise<FoundImage> {
    let url: URL;
    try {
      url = new URL(source);
    } catch {
      return { problem: `${source.slice(0, 200)} is not an address (give --images with the folder of the photos)` };
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return { problem: `${url.protocol} addresses are not fetched, only http and https` };
    if (!this.privateHostsAllowed && (await isPrivateHost(url.hostname))) return { problem: `${url.href} is on this machine or a private network, which an uploaded file may not fetch from` };
    let response: Response;
    try {
      response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), headers: { accept: 'image/jpeg, image/png, image/webp' } });
    } catch (error) {
      return { problem: `${url.href} could not be fetched: ${(error as Error).name === 'TimeoutError' ? `no answer within ${FETCH_TIMEOUT_MS / 1000} s` : (error as Error).message}` };
    }
    if (response.status >= 300 && response.status < 400) {
      const location = response.headers.get('location');
      await response.body?.cancel();
      if (!location || redirects >= MAX_REDIRECTS) return { problem: `${url.href} redirects too often` };
      return this.fetch(new URL(location, url).href, redirects + 1);
    }
    if (!response.ok) {
      await response.body?.cancel();
      return { problem: `${url.href} answered ${response.status}` };
    }
    const declared = Number(response.headers.get('content-length') ?? 0);
    if (declared > MAX_UPLOAD_BYTES) {
      await response.body?.cancel();
      return { problem: `${url.href} is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB` };
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      if (!response.body) return { problem: `${url.href} sent nothing` };
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        size += chunk.length;
        if (size > MAX_UPLOAD_BYTES) {
          await response.body?.cancel();
          return { problem: `${url.href} is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB` };
        }
        chunks.push(Buffer.from(chunk));
      }
    } catch (error) {
      return { problem: `${url.href} could not be read: ${(error as Error).message}` };
    }
    return { bytes: Buffer.concat(chunks) };
  }
}
