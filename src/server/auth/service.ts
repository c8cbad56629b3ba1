import { randomBytes } from 'node:crypto';
import { and, asc, count, eq, gt, isNull, lt, min, sql, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { AccountSessionRecord } from '#shared/account.js';
import {
  SESSION_DAYS,
  SIGN_IN_LINK_MINUTES,
  SIGN_IN_RATE_LIMIT,
  SIGN_IN_TOKEN_PARAM,
  type MAIL_LANGUAGES,
} from '#shared/auth.js';
import { isAdminEmail } from './roles.js';
import type { Database, Executor } from '#server/db/client.js';
import { inTransaction, lockSubject } from '#server/db/transaction.js';
import { sessions, signInTokens, users } from '#server/db/schema.js';
import { HttpError } from '#server/http/errors.js';
import { announceSessionEnded } from '#server/notices/live-hub.js';
import type { MailTextBook } from '#server/mail/mail-texts.js';
import type { Mailer } from '#server/mail/mailer.js';
import { hashSecret, type CurrentUser } from './session.js';
import { signInEmail } from './sign-in-email.js';

const MINUTE = 60_000;

/** 256 random bits, URL-safe. */
const newSecret = () => randomBytes(32).toString('base64url');

export interface SignInLinkRequest {
  email: string;
  language: (typeof MAIL_LANGUAGES)[number];
  clientAddress: string;
}

/**
 * Stores a new single-use token (only its hash) and mails the link. The answer is the same whether
 * or not an account exists; only rate limits and mail failures are reported.
 */
export async function requestSignInLink(
  db: Database,
  mail: { mailer: Mailer; texts: MailTextBook },
  publicUrl: string,
  { email, language, clientAddress }: SignInLinkRequest,
): Promise<void> {
  const now = Date.now();
  const windowStart = new Date(now - SIGN_IN_RATE_LIMIT.windowMinutes * MINUTE);
  const token = newSecret();
  // Counting and recording happen under locks on the address and the client, so that parallel
  // requests take turns and the limits hold exactly. Only links not yet used count: a used link
  // frees its place, so a person who signed in (or an office behind one address whose people did)
  // can ask again, while links sent to someone who never opens them stay bounded.
  await inTransaction(db, async (tx) => {
    await lockSubject(tx, 'signInEmail', email);
    await lockSubject(tx, 'signInClient', clientAddress);
    const openLinks = async (subject: SQL) => {
      const [row] = await tx
        .select({ total: count(), oldest: min(signInTokens.createdAt) })
        .from(signInTokens)
        .where(and(subject, gt(signInTokens.createdAt, windowStart), isNull(signInTokens.usedAt)));
      return { total: row?.total ?? 0, oldest: row?.oldest ?? null };
    };
    const byEmail = await openLinks(eq(signInTokens.email, email));
    const byClient = await openLinks(eq(signInTokens.requestedFrom, clientAddress));
    // A place frees when the oldest open link of each full limit leaves the window (or is used sooner).
    const freedAt = [
      byEmail.total >= SIGN_IN_RATE_LIMIT.perEmail ? byEmail.oldest : null,
      byClient.total >= SIGN_IN_RATE_LIMIT.perClient ? byClient.oldest : null,
    ]
      .filter((oldest) => oldest !== null)
      .map((oldest) => oldest.getTime() + SIGN_IN_RATE_LIMIT.windowMinutes * MINUTE);
    if (freedAt.length > 0) {
      const retryAfterSeconds = Math.max(1, Math.ceil((Math.max(...freedAt) - now) / 1000));
      throw new HttpError(429, 'rate_limited', 'Too many sign-in links are waiting to be used; try again later.', { retryAfterSeconds });
    }
    await tx.insert(signInTokens).values({
      tokenHash: hashSecret(token),
      email,
      requestedFrom: clientAddress,
      expiresAt: new Date(now + SIGN_IN_LINK_MINUTES * MINUTE),
    });
  });
  // Old tokens are useless after a day, even for rate limiting.
  await db.delete(signInTokens).where(lt(signInTokens.createdAt, new Date(now - 24 * 60 * MINUTE)));

  const link = `${publicUrl}/?${SIGN_IN_TOKEN_PARAM}=${token}`;
  try {
    // Sent at once, not through the mail queue: the visitor is waiting for it.
    await mail.mailer.send(signInEmail(email, link, language, mail.texts.texts(language)));
  } catch (error) {
    throw Object.assign(new HttpError(502, 'mail_failed', 'The sign-in e-mail could not be sent.'), { cause: error });
  }
}

export interface CompletedSignIn {
  sessionId: string;
  user: CurrentUser;
}

/** Uses a sign-in token once: checks it, creates the user if new, and opens a session. */
export async function completeSignIn(
  db: Database,
  log: FastifyBaseLogger,
  { token, email }: { token: string; email: string },
): Promise<CompletedSignIn> {
  const tokenHash = hashSecret(token);
  const [stored] = await db.select().from(signInTokens).where(eq(signInTokens.tokenHash, tokenHash));
  if (!stored) throw new HttpError(400, 'invalid_link', 'This sign-in link is not valid.');
  if (stored.usedAt) throw new HttpError(400, 'link_used', 'This sign-in link has already been used.');
  if (stored.expiresAt.getTime() <= Date.now()) throw new HttpError(400, 'link_expired', 'This sign-in link has expired.');
  if (stored.email !== email) throw new HttpError(400, 'email_mismatch', 'This sign-in link was sent to another e-mail address.');

  // The update is the real check: of two requests racing with one token, only one gets a row back.
  const [claimed] = await db
    .update(signInTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(signInTokens.tokenHash, tokenHash), isNull(signInTokens.usedAt), gt(signInTokens.expiresAt, new Date())))
    .returning({ email: signInTokens.email });
  if (!claimed) throw new HttpError(400, 'link_used', 'This sign-in link has already been used.');

  await db.insert(users).values({ email }).onConflictDoNothing({ target: users.email });
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (!user) throw new Error('The user is missing right after it was ensured');

  let lastLoginAt: Date | null = null;
  try {
    const [updated] = await db
      .update(users)
      .set({ lastLoginAt: sql`now()`, updatedAt: sql`now()` })
      .where(eq(users.id, user.id))
      .returning({ lastLoginAt: users.lastLoginAt });
    lastLoginAt = updated?.lastLoginAt ?? null;
  } catch (error) {
    log.warn({ err: error }, 'Could not record the sign-in time; signing in anyway');
  }

  const sessionId = newSecret();
  const now = Date.now();
  await db.delete(sessions).where(lt(sessions.expiresAt, new Date(now)));
  await db.insert(sessions).values({
    idHash: hashSecret(sessionId),
    userId: user.id,
    expiresAt: new Date(now + SESSION_DAYS * 24 * 60 * MINUTE),
    lastSeenAt: new Date(now),
  });
  return {
    sessionId,
    user: { id: user.id, email, lastLoginTime: lastLoginAt?.toISOString() ?? null, isAdmin: await isAdminEmail(db, email) },
  };
}

