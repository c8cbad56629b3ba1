import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAdmin, isAdminEmail, listAdmins, removeAdmin } from '#server/auth/roles.js';
import { admins, sessions, signInTokens, users } from '#server/db/schema.js';
import { signInLinkIn, startSmtpInbox, type SmtpInbox } from '../support/smtp-inbox.js';
import { latestOutboxLink, nextClientAddress, requestLink, signIn, tokenOf } from './sign-in.js';
import { createTestApp, databaseTargets, describeEachDatabase, TEST_MAILBOX_KEY, type TestApp } from './test-app.js';

const complete = (testApp: TestApp, token: string, email: string) =>
  testApp.app.inject({ method: 'POST', url: '/api/auth/sessions', payload: { token, email } });

/** Makes the database refuse any update that changes the column, as a failing write would. */
async function refuseUserUpdates(testApp: TestApp, column: 'last_login_at' | 'last_logout_at') {
  await testApp.database.db.execute(
    sql.raw(`create or replace function refuse_user_update() returns trigger language plpgsql as $$
      begin raise exception 'user updates are refused for this test'; end $$`),
  );
  await testApp.database.db.execute(
    sql.raw(`create trigger refuse_user_update before update on users for each row
      when (old.${column} is distinct from new.${column}) execute function refuse_user_update()`),
  );
}

async function allowUserUpdates(testApp: TestApp) {
  await testApp.database.db.execute(sql`drop trigger refuse_user_update on users`);
}

const me = async (testApp: TestApp, cookie?: string) =>
  (await testApp.app.inject({ method: 'GET', url: '/api/auth/me', headers: cookie ? { cookie } : {} })).json<{
    user: { email: string; lastLoginTime: string | null; isAdmin: boolean } | null;
  }>().user;

