import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SessionResponse, SessionUser } from '../../shared/auth.js';
import { requestJson } from '../api/http.js';

export const sessionQuery = queryOptions({
  queryKey: ['session'],
  queryFn: () => requestJson<SessionResponse>('/api/auth/me'),
  retry: 1,
  // Asked even while the browser reports no network, so that the app still renders offline.
  networkMode: 'always',
  staleTime: 60_000,
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
      queryClient.setQueryData(sessionQuery.queryKey, { user });
      await queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== sessionQuery.queryKey[0] });
    },
    [queryClient],
  );

  const signOut = useCallback(async () => {
    await requestJson<null>('/api/auth/session', { method: 'DELETE' });
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
