import { beforeAll, expect, it } from 'vitest';
import type { Address } from '#shared/addresses.js';
import { sofia } from './sample-data.js';
import { signIn } from './sign-in.js';
import { describeEachDatabase, type TestApp } from './test-app.js';


type Call = { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; payload?: object };
const call = async (testApp: TestApp, cookie: string, { method, url, payload }: Call) =>
  testApp.app.inject({ method, url, payload, headers: { cookie } });
const list = async (testApp: TestApp, cookie: string) =>
  (await call(testApp, cookie, { method: 'GET', url: '/api/addresses' })).json<{ addresses: Address[] }>().addresses;

describeEachDatabase('addresses', (context) => {
  let ana: string;
  let ben: string;
  beforeAll(async () => {
    ana = await signIn(context(), 'ana@example.com');
    ben = await signIn(context(), 'ben@example.com');
  });

  it('answers 401 without a session', async () => {
    const response = await context().app.inject({ method: 'GET', url: '/api/addresses' });
    expect(response.statusCode).toBe(401);
  });

  it('refuses an invalid address with the first failing rule’s key, and stores nothing', async () => {
    const testApp = context();
    const response = await call(testApp, ana, { method: 'POST', url: '/api/addresses', payload: { ...sofia, city: '', phone: '1' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe('city: checkout.validation.cityRequired');
    const badPhone = await call(testApp, ana, { method: 'POST', url: '/api/addresses', payload: { ...sofia, phone: '12345' } });
    expect(badPhone.json().error.message).toBe('phone: checkout.validation.invalidPhone');
    expect(await list(testApp, ana)).toEqual([]);
  });

  it('makes each new address the default, with the phone in international format', async () => {
    const testApp = context();
    const first = await call(testApp, ana, { method: 'POST', url: '/api/addresses', payload: sofia });
    expect(first.statusCode).toBe(201);
    await call(testApp, ana, { method: 'POST', url: '/api/addresses', payload: { ...sofia, fullName: 'Maria at work', city: 'Plovdiv' } });
    const addresses = await list(testApp, ana);
    expect(addresses.map((address) => [address.city, address.isDefault])).toEqual([
      ['Sofia', false],
      ['Plovdiv', true],
    ]);
    expect(addresses[0]).toMatchObject({ id: expect.stringMatching(/^address_\d+_[0-9a-f]{8}$/), phone: '+359 88 812 3456' });
  });

  it('sets exactly one default, and moves it to the first address when the default is deleted', async () => {
    const testApp = context();
    const [sofiaAddress, plovdiv] = await list(testApp, ana);
    const afterSet = (await call(testApp, ana, { method: 'POST', url: `/api/addresses/${sofiaAddress!.id}/default` })).json<{ addresses: Address[] }>().addresses;
    expect(afterSet.filter((address) => address.isDefault).map((address) => address.id)).toEqual([sofiaAddress!.id]);
    await call(testApp, ana, { method: 'POST', url: '/api/addresses', payload: { ...sofia, city: 'Varna' } });
    const varna = (await list(testApp, ana)).find((address) => address.city === 'Varna')!;
    expect(varna.isDefault).toBe(true);
    const afterDelete = (await call(testApp, ana, { method: 'DELETE', url: `/api/addresses/${varna.id}` })).json<{ addresses: Address[] }>().addresses;
    expect(afterDelete.map((address) => [address.id, address.isDefault])).toEqual([
      [sofiaAddress!.id, true],
      [plovdiv!.id, false],
    ]);
  });

  it('updates an address', async () => {
    const testApp = context();
    const [first] = await list(testApp, ana);
    const response = await call(testApp, ana, { method: 'PUT', url: `/api/addresses/${first!.id}`, payload: { ...sofia, postalCode: '1164' } });
    expect(response.statusCode).toBe(200);
    expect((await list(testApp, ana))[0]!.postalCode).toBe('1164');
  });

  it('treats another customer’s address as unknown', async () => {
    const testApp = context();
    const [anasAddress] = await list(testApp, ana);
    const attempts: Call[] = [
      { method: 'PUT', url: `/api/addresses/${anasAddress!.id}`, payload: sofia },
      { method: 'DELETE', url: `/api/addresses/${anasAddress!.id}` },
      { method: 'POST', url: `/api/addresses/${anasAddress!.id}/default` },
    ];
    for (const attempt of attempts) {
      const response = await call(testApp, ben, attempt);
      expect(response.statusCode, attempt.method).toBe(404);
    }
    const unknown = await call(testApp, ben, { method: 'DELETE', url: '/api/addresses/address_1_deadbeef' });
    expect(unknown.statusCode).toBe(404);
    expect(await list(testApp, ben)).toEqual([]);
    expect((await list(testApp, ana)).find((address) => address.id === anasAddress!.id)?.postalCode).toBe('1164');
  });
});
