import { afterEach, describe, expect, it, vi } from 'vitest';

const answer = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

describe('startEarly', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  // A fresh module each time: what was started early and asked for is module state.
  async function withFetch(bodies: unknown[]) {
    const fetch = vi.fn(async () => answer(bodies[fetch.mock.calls.length - 1]));
    vi.stubGlobal('fetch', fetch);
    return { fetch, http: await import('./http.js') };
  }

  it("hands the early answer to the app's first request of the path, and asks the server again after that", async () => {
    const { fetch, http } = await withFetch([{ user: null }, { user: { email: 'a@example.com' } }]);
    http.startEarly('/api/auth/me');
    expect(fetch).toHaveBeenCalledOnce();
    expect(await http.requestJson('/api/auth/me')).toEqual({ user: null });
    expect(fetch).toHaveBeenCalledOnce();
    expect(await http.requestJson('/api/auth/me')).toEqual({ user: { email: 'a@example.com' } });
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('starts nothing for a path the app has already asked for, so that no later request gets an old answer', async () => {
    const { fetch, http } = await withFetch([{ user: null }, { user: { email: 'a@example.com' } }]);
    await http.requestJson('/api/auth/me');
    http.startEarly('/api/auth/me');
    expect(fetch).toHaveBeenCalledOnce();
    expect(await http.requestJson('/api/auth/me')).toEqual({ user: { email: 'a@example.com' } });
  });

  it('gives an early request that failed to the app as a network error', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    const http = await import('./http.js');
    http.startEarly('/api/auth/me');
    await expect(http.requestJson('/api/auth/me')).rejects.toMatchObject({ code: 'network' });
  });
});
