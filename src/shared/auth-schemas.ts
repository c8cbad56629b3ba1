import { z } from 'zod';
import { MAIL_LANGUAGES } from './auth.js';

// Kept apart from auth.ts so that the first page, which needs only its constants, does not load zod.

const emailField = z
  .string({ error: 'auth.errors.invalidEmail' })
  .trim()
  .toLowerCase()
  .max(254, { error: 'auth.errors.invalidEmail' })
  .pipe(z.email({ error: 'auth.errors.invalidEmail' }));

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
