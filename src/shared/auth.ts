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
/** A session, and its cookie, lasts this long from its latest recorded use; each use moves the end forward. */
export const SESSION_DAYS = 30;
/** A session unused for this long ends. */
export const SESSION_IDLE_DAYS = 30;
/** An admin's session ends sooner when unused, since it can change the catalogue and every order. */
export const ADMIN_SESSION_IDLE_HOURS = 12;
/** How many sign-in links not yet used one e-mail address, and one client address, may have from the last window's minutes. */
export const SIGN_IN_RATE_LIMIT = { windowMinutes: 15, perEmail: 3, perClient: 10 } as const;

/** The query parameter of the sign-in link that carries its token. */
export const SIGN_IN_TOKEN_PARAM = 'signInToken';

export const MAIL_LANGUAGES = ['en', 'bg'] as const;
