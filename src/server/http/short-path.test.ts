import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { ShortPath, shortPathQuery } from './short-path.js';

/** A response that keeps what was written to it. */
function recordingResponse() {
  const written: { status?: number; headers?: Record<string, string>; body?: Buffer } = {};
  const response = {
    writeHead(status: number, headers: Record<string, string>) {
      Object.assign(written, { status, headers });
      return response;
    },
    end(body?: Buffer) {
      written.body = body;
    },
  };
  return { response: response as unknown as ServerResponse, written };
}

const request = (method: string, url: string) => ({ method, url, headers: {} }) as IncomingMessage;

describe('the short path', () => {
  const open = () => {
    const shortPath = new ShortPath();
    shortPath.isOpen = () => true;
    shortPath.headers = { every: { 'x-content-type-options': 'nosniff' }, page: { 'x-frame-options': 'SAMEORIGIN' } };
    return shortPath;
  };

  it('answers from memory with the security headers by kind, and leaves the rest to Fastify', () => {
    const shortPath = open();
    const recorded: unknown[][] = [];
    shortPath.record = (...args) => void recorded.push(args);
    shortPath.add('/api/products', '/api/products', () => ({ status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: Buffer.from('{}') }));
    shortPath.addFallback('unmatched', ({ url }) => (url === '/' ? { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: Buffer.from('<p>') } : undefined));

    const json = recordingResponse();
    expect(shortPath.answer(request('GET', '/api/products?page=1'), json.response)).toBe(true);
    expect(json.written.headers).toEqual({ 'x-content-type-options': 'nosniff', 'content-type': 'application/json; charset=utf-8', 'content-length': '2' });
    const page = recordingResponse();
    expect(shortPath.answer(request('GET', '/'), page.response)).toBe(true);
    expect(page.written.headers).toMatchObject({ 'x-frame-options': 'SAMEORIGIN', 'content-length': '3' });
    expect(recorded.map(([method, route, status]) => [method, route, status])).toEqual([
      ['GET', '/api/products', 200],
      ['GET', 'unmatched', 200],
    ]);

    for (const [method, url] of [
      ['HEAD', '/api/products'],
      ['POST', '/api/products'],
      ['GET', '/elsewhere'],
    ]) {
      expect(shortPath.answer(request(method!, url!), recordingResponse().response), `${method} ${url}`).toBe(false);
    }
    shortPath.isOpen = () => false;
    expect(shortPath.answer(request('GET', '/api/products'), recordingResponse().response)).toBe(false);
  });

  it('sends an answer made once with the same head every time, and each answer with its own', () => {
    const shortPath = open();
    const page = { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: Buffer.from('<p>') } as const;
    const notModified = { status: 304, headers: { etag: '"a"' } } as const;
    shortPath.add('/', 'page', ({ headers }) => (headers['if-none-match'] ? notModified : page));
    const send = (headers: Record<string, string>) => {
      const { response, written } = recordingResponse();
      shortPath.answer({ method: 'GET', url: '/', headers } as IncomingMessage, response);
      return written;
    };
    const [first, second, revalidated] = [send({}), send({}), send({ 'if-none-match': '"a"' })];
    expect(second.headers).toBe(first.headers);
    expect(first).toEqual({ status: 200, headers: { 'x-content-type-options': 'nosniff', 'x-frame-options': 'SAMEORIGIN', 'content-type': 'text/html; charset=utf-8', 'content-length': '3' }, body: page.body });
    // A head without a content type gets the page's headers too, as Fastify's hook gives them.
    expect(revalidated).toEqual({ status: 304, headers: { 'x-content-type-options': 'nosniff', 'x-frame-options': 'SAMEORIGIN', etag: '"a"' }, body: undefined });
    // The answers themselves are left as they were made.
    expect(page.headers).toEqual({ 'content-type': 'text/html; charset=utf-8' });
  });

  it('leaves a request to Fastify when making its answer fails', () => {
    const shortPath = open();
    shortPath.add('/broken', '/broken', () => {
      throw new Error('a bug');
    });
    shortPath.addPrefix('/files/', '/files/:name', () => {
      throw new Error('another bug');
    });
    // Not even a later candidate answers it: Fastify's route meets the same failure and logs it.
    shortPath.addFallback('unmatched', () => ({ status: 200, headers: {}, body: Buffer.from('fallback') }));
    for (const url of ['/broken', '/files/a.js']) {
      const { response, written } = recordingResponse();
      expect(shortPath.answer(request('GET', url), response), url).toBe(false);
      expect(written).toEqual({});
    }
  });

  it('reads a query as the routes do, or not at all', () => {
    expect(shortPathQuery('?sort=price&q=%D0%BD%D0%BE%D0%BA%D1%82%D0%B8')?.get('q')).toBe('нокти');
    expect(shortPathQuery('?sort=price&sort=name')).toBeUndefined();
    expect(shortPathQuery('?q=%E0%A4%A')).toBeUndefined();
    expect(shortPathQuery('')?.size).toBe(0);
  });
});