describeEachDatabase('sign-in links', (context) => {
  it('stores only a hash of a 256-bit token that expires in 15 minutes', async () => {
    const testApp = context();
    const response = await requestLink(testApp, 'Hash.Check@Example.com ');
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ sent: true });
    const token = tokenOf(await latestOutboxLink(testApp, 'hash.check@example.com'));
    expect(Buffer.from(token, 'base64url').length).toBe(32);
    const [row] = await testApp.database.db.select().from(signInTokens).where(sql`${signInTokens.email} = 'hash.check@example.com'`);
    expect(row!.tokenHash).not.toContain(token);
    expect(row!.tokenHash).toHaveLength(43);
    const minutes = (row!.expiresAt.getTime() - row!.createdAt.getTime()) / 60_000;
    expect(minutes).toBeCloseTo(15, 0);
  });

  it('answers the same for an existing account and an unknown address', async () => {
    const testApp = context();
    await signIn(testApp, 'known@example.com');
    const known = await requestLink(testApp, 'known@example.com');
    const unknown = await requestLink(testApp, 'nobody-here@example.com');
    expect([known.statusCode, known.body]).toEqual([unknown.statusCode, unknown.body]);
  });

  it('refuses malformed requests with 400', async () => {
    const { app } = context();
    for (const payload of [{ email: 'not-an-email' }, {}, { email: 42 }, { email: 'a@b.co', language: 'fr' }]) {
      const response = await app.inject({ method: 'POST', url: '/api/auth/sign-in-links', payload, remoteAddress: nextClientAddress() });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().error.code).toBe('bad_request');
    }
    const broken = await app.inject({
      method: 'POST',
      url: '/api/auth/sign-in-links',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toEqual({ error: { code: 'bad_request', message: expect.any(String) } });
    const session = await app.inject({ method: 'POST', url: '/api/auth/sessions', payload: { token: '../../etc', email: 'a@b.co' } });
    expect(session.statusCode).toBe(400);
  });

  it('limits the links per e-mail address that wait to be used, and says when to try again', async () => {
    const testApp = context();
    for (let attempt = 0; attempt < 3; attempt++) expect((await requestLink(testApp, 'eager@example.com')).statusCode).toBe(202);
    const limited = await requestLink(testApp, 'eager@example.com');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe('rate_limited');
    // The oldest of the three links leaves the window in 15 minutes, less the moments the test took.
    const retryAfterSeconds = limited.json().error.retryAfterSeconds as number;
    expect(retryAfterSeconds).toBeGreaterThan(14 * 60);
    expect(retryAfterSeconds).toBeLessThanOrEqual(15 * 60);
    expect(limited.headers['retry-after']).toBe(String(retryAfterSeconds));

    // The owner signs in with one of them: its place is free again for the next sign-in.
    const token = tokenOf(await latestOutboxLink(testApp, 'eager@example.com'));
    expect((await complete(testApp, token, 'eager@example.com')).statusCode).toBe(200);
    expect((await requestLink(testApp, 'eager@example.com')).statusCode).toBe(202);
    expect((await requestLink(testApp, 'eager@example.com')).statusCode).toBe(429);
  });

  it('frees the place of a link that left the window, and names the next one to leave', async () => {
    const testApp = context();
    for (let attempt = 0; attempt < 3; attempt++) expect((await requestLink(testApp, 'patient@example.com')).statusCode).toBe(202);
    await testApp.database.db.execute(sql`update sign_in_tokens set created_at = now() - interval '9 minutes' where email = 'patient@example.com'`);
    await testApp.database.db.execute(
      sql`update sign_in_tokens set created_at = now() - interval '16 minutes' where token_hash = (select token_hash from sign_in_tokens where email = 'patient@example.com' order by created_at limit 1)`,
    );
    expect((await requestLink(testApp, 'patient@example.com')).statusCode).toBe(202);
    const limited = await requestLink(testApp, 'patient@example.com');
    expect(limited.statusCode).toBe(429);
    // The oldest open link is 9 minutes old now, so a place frees in about 6 minutes.
    const retryAfterSeconds = limited.json().error.retryAfterSeconds as number;
    expect(retryAfterSeconds).toBeGreaterThan(5 * 60);
    expect(retryAfterSeconds).toBeLessThanOrEqual(6 * 60);
  });

  it('limits the links per client address that wait to be used, so that a used link frees its place', async () => {
    const testApp = context();
    const send = (index: number) =>
      testApp.app.inject({ method: 'POST', url: '/api/auth/sign-in-links', payload: { email: `client${index}@example.com` }, remoteAddress: '10.1.2.3' });
    for (let index = 0; index < 10; index++) expect((await send(index)).statusCode).toBe(202);
    const limited = await send(10);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.retryAfterSeconds).toBeGreaterThan(14 * 60);

    // An office behind one address: the people who signed in make room for their colleagues.
    for (const index of [0, 1]) {
      const token = tokenOf(await latestOutboxLink(testApp, `client${index}@example.com`));
      expect((await complete(testApp, token, `client${index}@example.com`)).statusCode).toBe(200);
    }
    expect((await send(10)).statusCode).toBe(202);
    expect((await send(11)).statusCode).toBe(202);
    expect((await send(12)).statusCode).toBe(429);
  });
});

