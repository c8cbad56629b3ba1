import { eq, sql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { SESSION_DAYS } from '#shared/auth.js';
import { hashSecret } from '#server/auth/session.js';
import { admins, sessions } from '#server/db/schema.js';
import { openEventStream, type EventStreamReader } from '../support/event-stream.js';
import { deliverMarker } from './live-marker.js';
import { eventually } from './shopper.js';
import { latestOutboxLink, requestLink, signIn, tokenOf } from './sign-in.js';
import { createTestApp, describeEachDatabase, type TestApp } from './test-app.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const sessionIdOf = (cookie: string) => cookie.slice(cookie.indexOf('=') + 1);

/** Moves the session's recorded use (and, when given, its end) back in time, as if it had been idle. */
async function ageSession(testApp: TestApp, cookie: string, idleMs: number, expiresInMs?: number): Promise<void> {
  const now = Date.now();
  const idHash = hashSecret(sessionIdOf(cookie));
  await testApp.database.db
    .update(sessions)
    .set({ lastSeenAt: new Date(now - idleMs), ...(expiresInMs === undefined ? {} : { expiresAt: new Date(now + expiresInMs) }) })
    .where(eq(sessions.idHash, idHash));
  // Nothing but a test moves a recorded use backwards; the server's cached copy, rightly newer, goes with it.
  testApp.app.sessionCache.dropWithUser(idHash);
}

async function sessionRow(testApp: TestApp, cookie: string) {
  const [row] = await testApp.database.db.select().from(sessions).where(eq(sessions.idHash, hashSecret(sessionIdOf(cookie))));
  return row;
}

const me = async (testApp: TestApp, cookie: string) =>
  (await testApp.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } })).json<{ user: { email: string; isAdmin: boolean } | null }>().user;

/** Opens a stream over real HTTP and waits until the server has subscribed it. */
async function openReadyStream(address: string, cookie: string): Promise<EventStreamReader> {
  const stream = await openEventStream(`${address}/api/events`, cookie);
  await stream.waitFor('ready');
  return stream;
}

describeEachDatabase(
  'the session cookie under https',
  (context) => {
    it('is __Host-session, Secure, HttpOnly, for Path=/ and no Domain; requests with it work and sign-out clears it', async () => {
      const testApp = context();
      await requestLink(testApp, 'secure@example.com');
      const token = tokenOf(await latestOutboxLink(testApp, 'secure@example.com'));
      const signedIn = await testApp.app.inject({ method: 'POST', url: '/api/auth/sessions', payload: { token, email: 'secure@example.com' } });
      expect(signedIn.statusCode, signedIn.body).toBe(200);
      const cookie = signedIn.cookies.find((candidate) => candidate.name === '__Host-session');
      expect(cookie).toMatchObject({ secure: true, httpOnly: true, path: '/', sameSite: 'Lax', maxAge: SESSION_DAYS * 24 * 60 * 60 });
      expect(cookie!.domain).toBeUndefined();
      expect(signedIn.cookies.map((candidate) => candidate.name)).toEqual(['__Host-session']);

      const header = `__Host-session=${cookie!.value}`;
      expect(await me(testApp, header)).toMatchObject({ email: 'secure@example.com' });
      const cart = await testApp.app.inject({ method: 'GET', url: '/api/cart', headers: { cookie: header } });
      expect(cart.statusCode).toBe(200);
      // Only the prefixed name counts, so a cookie planted under the plain name by a plain-http page is no session.
      expect(await me(testApp, `session=${cookie!.value}`)).toBeNull();

      const signedOut = await testApp.app.inject({ method: 'DELETE', url: '/api/auth/session', headers: { cookie: header } });
      expect(signedOut.statusCode).toBe(204);
      // A browser drops a __Host- cookie only when the clearing one carries the same attributes.
      expect(signedOut.cookies.find((candidate) => candidate.name === '__Host-session')).toMatchObject({ value: '', secure: true, path: '/' });
      expect(await me(testApp, header)).toBeNull();
    });
  },
  { PUBLIC_URL: 'https://shop.test' },
);

