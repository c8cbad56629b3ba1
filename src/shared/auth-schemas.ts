import { z } from 'zod';
import { MAIL_LANGUAGES } from './auth.js';
import { emailAddress } from './email-address.js';

// Kept apart from auth.ts so that the first page, which needs only its constants, does not load zod.

const emailField = emailAddress('auth.errors.invalidEmail');

/** The address as sign-in reads it (trimmed, lower-cased), or null when sign-in would refuse it. */
export const signInEmailOf = (text: string): string | null => {
  const parsed = emailField.safeParse(text);
  return parsed.success ? parsed.data : null;
};

export const signInLinkRequestSchema = z.object({
  email: emailField,
  language: z.enum(MAIL_LANGUAGES).default('en'),
});
export type SignInLinkRequest = z.input<typeof signInLinkRequestSchema>;

export const completeSignInSchema = z.object({
  token: z.string({ error: 'auth.errors.invalidLink' }).regex(/^[A-Za-z0-9_-]{20,100}$/, { error: 'auth.errors.invalidLink' }),
  email: emailField,
});
export type CompleteSignInRequest = z.input<typeof completeSignInSchema>;
