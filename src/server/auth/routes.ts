import type { FastifyInstance, FastifyReply } from 'fastify';
import { completeSignInSchema, signInLinkRequestSchema } from '#shared/auth-schemas.js';
import type { SessionResponse } from '#shared/auth.js';
import type { Config } from '#server/config.js';
import type { Database } from '#server/db/client.js';
import { parseInput } from '#server/http/validation.js';
import type { MailTextBook } from '#server/mail/mail-texts.js';
import type { Mailer } from '#server/mail/mailer.js';
import { completeSignIn, requestSignInLink, signOut } from './service.js';
import {
  clearSessionCookie,
  findSessionUser,
  readSessionId,
  registerSessionCookie,
  setSessionCookie,
  type CurrentUser,
} from './session.js';

const publicUser = (user: CurrentUser | null): SessionResponse => ({
  user: user && { email: user.email, lastLoginTime: user.lastLoginTime, isAdmin: user.isAdmin },
});

export function registerAuthRoutes(app: FastifyInstance, db: Database, mail: { mailer: Mailer; texts: MailTextBook }, config: Config): void {
  // The session cookie belongs to this module; every other module reads it through session.ts.
  registerSessionCookie(app, config);
  const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store');

  app.get('/api/auth/me', async (request, reply): Promise<SessionResponse> => {
    noStore(reply);
    return publicUser(await findSessionUser(db, request));
  });

  app.post('/api/auth/sign-in-links', async (request, reply) => {
    const { email, language } = parseInput(signInLinkRequestSchema, request.body);
    await requestSignInLink(db, mail, config.publicUrl, { email, language, clientAddress: request.ip });
    return reply.status(202).send({ sent: true });
  });

  app.post('/api/auth/sessions', async (request, reply): Promise<SessionResponse> => {
    const input = parseInput(completeSignInSchema, request.body);
    const { sessionId, user } = await completeSignIn(db, request.log, input);
    setSessionCookie(reply, sessionId);
    noStore(reply);
    return publicUser(user);
  });

  app.delete('/api/auth/session', async (request, reply) => {
    const sessionId = readSessionId(request);
    if (sessionId) await signOut(db, request.log, sessionId);
    clearSessionCookie(reply);
    return reply.status(204).send();
  });
}