describeEachDatabase('completing sign-in', (context) => {
  it('signs in once per link, with a 30-day HttpOnly, SameSite=Lax session cookie', async () => {
    const testApp = context();
    await requestLink(testApp, 'first@example.com');
    const token = tokenOf(await latestOutboxLink(testApp, 'first@example.com'));
    const response = await complete(testApp, token, 'First@Example.com');
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toMatchObject({ email: 'first@example.com', isAdmin: false, lastLoginTime: expect.any(String) });
    const cookie = response.cookies.find((candidate) => candidate.name === 'session')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/', maxAge: 30 * 24 * 60 * 60 });
    expect(cookie.secure).toBeFalsy();
    expect(await me(testApp, `session=${cookie.value}`)).toMatchObject({ email: 'first@example.com' });
    const [user] = await testApp.database.db.select().from(users).where(sql`${users.email} = 'first@example.com'`);
    expect(user!.lastLoginAt).toBeInstanceOf(Date);

    const again = await complete(testApp, token, 'first@example.com');
    expect(again.statusCode).toBe(400);
    expect(again.json().error.code).toBe('link_used');
    expect(again.cookies).toEqual([]);
  });

  it('refuses an expired link', async () => {
    const testApp = context();
    await requestLink(testApp, 'late@example.com');
    const token = tokenOf(await latestOutboxLink(testApp, 'late@example.com'));
    await testApp.database.db.execute(sql`update sign_in_tokens set expires_at = now() - interval '1 second' where email = 'late@example.com'`);
    const response = await complete(testApp, token, 'late@example.com');
    expect(response.json().error.code).toBe('link_expired');
  });

  it('refuses a link opened with another e-mail, which then still works with the right one', async () => {
    const testApp = context();
    await requestLink(testApp, 'owner@example.com');
    const token = tokenOf(await latestOutboxLink(testApp, 'owner@example.com'));
    const wrong = await complete(testApp, token, 'intruder@example.com');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.code).toBe('email_mismatch');
    expect((await complete(testApp, token, 'owner@example.com')).statusCode).toBe(200);
  });

  it('refuses a token that was never issued', async () => {
    const response = await complete(context(), 'A'.repeat(43), 'someone@example.com');
    expect(response.json().error.code).toBe('invalid_link');
  });

  it('lets only one of two simultaneous uses of a link succeed', async () => {
    const testApp = context();
    await requestLink(testApp, 'race@example.com');
    const token = tokenOf(await latestOutboxLink(testApp, 'race@example.com'));
    const results = await Promise.all([complete(testApp, token, 'race@example.com'), complete(testApp, token, 'race@example.com')]);
    expect(results.map((result) => result.statusCode).sort()).toEqual([200, 400]);
  });

  it('still signs in when the sign-in time cannot be recorded', async () => {
    const testApp = context();
    await requestLink(testApp, 'resilient@example.com');
    const token = tokenOf(await latestOutboxLink(testApp, 'resilient@example.com'));
    await refuseUserUpdates(testApp, 'last_login_at');
    try {
      const response = await complete(testApp, token, 'resilient@example.com');
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().user).toMatchObject({ email: 'resilient@example.com', lastLoginTime: null });
    } finally {
      await allowUserUpdates(testApp);
    }
  });
});

describeEachDatabase('signing out', (context) => {
  it('deletes the session, clears the cookie and records the time', async () => {
    const testApp = context();
    const cookie = await signIn(testApp, 'leaving@example.com');
    const response = await testApp.app.inject({ method: 'DELETE', url: '/api/auth/session', headers: { cookie } });
    expect(response.statusCode).toBe(204);
    expect(response.cookies.find((candidate) => candidate.name === 'session')?.value).toBe('');
    expect(await me(testApp, cookie)).toBeNull();
    const [user] = await testApp.database.db.select().from(users).where(sql`${users.email} = 'leaving@example.com'`);
    expect(user!.lastLogoutAt).toBeInstanceOf(Date);
  });

  it('signs out even when the time cannot be recorded', async () => {
    const testApp = context();
    const cookie = await signIn(testApp, 'leaving-anyway@example.com');
    await refuseUserUpdates(testApp, 'last_logout_at');
    try {
      const response = await testApp.app.inject({ method: 'DELETE', url: '/api/auth/session', headers: { cookie } });
      expect(response.statusCode).toBe(204);
    } finally {
      await allowUserUpdates(testApp);
    }
    expect(await me(testApp, cookie)).toBeNull();
    expect(await testApp.database.db.select().from(sessions).where(sql`${sessions.userId} in (select id from users where email = 'leaving-anyway@example.com')`)).toEqual([]);
  });
});