describeEachDatabase('idle sessions', (context) => {
  beforeAll(async () => {
    await context().database.db.insert(admins).values({ id: 'boss@example.com', email: 'boss@example.com' });
  });

  it('ends a customer session unused for more than 30 days, and keeps one unused for 29', async () => {
    const testApp = context();
    const idle = await signIn(testApp, 'idle@example.com');
    const recent = await signIn(testApp, 'idle@example.com');
    await ageSession(testApp, idle, 31 * DAY);
    await ageSession(testApp, recent, 29 * DAY);
    expect((await testApp.app.inject({ method: 'GET', url: '/api/cart', headers: { cookie: idle } })).statusCode).toBe(401);
    expect(await me(testApp, idle)).toBeNull();
    expect((await testApp.app.inject({ method: 'GET', url: '/api/cart', headers: { cookie: recent } })).statusCode).toBe(200);
  });

  it('ends an admin session unused for 13 hours, and keeps one unused for 11', async () => {
    const testApp = context();
    const idle = await signIn(testApp, 'boss@example.com');
    const recent = await signIn(testApp, 'boss@example.com');
    await ageSession(testApp, idle, 13 * HOUR);
    await ageSession(testApp, recent, 11 * HOUR);
    expect((await testApp.app.inject({ method: 'GET', url: '/api/admin/orders', headers: { cookie: idle } })).statusCode).toBe(401);
    expect(await me(testApp, idle)).toBeNull();
    expect((await testApp.app.inject({ method: 'GET', url: '/api/admin/orders', headers: { cookie: recent } })).statusCode).toBe(200);
    expect(await me(testApp, recent)).toMatchObject({ email: 'boss@example.com', isAdmin: true });
  });

  it('records a use and moves the end forward only when the last record is a few minutes old, sending the cookie again', async () => {
    const testApp = context();
    const cookie = await signIn(testApp, 'regular@example.com');
    const fresh = await sessionRow(testApp, cookie);
    const soon = await testApp.app.inject({ method: 'GET', url: '/api/cart', headers: { cookie } });
    expect(soon.statusCode).toBe(200);
    expect(soon.cookies).toEqual([]);
    expect(await sessionRow(testApp, cookie)).toEqual(fresh);

    await ageSession(testApp, cookie, 10 * MINUTE, SESSION_DAYS * DAY - 10 * MINUTE);
    const aged = (await sessionRow(testApp, cookie))!;
    const before = Date.now();
    const later = await testApp.app.inject({ method: 'GET', url: '/api/cart', headers: { cookie } });
    expect(later.statusCode).toBe(200);
    expect(later.cookies).toEqual([
      expect.objectContaining({ name: 'session', value: sessionIdOf(cookie), httpOnly: true, path: '/', maxAge: SESSION_DAYS * 24 * 60 * 60 }),
    ]);
    const slid = (await sessionRow(testApp, cookie))!;
    expect(slid.lastSeenAt.getTime()).toBeGreaterThanOrEqual(before);
    expect(slid.lastSeenAt.getTime()).toBeGreaterThan(aged.lastSeenAt.getTime());
    expect(slid.expiresAt.getTime()).toBeGreaterThanOrEqual(before + SESSION_DAYS * DAY);
    expect(slid.expiresAt.getTime()).toBeGreaterThan(aged.expiresAt.getTime());
  });
});

