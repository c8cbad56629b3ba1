import type { SessionNoticeListener } from '#server/notices/live-hub.js';
import type { SessionUser } from '#shared/auth.js';

/** How long a session read from the database is trusted without reading it again. */
export const SESSION_CACHE_SECONDS = 30;
/** The most sessions a process keeps; the least recently used go first. */
const SESSION_CACHE_ENTRIES = 10_000;
/**
 * Each session is trusted for between half of SESSION_CACHE_SECONDS and all of it, drawn at random,
 * so that sessions read together (many customers at a sale's start, every customer after a restart)
 * are not all read again at one moment. In the benchmark, 3,000 sessions read within a few seconds
 * expired together and held cart additions at 70% of the maximum rate to a p99 of 300 ms for about
 * 3 s while they were read again (30 ms when they never expired).
 */
const CACHE_TIME_SPREAD = 0.5;

export interface CachedSession {
  /** The signed-in user (session.ts's CurrentUser, written out here so that the two modules do not import each other). */
  user: SessionUser & { id: string };
  lastSeenAt: Date;
  expiresAt: Date;
}

interface Entry extends CachedSession {
  cachedUntil: number;
}

/**
 * The sessions this process has read lately, by the hash of their id, so that most requests cost
 * neither a session nor an admin query. Whatever ends a session or changes the admins announces it
 * to every process (live-hub.ts), and the entries it concerns are dropped when the notice arrives;
 * the time limit bounds what a lost notice can cost.
 *
 * A read from the database that was under way when a notice arrived may have seen the state before
 * the change, so it is kept only when no entry was dropped since it began (see `version`).
 */
export class SessionCache implements SessionNoticeListener {
  // A Map iterates in insertion order, so re-inserting on use keeps the least recently used first.
  private readonly entries = new Map<string, Entry>();
  private drops = 0;

  constructor(
    private readonly ttlMs = SESSION_CACHE_SECONDS * 1000,
    private readonly maxEntries = SESSION_CACHE_ENTRIES,
    /** A number from 0 to 1 for each session kept: the share of CACHE_TIME_SPREAD taken off its time. */
    private readonly random = Math.random,
  ) {}

  /** Taken before reading a session from the database, and given back to `set` with what was read. */
  get version(): number {
    return this.drops;
  }

  get size(): number {
    return this.entries.size;
  }

  get(sessionHash: string, now: number): CachedSession | undefined {
    const entry = this.entries.get(sessionHash);
    if (!entry) return undefined;
    this.entries.delete(sessionHash);
    if (entry.cachedUntil <= now) return undefined;
    this.entries.set(sessionHash, entry);
    return entry;
  }

  /** Keeps a session read from the database, unless something was dropped since the read began. */
  set(sessionHash: string, session: CachedSession, readAtVersion: number, now: number): void {
    if (readAtVersion !== this.drops) return;
    this.entries.delete(sessionHash);
    this.entries.set(sessionHash, { ...session, cachedUntil: now + this.ttlMs * (1 - CACHE_TIME_SPREAD * this.random()) });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  /** Forgets the session and every other session of its user. */
  dropWithUser(sessionHash: string): void {
    const userId = this.entries.get(sessionHash)?.user.id;
    this.sessionEnded(sessionHash);
    if (userId === undefined) return;
    for (const [hash, entry] of this.entries) if (entry.user.id === userId) this.entries.delete(hash);
  }

  sessionEnded(sessionHash: string): void {
    this.drops++;
    this.entries.delete(sessionHash);
  }

  // Roles change rarely (the admin command, ADMIN_EMAILS at start, an admin deleting their account),
  // so forgetting every session then costs little and cannot miss one.
  rolesChanged(): void {
    this.clear();
  }

  noticesMissed(): void {
    this.clear();
  }

  private clear(): void {
    this.drops++;
    this.entries.clear();
  }
}
