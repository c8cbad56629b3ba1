/** Who the visitor is: asked by the session query, and started early by early-requests.ts (without React). */
export const SESSION_PATH = '/api/auth/me';