describeEachDatabase('cross-site request forgery', (context) => {
  it('refuses state-changing requests from other sites and accepts the shop’s own', async () => {
    const testApp = context();
    const cookie = await signIn(testApp, 'victim@example.com');
    const fromEvil = await testApp.app.inject({ method: 'DELETE', url: '/api/auth/session', headers: { cookie, origin: 'https://evil.example' } });
    expect(fromEvil.statusCode).toBe(403);
    expect(fromEvil.json().error.code).toBe('forbidden');
    const crossSite = await testApp.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in-links',
      headers: { 'sec-fetch-site': 'cross-site' },
      payload: { email: 'victim@example.com' },
    });
    expect(crossSite.statusCode).toBe(403);
    expect(await me(testApp, cookie)).toMatchObject({ email: 'victim@example.com' });

    const own = await testApp.app.inject({ method: 'DELETE', url: '/api/auth/session', headers: { cookie, origin: 'http://shop.test' } });
    expect(own.statusCode).toBe(204);
  });
});

describeEachDatabase('admin role', (context) => {
  it('is found by the admins record id or by its email field, and not for customers', async () => {
    const testApp = context();
    await testApp.database.db.insert(admins).values([{ id: 'owner@example.com' }, { id: 'staff-1', email: 'helper@example.com' }]);
    expect(await me(testApp, await signIn(testApp, 'owner@example.com'))).toMatchObject({ isAdmin: true });
    expect(await me(testApp, await signIn(testApp, 'helper@example.com'))).toMatchObject({ isAdmin: true });
    expect(await me(testApp, await signIn(testApp, 'customer@example.com'))).toMatchObject({ isAdmin: false });
  });
});

describeEachDatabase('admin records', (context) => {
  it('are added once, listed, and removed whether found by id or by email field', async () => {
    const { db } = context().database;
    expect(await addAdmin(db, ' Boss@Example.com ')).toBe(true);
    expect(await addAdmin(db, 'boss@example.com')).toBe(false);
    await db.insert(admins).values({ id: 'staff-7', email: 'clerk@example.com' });
    expect(await isAdminEmail(db, 'CLERK@example.com')).toBe(true);
    expect(await listAdmins(db)).toEqual(['boss@example.com', 'clerk@example.com']);
    expect(await removeAdmin(db, 'clerk@example.com')).toBe(true);
    expect(await removeAdmin(db, 'boss@example.com')).toBe(true);
    expect(await removeAdmin(db, 'boss@example.com')).toBe(false);
    expect(await listAdmins(db)).toEqual([]);
  });
});

describeEachDatabase(
  'secure cookies behind https',
  (context) => {
    it('marks the session cookie Secure when PUBLIC_URL is https', async () => {
      const testApp = context();
      await requestLink(testApp, 'secure@example.com');
      const token = tokenOf(await latestOutboxLink(testApp, 'secure@example.com'));
      const response = await complete(testApp, token, 'secure@example.com');
      expect(response.cookies.find((candidate) => candidate.name === '__Host-session')?.secure).toBe(true);
    });
  },
  { PUBLIC_URL: 'https://shop.example' },
);

