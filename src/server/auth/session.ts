import { createHash } from 'node:crypto';
import { and, eq, gt, lt } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ADMIN_SESSION_IDLE_HOURS, SESSION_DAYS, SESSION_IDLE_DAYS, type SessionUser } from '#shared/auth.js';
import { announceSessionEnded } from '#server/notices/live-hub.js';
import { isAdminUser } from './roles.js';
import type { CachedSession, SessionCache } from './session-cache.js';
import type { Config } from '#server/config.js';
import type { Database } from '#server/db/client.js';
import { sessions, users } from '#server/db/schema.js';
import { HttpError } from '#server/http/errors.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Use is recorded at most this often per session, so that reading a page does not cost a write each time. */
const SESSION_TOUCH_MINUTES = 5;
const COOKIE_MAX_AGE_SECONDS = (SESSION_DAYS * DAY) / 1000;

interface SessionCookie {
  name: string;
  secure: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    sessionCookie: SessionCookie;
    /** The sessions this process read lately (session-cache.ts); app.ts makes it. */
    sessionCache: SessionCache;
  }
  interface FastifyRequest {
    /** Set when this request moved the session's end forward, so that the cookie is sent again. */
    sessionSlid: boolean;
  }
}

/**
 * Under https the cookie carries the __Host- prefix: the browser then keeps it only when it is
 * Secure, for Path=/ and without a Domain, so no sibling subdomain or plain-http page can plant or
 * overwrite it (https://datatracker.ietf.org/doc/html/draft-ietf-httpbis-rfc6265bis#name-the-__host-prefix).
 * Plain http cannot set a Secure cookie, so local development keeps the plain name.
 */
function sessionCookieFor(publicUrl: string): SessionCookie {
  const secure = publicUrl.startsWith('https:');
  return { name: secure ? '__Host-session' : 'session', secure };
}

/** The session cookie's name and attributes follow PUBLIC_URL; a used session's cookie is sent again. */
export function registerSessionCookie(app: FastifyInstance, config: Config): void {
  app.decorate('sessionCookie', sessionCookieFor(config.publicUrl));
  app.decorateRequest('sessionSlid', false);
  app.addHook('onSend', async (request, reply) => {
    const sessionId = readSessionId(request);
    if (request.sessionSlid && sessionId) setSessionCookie(reply, sessionId);
  });
}

export function readSessionId(request: FastifyRequest): string | undefined {
  return request.cookies[request.server.sessionCookie.name];
}

const cookieOptions = ({ secure }: SessionCookie) => ({ httpOnly: true, sameSite: 'lax', secure, path: '/' }) as const;

/** The browser keeps the cookie exactly as long as the server keeps the session unless it is used again. */
export function setSessionCookie(reply: FastifyReply, sessionId: string): void {
  const cookie = reply.server.sessionCookie;
  reply.setCookie(cookie.name, sessionId, { ...cookieOptions(cookie), maxAge: COOKIE_MAX_AGE_SECONDS });
}

/**
 * Called when the request has ended its session (or the whole account): this process forgets the
 * session and its user's others at once, before the notice that tells every process comes back.
 */
export function clearSessionCookie(reply: FastifyReply): void {
  reply.request.sessionSlid = false;
  const sessionId = readSessionId(reply.request);
  if (sessionId) reply.server.sessionCache.dropWithUser(hashSecret(sessionId));
  const cookie = reply.server.sessionCookie;
  reply.clearCookie(cookie.name, cookieOptions(cookie));
}

/**
 * The Set-Cookie value that a request which moved its session's end forward must send, for a reply
 * that bypasses Fastify's hooks (a hijacked event stream); undefined when there is none to send.
 */
export function resentSessionCookie(request: FastifyRequest): string | undefined {
  const sessionId = readSessionId(request);
  if (!request.sessionSlid || !sessionId) return undefined;
  const cookie = request.server.sessionCookie;
  return request.server.serializeCookie(cookie.name, sessionId, { ...cookieOptions(cookie), maxAge: COOKIE_MAX_AGE_SECONDS });
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url');
}

export interface CurrentUser extends SessionUser {
  id: string;
}

/**
 * The session with that hash when it has neither expired nor been left unused too long. A session
 * found idle is deleted, since it can never be used again, and announced like a sign-out.
 */
