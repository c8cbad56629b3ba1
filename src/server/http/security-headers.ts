import type { FastifyInstance } from 'fastify';

/**
 * The security headers, by kind of answer (the table is in the README's Security headers section).
 * Every answer says what it is and who may embed it (nosniff, Cross-Origin-Resource-Policy) and, on
 * HTTPS, that the shop is only ever reached over HTTPS. The headers that govern a page the browser
 * shows (its content security policy, framing, opener, referrer) go on every answer that can be shown
 * as a page of its own: HTML, and anything not known to be inert (SVG, PDF, XML can run or embed more
 * than they seem). Images, scripts, styles, JSON and event streams are never such a page, and carry
 * the first group alone. The headers are written once, at start, rather than rebuilt for each answer
 * (which cost a fifth of a cached answer's time).
 */

/** Content types that a browser never shows as a page with its own policy: only these go without the page headers. */
const INERT_CONTENT = /^(application\/(json|javascript|manifest\+json)|text\/(javascript|css|event-stream|plain)|image\/(webp|jpeg|png|avif|gif|x-icon|vnd\.microsoft\.icon)|font\/)/;

declare module 'fastify' {
  interface FastifyInstance {
    /** The security headers of every answer, for a route that writes its answer's head itself (a hijacked event stream). */
    everyAnswerHeaders: Record<string, string>;
  }
}

export interface SecurityHeaderSettings {
  /** The page's content security policy directives; null: none (development, whose pages run inline scripts). */
  contentSecurityPolicy: Record<string, string[]> | null;
  /** Whether the shop is served over HTTPS, so that browsers should never reach it otherwise. */
  https: boolean;
}

export interface SecurityHeaders {
  /** On every answer. */
  every: Record<string, string>;
  /** Added on answers that may be shown as a page. */
  page: Record<string, string>;
}

export function securityHeaders({ contentSecurityPolicy, https }: SecurityHeaderSettings): SecurityHeaders {
  const every: Record<string, string> = {
    'x-content-type-options': 'nosniff',
    'cross-origin-resource-policy': 'same-origin',
    ...(https ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
  };
  const page: Record<string, string> = {
    ...(contentSecurityPolicy ? { 'content-security-policy': policyText(contentSecurityPolicy) } : {}),
    'cross-origin-opener-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'SAMEORIGIN',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-permitted-cross-domain-policies': 'none',
    // The old XSS auditors did more harm than good; 0 turns off any left.
    'x-xss-protection': '0',
  };
  return { every, page };
}

const policyText = (directives: Record<string, string[]>) =>
  Object.entries(directives)
    .map(([name, sources]) => [name, ...sources].join(' '))
    .join('; ');

/** Whether an answer of this content type can be shown as a page, and so takes the page headers too. */
export const isPageContent = (contentType: string | undefined): boolean => contentType === undefined || !INERT_CONTENT.test(contentType);

/**
 * Adds the headers to every answer once its content type is known. A page header the route set itself
 * (a stricter policy for one page, say) is kept. A hijacked answer skips the hooks: it adds
 * `app.everyAnswerHeaders` to its head.
 */
export function registerSecurityHeaders(app: FastifyInstance, { every, page }: SecurityHeaders): void {
  app.decorate('everyAnswerHeaders', every);
  const pageEntries = Object.entries(page);
  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.headers(every);
    const contentType = reply.getHeader('content-type');
    if (isPageContent(typeof contentType === 'string' ? contentType : undefined)) {
      for (const [name, value] of pageEntries) if (!reply.hasHeader(name)) reply.header(name, value);
    }
    done(null, payload);
  });
}
