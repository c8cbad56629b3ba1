import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses state-changing requests sent by other sites. Browsers name the sending page's origin in
 * the Origin header (and in Sec-Fetch-Site); the session cookie's SameSite=Lax is the second line.
 */
export function registerCsrfProtection(app: FastifyInstance, publicUrl: string): void {
  const publicOrigin = new URL(publicUrl).origin;
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    const origin = request.headers.origin;
    const ownOrigin = `${request.protocol}://${request.host}`;
    const crossSite = origin ? origin !== publicOrigin && origin !== ownOrigin : request.headers['sec-fetch-site'] === 'cross-site';
    if (crossSite) throw new HttpError(403, 'forbidden', 'Cross-site request refused');
  });
}
