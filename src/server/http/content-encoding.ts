export type Encoding = 'br' | 'gzip' | 'identity';

/** The encoding to send for an Accept-Encoding header: brotli, else gzip, else none, among those it accepts and those available. */
export function chooseEncoding(acceptEncoding: string | undefined, available: (encoding: Encoding) => boolean = () => true): Encoding {
  const weights = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [coding, ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase());
    if (!coding) continue;
    const quality = parameters.find((parameter) => parameter.startsWith('q='));
    weights.set(coding, quality === undefined ? 1 : Number(quality.slice(2)) || 0);
  }
  const accepts = (coding: string) => (weights.get(coding) ?? weights.get('*') ?? 0) > 0;
  if (available('br') && accepts('br')) return 'br';
  if (available('gzip') && accepts('gzip')) return 'gzip';
  return 'identity';
}

/** Whether If-None-Match names the validator (weak comparison, as RFC 9110 asks for it). */
export function noneMatch(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag;
  });
}
