import { describe, expect, it } from 'vitest';
import { isPageContent, securityHeaders } from './security-headers.js';

describe('security headers', () => {
  it('leaves the page headers off only what a browser never shows as a page', () => {
    for (const inert of ['application/json; charset=utf-8', 'text/javascript; charset=utf-8', 'text/css', 'image/webp', 'image/jpeg', 'text/event-stream; charset=utf-8', 'font/woff2', 'application/manifest+json'])
      expect(isPageContent(inert), inert).toBe(false);
    for (const page of ['text/html; charset=utf-8', 'image/svg+xml', 'application/pdf', 'application/xml', 'text/xml', 'application/octet-stream', undefined]) expect(isPageContent(page), String(page)).toBe(true);
  });

  it('insists on HTTPS only for a shop served over it, and writes the policy in directive order', () => {
    const plain = securityHeaders({ contentSecurityPolicy: { 'default-src': ["'self'"], 'upgrade-insecure-requests': [] }, https: false });
    expect(plain.every['strict-transport-security']).toBeUndefined();
    expect(plain.page['content-security-policy']).toBe("default-src 'self'; upgrade-insecure-requests");
    const secure = securityHeaders({ contentSecurityPolicy: null, https: true });
    expect(secure.every['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(secure.page['content-security-policy']).toBeUndefined();
  });
});