async function findActiveSession(db: Database, idHash: string, now: number): Promise<CachedSession | null> {
  const [row] = await db
    .select({ id: users.id, email: users.email, lastLoginAt: users.lastLoginAt, lastSeenAt: sessions.lastSeenAt, expiresAt: sessions.expiresAt, isAdmin: isAdminUser })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.idHash, idHash), gt(sessions.expiresAt, new Date(now))))
    .limit(1);
  if (!row) return null;
  const { isAdmin } = row;
  const idleLimit = isAdmin ? ADMIN_SESSION_IDLE_HOURS * HOUR : SESSION_IDLE_DAYS * DAY;
  if (now - row.lastSeenAt.getTime() > idleLimit) {
    const ended = await db.delete(sessions).where(eq(sessions.idHash, idHash)).returning({ idHash: sessions.idHash });
    if (ended.length > 0) await announceSessionEnded(db, idHash);
    return null;
  }
  return {
    user: { id: row.id, email: row.email, lastLoginTime: row.lastLoginAt?.toISOString() ?? null, isAdmin },
    lastSeenAt: row.lastSeenAt,
    expiresAt: row.expiresAt,
  };
}

/**
 * Whether the session may still be used; checking does not count as use. It always asks the
 * database: event streams call it at every heartbeat to catch a session ended without a notice.
 */
export async function isSessionActive(db: Database, idHash: string): Promise<boolean> {
  return (await findActiveSession(db, idHash, Date.now())) !== null;
}

export interface UserSession {
  user: CurrentUser;
  /** The hash of the session id, which names the session everywhere but in its cookie. */
  sessionHash: string;
}

/**
 * The user and session behind the request's cookie, or null for a visitor or an ended session.
 * A use records itself and moves the session's end forward, but only when the last record is a few
 * minutes old: most requests then cost no write.
 *
 * A session this process read lately answers without the database while its last recorded use is
 * fresher than that: it can then be neither idle nor due for a record. The cached use and end are
 * never later than the database's (a use recorded by another process only moves them forward), so
 * a session the cache finds unusable or due is read again, and the rules work on the database's values.
 */
export async function findUserSession(db: Database, request: FastifyRequest): Promise<UserSession | null> {
  const sessionId = readSessionId(request);
  if (!sessionId) return null;
  const sessionHash = hashSecret(sessionId);
  const now = Date.now();
  const cache = request.server.sessionCache;
  const cached = cache.get(sessionHash, now);
  if (cached && now < cached.expiresAt.getTime() && now - cached.lastSeenAt.getTime() < SESSION_TOUCH_MINUTES * MINUTE) {
    return { user: cached.user, sessionHash };
  }
  const readAtVersion = cache.version;
  const session = await findActiveSession(db, sessionHash, now);
  if (!session) return null;
  if (now - session.lastSeenAt.getTime() >= SESSION_TOUCH_MINUTES * MINUTE) {
    // Of requests racing to record the same use, PostgreSQL re-checks the condition after the first
    // commits, so only one of them writes.
    const slid = await db
      .update(sessions)
      .set({ lastSeenAt: new Date(now), expiresAt: new Date(now + SESSION_DAYS * DAY) })
      .where(and(eq(sessions.idHash, sessionHash), lt(sessions.lastSeenAt, new Date(now - SESSION_TOUCH_MINUTES * MINUTE))))
      .returning({ idHash: sessions.idHash });
    if (slid.length > 0) {
      request.sessionSlid = true;
      session.lastSeenAt = new Date(now);
      session.expiresAt = new Date(now + SESSION_DAYS * DAY);
    }
  }
  cache.set(sessionHash, session, readAtVersion, now);
  return { user: session.user, sessionHash };
}

/** The user behind the request's session cookie, or null for a visitor or an ended session. */
export async function findSessionUser(db: Database, request: FastifyRequest): Promise<CurrentUser | null> {
  return (await findUserSession(db, request))?.user ?? null;
}

/** The signed-in user and their session, or a 401 for everyone else. */
export async function requireUserSession(db: Database, request: FastifyRequest): Promise<UserSession> {
  const session = await findUserSession(db, request);
  if (!session) throw new HttpError(401, 'unauthorized', 'Sign in first.');
  return session;
}

/** The signed-in user, or a 401 for everyone else. */
export async function requireUser(db: Database, request: FastifyRequest): Promise<CurrentUser> {
  return (await requireUserSession(db, request)).user;
}

/** The signed-in admin: 401 for a visitor, 403 for a customer. */
export async function requireAdmin(db: Database, request: FastifyRequest): Promise<CurrentUser> {
  const user = await requireUser(db, request);
  if (!user.isAdmin) throw new HttpError(403, 'forbidden', 'Admins only.');
  return user;
}