/**
 * Ends the session, and its event streams on every server process, and records the time; the session
 * ends even when the time cannot be recorded.
 */
export async function signOut(db: Database, log: FastifyBaseLogger, sessionId: string): Promise<void> {
  const idHash = hashSecret(sessionId);
  const ended = await inTransaction(db, async (tx) => {
    const [row] = await tx.delete(sessions).where(eq(sessions.idHash, idHash)).returning({ userId: sessions.userId });
    // Announced even when the row was already gone (deleted for being idle, say): its streams may still be open.
    await announceSessionEnded(tx, idHash);
    return row;
  });
  if (!ended) return;
  try {
    await db.update(users).set({ lastLogoutAt: sql`now()`, updatedAt: sql`now()` }).where(eq(users.id, ended.userId));
  } catch (error) {
    log.warn({ err: error }, 'Could not record the sign-out time');
  }
}

// A customer's rights over their data (account/service.ts): the account's row, sessions and
// sign-in links belong to this module, so their part of the copy and of the deletion is here.

export interface AccountRecord {
  email: string;
  createdAt: Date;
  lastLoginAt: Date | null;
  lastLogoutAt: Date | null;
}

export async function findAccount(db: Executor, userId: string): Promise<AccountRecord | undefined> {
  const [row] = await db
    .select({ email: users.email, createdAt: users.createdAt, lastLoginAt: users.lastLoginAt, lastLogoutAt: users.lastLogoutAt })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}

/** Every session the user has, oldest first, by its times alone: whoever read an id in the file could sign in with it. */
export async function listUserSessions(db: Executor, userId: string, currentHash: string): Promise<AccountSessionRecord[]> {
  const rows = await db.select().from(sessions).where(eq(sessions.userId, userId)).orderBy(asc(sessions.createdAt));
  return rows.map((row) => ({
    createdAt: row.createdAt.toISOString(),
    lastSeenAt: row.lastSeenAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    current: row.idHash === currentHash,
  }));
}

/**
 * Takes the e-mail off a deleted customer's account, in the caller's transaction. The row stays
 * under the placeholder, since the orders kept for accounting refer to it; no link can be sent to
 * the placeholder, and the e-mail can sign up again as a new customer. False when the account no
 * longer has that e-mail (a deletion that ran first).
 */
export async function releaseAccountEmail(tx: Executor, userId: string, email: string, placeholder: string): Promise<boolean> {
  const released = await tx
    .update(users)
    .set({ email: placeholder, lastLoginAt: null, lastLogoutAt: null, updatedAt: sql`now()` })
    .where(and(eq(users.id, userId), eq(users.email, email)))
    .returning({ id: users.id });
  return released.length > 0;
}

/** Forgets the sign-in links sent to the e-mail, with the client addresses that asked for them, in the caller's transaction. */
export async function forgetSignInLinks(tx: Executor, email: string): Promise<void> {
  await tx.delete(signInTokens).where(eq(signInTokens.email, email));
}

/**
 * Ends every session of the user in the caller's transaction; when it commits, every server process
 * ends the sessions' event streams, as at sign-out.
 */
export async function endAllSessions(tx: Executor, userId: string): Promise<void> {
  const ended = await tx.delete(sessions).where(eq(sessions.userId, userId)).returning({ idHash: sessions.idHash });
  for (const { idHash } of ended) await announceSessionEnded(tx, idHash);
}
