import { describe, expect, it } from 'vitest';
import { SessionCache, type CachedSession } from './session-cache.js';

const session = (userId: string): CachedSession => ({
  user: { id: userId, email: `${userId}@example.com`, lastLoginTime: null, isAdmin: false },
  lastSeenAt: new Date(0),
  expiresAt: new Date(1_000_000),
});

describe('SessionCache', () => {
  it('keeps a session for its time limit and not a moment longer', () => {
    const cache = new SessionCache(1000, 10, () => 0);
    cache.set('a', session('u1'), cache.version, 5000);
    expect(cache.get('a', 5999)?.user.id).toBe('u1');
    expect(cache.get('a', 6000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('keeps sessions read together for between half and all of the time limit, spread, so that they are not read again together', () => {
    const cache = new SessionCache(1000, 1000);
    const hashes = Array.from({ length: 400 }, (_, index) => `s${index}`);
    for (const hash of hashes) cache.set(hash, session(hash), cache.version, 0);
    const keptAt = (now: number) => hashes.filter((hash) => cache.get(hash, now) !== undefined).length;
    expect(keptAt(499)).toBe(400);
    // By the spread's middle about half have ended (200 expected: outside this range about once in 10⁸ runs).
    const endedBy750 = 400 - keptAt(750);
    expect(endedBy750).toBeGreaterThan(140);
    expect(endedBy750).toBeLessThan(260);
    expect(keptAt(1000)).toBe(0);
  });

  it('drops the least recently used session when full', () => {
    const cache = new SessionCache(1000, 2);
    cache.set('a', session('u1'), cache.version, 0);
    cache.set('b', session('u2'), cache.version, 0);
    cache.get('a', 1);
    cache.set('c', session('u3'), cache.version, 1);
    expect(cache.get('b', 2)).toBeUndefined();
    expect(cache.get('a', 2)).toBeDefined();
    expect(cache.get('c', 2)).toBeDefined();
  });

  it('keeps nothing read before a drop, which the read may not have seen', () => {
    const cache = new SessionCache(1000, 10);
    const readAt = cache.version;
    cache.sessionEnded('other');
    cache.set('a', session('u1'), readAt, 0);
    expect(cache.get('a', 1)).toBeUndefined();
    cache.set('a', session('u1'), cache.version, 0);
    expect(cache.get('a', 1)).toBeDefined();
  });

  it('drops an ended session, a user’s sessions with it, and everything on a role change or missed notices', () => {
    const cache = new SessionCache(1000, 10);
    const fill = () => {
      for (const [hash, user] of [['a', 'u1'], ['b', 'u1'], ['c', 'u2']] as const) cache.set(hash, session(user), cache.version, 0);
    };
    fill();
    cache.sessionEnded('a');
    expect([cache.get('a', 1), cache.get('b', 1)?.user.id, cache.get('c', 1)?.user.id]).toEqual([undefined, 'u1', 'u2']);
    cache.dropWithUser('b');
    expect([cache.get('b', 1), cache.get('c', 1)?.user.id]).toEqual([undefined, 'u2']);
    fill();
    cache.dropWithUser('a');
    expect(cache.size).toBe(1);
    cache.rolesChanged();
    expect(cache.size).toBe(0);
    fill();
    cache.noticesMissed();
    expect(cache.size).toBe(0);
  });
});
