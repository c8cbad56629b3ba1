import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { ReadyAnswer } from './short-path.js';

export type Encoding = 'br' | 'gzip' | 'identity';

/** The compressed encodings an Accept-Encoding header accepts. */
interface Accepted {
  br: boolean;
  gzip: boolean;
}

/**
 * Accept-Encoding headers read so far: browsers send a handful of different ones, and reading one
 * again for every answer was a measurable part of a small answer's time. Bounded against a client
 * that sends a new one each time.
 */
const acceptedByHeader = new Map<string, Accepted>();
const MAX_REMEMBERED_HEADERS = 64;

function accepted(acceptEncoding: string): Accepted {
  let known = acceptedByHeader.get(acceptEncoding);
  if (known) return known;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [coding, ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase());
    if (!coding) continue;
    const quality = parameters.find((parameter) => parameter.startsWith('q='));
    weights.set(coding, quality === undefined ? 1 : Number(quality.slice(2)) || 0);
  }
  const accepts = (coding: string) => (weights.get(coding) ?? weights.get('*') ?? 0) > 0;
  known = { br: accepts('br'), gzip: accepts('gzip') };
  if (acceptedByHeader.size >= MAX_REMEMBERED_HEADERS) acceptedByHeader.clear();
  acceptedByHeader.set(acceptEncoding, known);
  return known;
}

/** The encoding to send for an Accept-Encoding header: brotli, else gzip, else none, among those it accepts and those available. */
export function chooseEncoding(acceptEncoding: string | undefined, available: (encoding: Encoding) => boolean = () => true): Encoding {
  if (!acceptEncoding) return 'identity';
  const accepts = accepted(acceptEncoding);
  if (accepts.br && available('br')) return 'br';
  if (accepts.gzip && available('gzip')) return 'gzip';
  return 'identity';
}

/**
 * One body's answers, made once for each encoding it has: the answer itself, and, where it has a
 * validator, the 304 for a client that holds it. A request then costs a choice, not a new header
 * object, and the short path sends the same objects every time (short-path.ts).
 */
export type EncodedAnswers = Partial<Record<Encoding, { ok: ReadyAnswer; notModified?: ReadyAnswer; etag?: string }>>;

/**
 * The answers of one body in each encoding it was made in (identity always), with these headers, a
 * strong validator each (they differ between encodings of one body, RFC 9110, section 8.8.3) and,
 * for a 200, its 304.
 */
export function encodedAnswers(status: number, headers: Record<string, string>, bodies: { identity: Buffer } & Partial<Record<Encoding, Buffer>>): EncodedAnswers {
  const hash = createHash('sha256').update(bodies.identity).digest('base64url').slice(0, 27);
  const compressed = Boolean(bodies.br || bodies.gzip);
  const answers: EncodedAnswers = {};
  for (const encoding of ['identity', 'gzip', 'br'] as const) {
    const body = bodies[encoding];
    if (!body) continue;
    const etag = encoding === 'identity' ? `"${hash}"` : `"${hash}-${encoding}"`;
    const validated = { ...headers, ...(compressed ? { vary: 'accept-encoding' } : {}), etag };
    answers[encoding] = {
      ok: { status, headers: encoding === 'identity' ? validated : { ...validated, 'content-encoding': encoding }, body },
      notModified: status === 200 ? { status: 304, headers: validated } : undefined,
      etag,
    };
  }
  return answers;
}

/** The answer in the encoding the request accepts best among those made, or its 304 when the client holds that one already. */
export function pickAnswer(requestHeaders: IncomingHttpHeaders, answers: EncodedAnswers): ReadyAnswer {
  const made = answers[chooseEncoding(requestHeaders['accept-encoding'], (candidate) => answers[candidate] !== undefined)]!;
  return made.notModified && made.etag && noneMatch(requestHeaders['if-none-match'], made.etag) ? made.notModified : made.ok;
}

/** Whether If-None-Match names the validator (weak comparison, as RFC 9110 asks for it). */
function noneMatch(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag;
  });
}
