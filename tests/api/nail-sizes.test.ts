import { eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import type { AccountExport } from '#shared/account.js';
import { DEFAULT_NAIL_SIZE_CHART } from '#shared/nail-sizes.js';
import { admins, users } from '#server/db/schema.js';
import { signIn } from './sign-in.js';
import { describeEachDatabase, type TestApp } from './test-app.js';

const sizes = [2, 6, 5, 7, 9, 2, 6, 5, 7, 8];

const read = (testApp: TestApp, cookie?: string) => testApp.app.inject({ method: 'GET', url: '/api/account/nail-sizes', headers: cookie ? { cookie } : {} });
const save = (testApp: TestApp, payload: unknown, cookie?: string) =>
  testApp.app.inject({ method: 'PUT', url: '/api/account/nail-sizes', headers: cookie ? { cookie } : {}, payload: payload as object });

describeEachDatabase('My nail sizes', (context) => {
  let admin: string;

  beforeAll(async () => {
    await context().database.db.insert(admins).values({ id: 'maker@example.com' });
    admin = await signIn(context(), 'maker@example.com');
  });

  it('are only the signed-in customer’s', async () => {
    const testApp = context();
    expect((await read(testApp)).statusCode).toBe(401);
    expect((await save(testApp, { sizes })).statusCode).toBe(401);
  });

  it('come back as saved, to fill in the size picker, and null forgets them', async () => {
    const testApp = context();
    const maria = await signIn(testApp, 'maria@example.com');
    const ivan = await signIn(testApp, 'ivan@example.com');
    expect((await read(testApp, maria)).json()).toEqual({ sizes: null });
    const saved = await save(testApp, { sizes }, maria);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ sizes });
    const again = await read(testApp, maria);
    expect(again.json()).toEqual({ sizes });
    expect(again.headers['cache-control']).toBe('no-store');
    // On another device of hers too, and nobody else's.
    expect((await read(testApp, await signIn(testApp, 'maria@example.com'))).json()).toEqual({ sizes });
    expect((await read(testApp, ivan)).json()).toEqual({ sizes: null });
    expect((await save(testApp, { sizes: null }, maria)).json()).toEqual({ sizes: null });
    expect((await read(testApp, maria)).json()).toEqual({ sizes: null });
  });

  it('refuses sizes that do not fit the chart, naming the sizes, and keeps the saved ones', async () => {
    const testApp = context();
    const cookie = await signIn(testApp, 'elena@example.com');
    await save(testApp, { sizes }, cookie);
    for (const [payload, key] of [
      [{ sizes: sizes.slice(1) }, 'choices.errors.sizesIncomplete'],
      [{ sizes: [...sizes, 3] }, 'choices.errors.sizesIncomplete'],
      [{ sizes: 'M' }, 'choices.errors.sizesIncomplete'],
      [{ sizes: [12, ...sizes.slice(1)] }, 'choices.errors.sizeOutsideChart'],
      [{ sizes: [-1, ...sizes.slice(1)] }, 'choices.errors.sizeOutsideChart'],
      [{ sizes: [2.5, ...sizes.slice(1)] }, 'choices.errors.sizeOutsideChart'],
      [{ sizes: ['2', ...sizes.slice(1)] }, 'choices.errors.sizeOutsideChart'],
    ] as const) {
      const refused = await save(testApp, payload, cookie);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
      expect(refused.json().error, JSON.stringify(payload)).toMatchObject({ field: 'sizes', messageKey: key });
    }
    expect((await read(testApp, cookie)).json()).toEqual({ sizes });
  });

  it('follow the chart the admin set', async () => {
    const testApp = context();
    const cookie = await signIn(testApp, 'vera@example.com');
    const larger = [14, 6, 5, 7, 9, 14, 6, 5, 7, 9];
    expect((await save(testApp, { sizes: larger }, cookie)).statusCode).toBe(400);
    const chart = { ...DEFAULT_NAIL_SIZE_CHART, sizes: Array.from({ length: 16 }, (_, size) => ({ size, widthTenthsMm: 190 - size * 9 })) };
    expect((await testApp.app.inject({ method: 'PUT', url: '/api/admin/size-chart', headers: { cookie: admin }, payload: chart })).statusCode).toBe(200);
    try {
      expect((await save(testApp, { sizes: larger }, cookie)).statusCode).toBe(200);
    } finally {
      await testApp.app.inject({ method: 'PUT', url: '/api/admin/size-chart', headers: { cookie: admin }, payload: DEFAULT_NAIL_SIZE_CHART });
    }
  });

  it('are in the account’s data copy, and go with the account', async () => {
    const testApp = context();
    const cookie = await signIn(testApp, 'nadia@example.com');
    await save(testApp, { sizes }, cookie);
    const copy = await testApp.app.inject({ method: 'GET', url: '/api/account/export', headers: { cookie } });
    expect(copy.json<AccountExport>().account.nailSizes).toEqual(sizes);
    const [row] = await testApp.database.db.select({ id: users.id }).from(users).where(eq(users.email, 'nadia@example.com'));
    const deleted = await testApp.app.inject({ method: 'DELETE', url: '/api/account', headers: { cookie }, payload: { email: 'nadia@example.com' } });
    expect(deleted.statusCode, deleted.body).toBe(204);
    const [after] = await testApp.database.db.select({ nailSizes: users.nailSizes }).from(users).where(eq(users.id, row!.id));
    expect(after?.nailSizes ?? null).toBeNull();
  });
});
