import { describe, expect, it } from 'vitest';
import { ApiError } from '#client/api/http.js';
import { signInErrorKey } from './auth-api.js';

describe('the text of a refused sign-in request', () => {
  it('is the text of the rule the server names, an e-mail’s or a link’s', () => {
    expect(signInErrorKey(new ApiError(400, 'bad_request', 'token: auth.errors.invalidLink', { field: 'token', messageKey: 'auth.errors.invalidLink' }))).toBe(
      'auth.errors.invalidLink',
    );
    expect(signInErrorKey(new ApiError(400, 'bad_request', 'email: auth.errors.invalidEmail', { field: 'email', messageKey: 'auth.errors.invalidEmail' }))).toBe(
      'auth.errors.invalidEmail',
    );
  });

  it('is the e-mail’s text when the server names no rule, and the sign-in’s own text for its other codes', () => {
    expect(signInErrorKey(new ApiError(400, 'bad_request', 'Body is not valid JSON'))).toBe('auth.errors.invalidEmail');
    expect(signInErrorKey(new ApiError(400, 'link_used', 'This sign-in link has already been used.'))).toBe('auth.errors.linkUsed');
    expect(signInErrorKey(new ApiError(0, 'network', 'Failed to fetch'))).toBe('auth.errors.network');
  });
});
