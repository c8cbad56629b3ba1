import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SessionResponse, SessionUser } from '../../shared/auth.js';
import { ApiError, requestJson } from '../api/http.js';
import { rememberedUser, rememberUser } from './offline-user.js';

/** offline: the server could not be asked, and the user is the one last signed in here. */
type SessionState = SessionResponse & { offline?: true };

export const sessionQuery = queryOptions({
  queryKey: ['session'],
  queryFn: async (): Promise<SessionState> => {
    try {
      const session = await requestJson<SessionResponse>('/api/auth/me');
      rememberUser(session.user);
      return session;
    } catch (error) {
      if (error instanceof ApiError && error.code === 'network') return { user: rememberedUser(), offline: true };
      throw error;
    }
  },
  retry: 1,
  // Asked even while the browser reports no network, so that the app still renders offline.
  networkMode: 'always',
  // A guess made offline is replaced by the server's answer as soon as the connection is back.
  staleTime: (query) => (query.state.data?.offline ? 0 : 60_000),
});

/** Where the login dialog stands: closed, or open with an optional e-mail to start from. */
export type LoginRequest = { email?: string } | null;

interface Session {
  user: SessionUser | null;
  loginRequest: LoginRequest;
  openLogin(email?: string): void;
  closeLogin(): void;
  /** Takes the signed-in user from a completed sign-in, and refreshes everything personal. */
  signedIn(user: SessionUser): Promise<void>;
  signOut(): Promise<void>;
}

const SessionContext = createContext<Session | null>(null);

/** Renders nothing until the server has said who the visitor is, so no page flashes the wrong state. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const { data, isPending } = useQuery(sessionQuery);
  const [loginRequest, setLoginRequest] = useState<LoginRequest>(null);

  const signedIn = useCallback(
    async (user: SessionUser) => {
      rememberUser(user);
      queryClient.setQueryData(sessionQuery.queryKey, { user });
      await queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== sessionQuery.queryKey[0] });
    },
    [queryClient],
  );

  const signOut = useCallback(async () => {
    await requestJson<null>('/api/auth/session', { method: 'DELETE' });
    rememberUser(null);
    queryClient.setQueryData(sessionQuery.queryKey, { user: null });
    // Nothing personal stays in the cache for the next person at this browser.
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionQuery.queryKey[0] });
  }, [queryClient]);

  const value = useMemo<Session>(
    () => ({
      // When the server cannot be reached the visitor is treated as signed out until it can.
      user: data?.user ?? null,
      loginRequest,
      openLogin: (email) => setLoginRequest({ email }),
      closeLogin: () => setLoginRequest(null),
      signedIn,
      signOut,
    }),
    [data, loginRequest, signedIn, signOut],
  );

  if (isPending) return null;
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession needs a SessionProvider');
  return session;
}
