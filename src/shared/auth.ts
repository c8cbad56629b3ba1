/** The signed-in user as the API describes them. */
export interface SessionUser {
  email: string;
  /** ISO time of the latest sign-in, or null when it could not be recorded. */
  lastLoginTime: string | null;
  isAdmin: boolean;
}

export interface SessionResponse {
  user: SessionUser | null;
}

export const SIGN_IN_LINK_MINUTES = 15;
export const SESSION_DAYS = 30;
/** How many sign-in links one e-mail address, and one client address, may request per window. */
export const SIGN_IN_RATE_LIMIT = { windowMinutes: 15, perEmail: 3, perClient: 10 } as const;

/** The query parameter of the sign-in link that carries its token. */
export const SIGN_IN_TOKEN_PARAM = 'signInToken';

export const MAIL_LANGUAGES = ['en', 'bg'] as const;
