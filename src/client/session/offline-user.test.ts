import { describe, expect, it } from 'vitest';
import type { SessionUser } from '#shared/auth.js';
import { rememberedUser, rememberUser } from './offline-user.js';

class MemoryStorage {
  readonly values = new Map<string, string>();
  getItem = (key: string) => this.values.get(key) ?? null;
  setItem = (key: string, value: string) => void this.values.set(key, value);
  removeItem = (key: string) => void this.values.delete(key);
}

const ana: SessionUser = { email: 'ana@example.com', lastLoginTime: '2026-01-01T10:00:00.000Z', isAdmin: false };

describe('the user remembered for offline use', () => {
  it('is the one last signed in, until sign-out or the server says nobody is', () => {
    const storage = new MemoryStorage() as unknown as Storage;
    expect(rememberedUser(storage)).toBeNull();
    rememberUser(ana, storage);
    expect(rememberedUser(storage)).toEqual(ana);
    rememberUser(null, storage);
    expect(rememberedUser(storage)).toBeNull();
  });

  it('is nobody when what is stored is not a user', () => {
    const storage = new MemoryStorage();
    for (const stored of ['{broken', '"ana@example.com"', '{"email":"ana@example.com"}', '{"email":1,"isAdmin":false}']) {
      storage.values.set('offline_user', stored);
      expect(rememberedUser(storage as unknown as Storage), stored).toBeNull();
    }
    storage.values.set('offline_user', '{"email":"ana@example.com","isAdmin":true,"lastLoginTime":5}');
    expect(rememberedUser(storage as unknown as Storage)).toEqual({ email: 'ana@example.com', isAdmin: true, lastLoginTime: null });
  });

  it('is nobody, and nothing fails, where storage is refused', () => {
    const refusing = {
      getItem: () => {
        throw new DOMException('denied', 'SecurityError');
      },
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError');
      },
    };
    expect(() => rememberUser(ana, refusing as unknown as Storage)).not.toThrow();
    expect(rememberedUser(refusing as unknown as Storage)).toBeNull();
  });
});
