import type { SessionUser } from '#shared/auth.js';

/**
 * The customer last signed in at this browser, kept so that a page opened offline still knows whose
 * cart mirror and queue to show (spec: offline, "the user record falls back to a minimal offline
 * record"). It holds nothing the cart mirror does not already reveal, and it goes at sign-out. The
 * server decides again as soon as it can be reached.
 */
const OFFLINE_USER_KEY = 'offline_user';

export function rememberUser(user: SessionUser | null, storage?: Storage): void {
  try {
    const target = storage ?? localStorage;
    if (user) target.setItem(OFFLINE_USER_KEY, JSON.stringify(user));
    else target.removeItem(OFFLINE_USER_KEY);
  } catch {
    // Storage may be disabled; offline, the visitor is then shown as signed out.
  }
}

export function rememberedUser(storage?: Storage): SessionUser | null {
  try {
    const value: unknown = JSON.parse((storage ?? localStorage).getItem(OFFLINE_USER_KEY) ?? 'null');
    if (typeof value !== 'object' || value === null) return null;
    const { email, lastLoginTime, isAdmin } = value as Partial<SessionUser>;
    if (typeof email !== 'string' || typeof isAdmin !== 'boolean') return null;
    return { email, lastLoginTime: typeof lastLoginTime === 'string' ? lastLoginTime : null, isAdmin };
  } catch {
    return null;
  }
}