describeEachDatabase('event streams and sign-out', (context) => {
  let address: string;
  beforeAll(async () => {
    address = await context().app.listen({ port: 0, host: '127.0.0.1' });
  });

  const signOut = (testApp: TestApp, cookie: string) => testApp.app.inject({ method: 'DELETE', url: '/api/auth/session', headers: { cookie } });

  it('ends the streams of a session within a second of its sign-out, and only that session’s', async () => {
    const testApp = context();
    const laptop = await signIn(testApp, 'eve@example.com');
    const phone = await signIn(testApp, 'eve@example.com');
    const laptopStream = await openReadyStream(address, laptop);
    const phoneStream = await openReadyStream(address, phone);
    try {
      expect((await signOut(testApp, laptop)).statusCode).toBe(204);
      expect(await laptopStream.waitForEnd(1000)).toBeLessThan(1000);
      await deliverMarker(testApp.database, [phoneStream]);
      expect(phoneStream.ended).toBe(false);
    } finally {
      laptopStream.close();
      phoneStream.close();
    }
  });

  it('sends a moved session’s cookie again on a stream', async () => {
    const testApp = context();
    const cookie = await signIn(testApp, 'streamer@example.com');
    await ageSession(testApp, cookie, 10 * MINUTE);
    const controller = new AbortController();
    try {
      const response = await fetch(`${address}/api/events`, { headers: { cookie }, signal: controller.signal });
      expect(response.status).toBe(200);
      const resent = response.headers.get('set-cookie') ?? '';
      expect(resent.startsWith(`session=${sessionIdOf(cookie)};`), resent).toBe(true);
      expect(resent).toContain(`Max-Age=${SESSION_DAYS * 24 * 60 * 60}`);
      expect(resent).toContain('HttpOnly');
    } finally {
      controller.abort();
    }
  });

  it('ends the stream of a signed-out session on another server process of the same database', async (test) => {
    const testApp = context();
    // PGlite serves one process (a second server on its DATA_DIR is refused), so only PostgreSQL has another process to tell.
    if (testApp.database.kind !== 'postgres') return test.skip();
    const other = await createTestApp('postgres', {}, { databaseUrl: testApp.databaseUrl });
    const streams: EventStreamReader[] = [];
    try {
      const otherAddress = await other.app.listen({ port: 0, host: '127.0.0.1' });
      const cookie = await signIn(testApp, 'frank@example.com');
      const staying = await signIn(testApp, 'frank@example.com');
      const here = await openReadyStream(address, cookie);
      const there = await openReadyStream(otherAddress, cookie);
      const otherSession = await openReadyStream(otherAddress, staying);
      streams.push(here, there, otherSession);

      expect((await signOut(testApp, cookie)).statusCode).toBe(204);
      expect(await there.waitForEnd(1000)).toBeLessThan(1000);
      expect(await here.waitForEnd(1000)).toBeLessThan(1000);
      // Announced here, heard there after the sign-out: the other process ended what it was going to end.
      await deliverMarker(testApp.database, [otherSession]);
      expect(otherSession.ended).toBe(false);
    } finally {
      for (const stream of streams) stream.close();
      await other.close();
    }
  });

  it('refuses a session’s 11th stream with 429 too_many_streams, and opens one again after another closes', async () => {
    const testApp = context();
    const cookie = await signIn(testApp, 'grace@example.com');
    const streams: EventStreamReader[] = [];
    const tryOpen = () => fetch(`${address}/api/events`, { headers: { cookie } });
    try {
      for (let count = 0; count < 10; count++) streams.push(await openReadyStream(address, cookie));
      const refused = await tryOpen();
      expect(refused.status).toBe(429);
      expect(await refused.json()).toEqual({ error: { code: 'too_many_streams', message: expect.any(String) } });
      // The limit is per session: the same customer signed in elsewhere is not held back.
      streams.push(await openReadyStream(address, await signIn(testApp, 'grace@example.com')));

      streams.shift()!.close();
      // The server learns of the closed connection a moment later.
      const started = Date.now();
      let reopened = await tryOpen();
      while (reopened.status === 429 && Date.now() - started < 2000) {
        await reopened.body?.cancel();
        await new Promise((resolve) => setTimeout(resolve, 20));
        reopened = await tryOpen();
      }
      expect(reopened.status).toBe(200);
      await reopened.body?.cancel();
    } finally {
      for (const stream of streams) stream.close();
    }
  });
});

describeEachDatabase(
  'event streams check their session at every heartbeat',
  (context) => {
    let address: string;
    beforeAll(async () => {
      address = await context().app.listen({ port: 0, host: '127.0.0.1' });
    });

    it('ends a stream whose session was deleted without an announcement, and keeps a live one open', async () => {
      const testApp = context();
      const gone = await signIn(testApp, 'heidi@example.com');
      const live = await signIn(testApp, 'heidi@example.com');
      const goneStream = await openReadyStream(address, gone);
      const liveStream = await openReadyStream(address, live);
      try {
        await testApp.database.db.delete(sessions).where(eq(sessions.idHash, hashSecret(sessionIdOf(gone))));
        expect(await goneStream.waitForEnd(1000)).toBeLessThan(1000);
        // Each heartbeat starts a check of the session, which takes milliseconds; three heartbeats after
        // the other stream ended, the live one's session has been checked since the deletion.
        const heartbeats = liveStream.keepAlives;
        await eventually(async () => liveStream.ended || liveStream.keepAlives >= heartbeats + 3, 5000, 'three more heartbeats');
        expect(liveStream.ended).toBe(false);
      } finally {
        goneStream.close();
        liveStream.close();
      }
    });

    it('ends a stream whose session expired or went idle', async () => {
      const testApp = context();
      const expiring = await signIn(testApp, 'ivan@example.com');
      const idle = await signIn(testApp, 'ivan@example.com');
      const expiringStream = await openReadyStream(address, expiring);
      const idleStream = await openReadyStream(address, idle);
      try {
        await testApp.database.db
          .update(sessions)
          .set({ expiresAt: sql`now() - interval '1 second'` })
          .where(eq(sessions.idHash, hashSecret(sessionIdOf(expiring))));
        await ageSession(testApp, idle, 31 * DAY);
        expect(await expiringStream.waitForEnd(1000)).toBeLessThan(1000);
        expect(await idleStream.waitForEnd(1000)).toBeLessThan(1000);
      } finally {
        expiringStream.close();
        idleStream.close();
      }
    });
  },
  {},
  { liveHeartbeatMs: 200 },
);