describeEachDatabase('development outbox', (context) => {
  it('writes each message to DATA_DIR/outbox and lists its link on /dev/mailbox', async () => {
    const testApp = context();
    await requestLink(testApp, 'outbox@example.com', 'bg');
    const files = await readdir(path.join(testApp.dataDir, 'outbox'));
    const eml = files.find((file) => file.endsWith('.eml'))!;
    expect(await readFile(path.join(testApp.dataDir, 'outbox', eml), 'utf8')).toContain('To: outbox@example.com');
    const link = await latestOutboxLink(testApp, 'outbox@example.com');
    expect(link).toMatch(/^http:\/\/shop\.test\/\?signInToken=/);
    const page = await testApp.app.inject({ method: 'GET', url: `/dev/mailbox?key=${TEST_MAILBOX_KEY}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`href="${link}"`);
    expect(page.body).toContain('Вашият линк за вход в Nail Art Atelier');
    const ownHost = await testApp.app.inject({ method: 'GET', url: `/dev/mailbox?key=${TEST_MAILBOX_KEY}`, headers: { host: 'shop.test' } });
    expect(ownHost.body).toContain(`href="${link}"`);

    // Each message opens as its recipient would see it, without scripts.
    const messageUrl = /href="(\/dev\/mailbox\/message\?[^"]+)"/.exec(page.body)![1]!.replace(/&amp;/g, '&');
    const message = await testApp.app.inject({ method: 'GET', url: messageUrl });
    expect(message.statusCode).toBe(200);
    expect(message.headers['content-security-policy']).toContain("default-src 'none'");
    expect(message.body).toContain('<html lang="bg">');
    expect(message.body).toContain(`href="${link}"`);
    for (const [url, host] of [
      [messageUrl.replace(TEST_MAILBOX_KEY, 'guess'), 'localhost'],
      [messageUrl, 'attacker.example'],
      [messageUrl.replace(/id=[^&]+/, 'id=..%2F..%2Fdb'), 'localhost'],
    ]) {
      expect((await testApp.app.inject({ method: 'GET', url: url!, headers: { host: host! } })).statusCode, `${url} ${host}`).toBe(404);
    }
  });

  it('shows nothing without the key from the server log, nor for a foreign host name', async () => {
    const testApp = context();
    await requestLink(testApp, 'victim@example.com');
    const link = await latestOutboxLink(testApp, 'victim@example.com');
    for (const [url, host] of [
      ['/dev/mailbox', 'localhost'],
      ['/dev/mailbox?key=', 'localhost'],
      ['/dev/mailbox?key=guess', 'localhost'],
      [`/dev/mailbox?key=${TEST_MAILBOX_KEY}x`, 'localhost'],
      [`/dev/mailbox?key=${TEST_MAILBOX_KEY}`, 'attacker.example'],
      [`/dev/mailbox?key=${TEST_MAILBOX_KEY}`, 'attacker.example:3000'],
    ]) {
      const response = await testApp.app.inject({ method: 'GET', url: url!, headers: { host: host! } });
      expect(response.statusCode, `${url} ${host}`).toBe(404);
      expect(response.body).not.toContain(tokenOf(link));
      expect(response.body).not.toContain('victim@example.com');
    }
    // The page every visitor loads says a mailbox exists, but carries no key to it.
    const home = await testApp.app.inject({ method: 'GET', url: '/' });
    expect(home.body).not.toContain(TEST_MAILBOX_KEY);
  });
});

describeEachDatabase(
  'development outbox in production',
  (context) => {
    it('is not served', async () => {
      const response = await context().app.inject({ method: 'GET', url: '/dev/mailbox' });
      expect(response.statusCode).toBe(404);
    });
  },
  { NODE_ENV: 'production' },
);

describe('sign-in e-mail over SMTP', () => {
  let inbox: SmtpInbox;
  let testApp: TestApp;
  let unreachable: TestApp;
  beforeAll(async () => {
    inbox = await startSmtpInbox();
    testApp = await createTestApp(databaseTargets[0]!, { SMTP_URL: inbox.url });
    unreachable = await createTestApp(databaseTargets[0]!, { SMTP_URL: 'smtp://127.0.0.1:9' });
  });
  afterAll(async () => {
    await testApp.close();
    await unreachable.close();
    await inbox.close();
  });

  it('sends the link in the visitor’s language, as plain text and HTML, naming the shop', async () => {
    expect((await requestLink(testApp, 'reader@example.com', 'bg')).statusCode).toBe(202);
    const mail = await inbox.waitForMail('reader@example.com');
    expect(mail.subject).toBe('Вашият линк за вход в Nail Art Atelier');
    expect(mail.raw).toMatch(/content-type: text\/plain/i);
    expect(mail.raw).toMatch(/content-type: text\/html/i);
    expect(mail.body).toContain('изтича след 15 минути');
    const link = signInLinkIn(mail);
    expect((await complete(testApp, tokenOf(link), 'reader@example.com')).statusCode).toBe(200);

    await requestLink(testApp, 'reader2@example.com', 'en');
    expect((await inbox.waitForMail('reader2@example.com')).subject).toBe('Your sign-in link for Nail Art Atelier');
  });

  it('reports a mail failure as an error, not as sent', async () => {
    const response = await requestLink(unreachable, 'unlucky@example.com');
    expect(response.statusCode).toBe(502);
    expect(response.json().error.code).toBe('mail_failed');
  });
});
