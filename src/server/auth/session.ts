import { createHash } from 'node:crypto';
import { and, eq, gt } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { SessionUser } from '../../shared/auth.js';
import { isAdminEmail } from '../admin/service.js';
import type { Database } from '../db/client.js';
import { sessions, users } from '../db/schema.js';
import { HttpError } from '../http/errors.js';

export const SESSION_COOKIE = 'session';

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url');
}

export interface CurrentUser extends SessionUser {
  id: string;
}

/** The user behind the request's session cookie, or null for a visitor or an expired session. */
export async function findSessionUser(db: Database, request: FastifyRequest): Promise<CurrentUser | null> {
  const sessionId = request.cookies[SESSION_COOKIE];
  if (!sessionId) return null;
  const [row] = await db
    .select({ id: users.id, email: users.email, lastLoginAt: users.lastLoginAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.idHash, hashSecret(sessionId)), gt(sessions.expiresAt, new Date())))
    .limit(1);
  if (!row) return null;
  return {
    id: row.id,
    email: row.email,
    lastLoginTime: row.lastLoginAt?.toISOString() ?? null,
    isAdmin: await isAdminEmail(db, row.email),
  };
}

/** The signed-in user, or a 401 for everyone else. */
export async function requireUser(db: Database, request: FastifyRequest): Promise<CurrentUser> {
  const user = await findSessionUser(db, request);
  if (!user) throw new HttpError(401, 'unauthorized', 'Sign in first.');
  return user;
}

/** The signed-in admin: 401 for a visitor, 403 for a customer. */
export async function requireAdmin(db: Database, request: FastifyRequest): Promise<CurrentUser> {
  const user = await requireUser(db, request);
  if (!user.isAdmin) throw new HttpError(403, 'forbidden', 'Admins only.');
  return user;
}
