import type { CompleteSignInRequest, SignInLinkRequest } from '#shared/auth-schemas.js';
import type { SessionResponse } from '#shared/auth.js';
import { errorTextKey } from '#client/api/error-text.js';
import { ApiError, requestJson } from '#client/api/http.js';

/** The local-storage key that remembers which e-mail asked for a link (spec section 7). */
const EMAIL_FOR_SIGN_IN_KEY = 'emailForSignIn';

export function requestSignInLink(request: SignInLinkRequest): Promise<{ sent: true }> {
  return requestJson('/api/auth/sign-in-links', { method: 'POST', body: JSON.stringify(request) });
}

export function completeSignIn(request: CompleteSignInRequest): Promise<SessionResponse> {
  return requestJson('/api/auth/sessions', { method: 'POST', body: JSON.stringify(request) });
}

/** The translation key for a failed sign-in call: the sign-in's own words where it has them, the API's otherwise. */
export function signInErrorKey(error: unknown): string {
  const code = error instanceof ApiError ? error.code : 'internal';
  switch (code) {
    case 'rate_limited':
      return 'auth.errors.rateLimited';
    case 'mail_failed':
      return 'auth.errors.mailFailed';
    case 'bad_request':
      // The rule the request broke (an e-mail, or a link's token); the e-mail's text when none is named.
      return (error as ApiError).details.messageKey ?? 'auth.errors.invalidEmail';
    case 'network':
      return 'auth.errors.network';
    case 'invalid_link':
      return 'auth.errors.invalidLink';
    case 'link_used':
      return 'auth.errors.linkUsed';
    case 'link_expired':
      return 'auth.errors.linkExpired';
    case 'email_mismatch':
      return 'auth.errors.emailMismatch';
    default:
      // Anything else the API can answer (a fault, the shop unavailable) has its own text.
      return errorTextKey(code);
  }
}

/** When a refused link request may be made again (epoch ms), as the server said; null for other failures. */
export function signInRetryAt(error: unknown, now = Date.now()): number | null {
  const seconds = error instanceof ApiError && error.code === 'rate_limited' ? error.details.retryAfterSeconds : undefined;
  return typeof seconds === 'number' && seconds > 0 ? now + seconds * 1000 : null;
}

export function readStoredEmail(): string | null {
  try {
    return localStorage.getItem(EMAIL_FOR_SIGN_IN_KEY);
  } catch {
    return null;
  }
}

export function storeEmail(email: string | null): void {
  try {
    if (email) localStorage.setItem(EMAIL_FOR_SIGN_IN_KEY, email);
    else localStorage.removeItem(EMAIL_FOR_SIGN_IN_KEY);
  } catch {
    // Without storage the link still works: the shop then asks for the e-mail again.
  }
}
