import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { partialMatchKey, queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { SessionResponse, SessionUser } from '#shared/auth.js';
import { ApiError, requestJson } from '#client/api/http.js';
import { queryKeys } from '#client/api/query-keys.js';
import { rememberedUser, rememberUser } from './offline-user.js';
import { SESSION_PATH } from './session-path.js';

/** offline: the server could not be asked, and the user is the one last signed in here. */
type SessionState = SessionResponse & { offline?: true };

export const sessionQuery = queryOptions({
  queryKey: queryKeys.session(),
  queryFn: async (): Promise<SessionState> => {
    try {
      const session = await requestJson<SessionResponse>(SESSION_PATH);
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
  /** Whether a sign-out is under way: what is personal is not asked for again meanwhile, or the server would refuse it. */
  signingOut(): boolean;
  /** Forgets the user after the server has ended every session itself (the account was deleted), and tells the other tabs. */
  signedOut(): Promise<void>;
  /** Asks the server who this browser is, for when that may have changed elsewhere (another tab, an ended session). */
  recheck(): Promise<void>;
}

const SessionContext = createContext<Session | null>(null);

/** The tabs of one browser share the session cookie, so each tells the others when it signs in or out. */
const SESSION_CHANNEL = 'shop-session';

const isPersonal = (query: { queryKey: readonly unknown[] }) => !partialMatchKey(query.queryKey, queryKeys.session());

/** Shows the user; a page that was someone else's (or nobody's) fetches everything personal again. */
async function applyUser(queryClient: QueryClient, user: SessionUser | null, { refresh }: { refresh: boolean }): Promise<void> {
  rememberUser(user);
  queryClient.setQueryData(sessionQuery.queryKey, { user });
  // Nothing personal stays in the cache for the next person at this browser.
  if (!user) queryClient.removeQueries({ predicate: isPersonal });
  else if (refresh) await queryClient.invalidateQueries({ predicate: isPersonal });
}

function tellOtherTabs(): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(SESSION_CHANNEL);
  channel.postMessage('changed');
  channel.close();
}

/** Renders nothing until the server has said who the visitor is, so no page flashes the wrong state. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const { data, isPending } = useQuery(sessionQuery);
  const [loginRequest, setLoginRequest] = useState<LoginRequest>(null);

  const signedIn = useCallback(
    async (user: SessionUser) => {
      await applyUser(queryClient, user, { refresh: true });
      tellOtherTabs();
    },
    [queryClient],
  );

  const signedOut = useCallback(async () => {
    await applyUser(queryClient, null, { refresh: false });
    tellOtherTabs();
  }, [queryClient]);

  const signingOutNow = useRef(false);
  const signOut = useCallback(async () => {
    signingOutNow.current = true;
    try {
      // A personal request still under way would otherwise reach the server after the session has ended, and be refused.
      await queryClient.cancelQueries({ predicate: isPersonal });
      await requestJson<null>('/api/auth/session', { method: 'DELETE' });
      await signedOut();
    } finally {
      signingOutNow.current = false;
    }
  }, [queryClient, signedOut]);
  const signingOut = useCallback(() => signingOutNow.current, []);

  const recheck = useCallback(async () => {
    let user: SessionUser | null;
    try {
      ({ user } = await requestJson<SessionResponse>(SESSION_PATH));
    } catch {
      // Unreachable now; the next change or reconnect asks again.
      return;
    }
    const shown = queryClient.getQueryData(sessionQuery.queryKey)?.user ?? null;
    await applyUser(queryClient, user, { refresh: user?.email !== shown?.email });
  }, [queryClient]);

  useEffect(() => {
    if (typeof BroadcastChannel === 'undefined') return;
    const channel = new BroadcastChannel(SESSION_CHANNEL);
    channel.onmessage = () => void recheck();
    return () => channel.close();
  }, [recheck]);

  const value = useMemo<Session>(
    () => ({
      // Offline, this is the user last signed in at this browser (sessionQuery), so their pages still open.
      user: data?.user ?? null,
      loginRequest,
      openLogin: (email) => setLoginRequest({ email }),
      closeLogin: () => setLoginRequest(null),
      signedIn,
      signOut,
      signingOut,
      signedOut,
      recheck,
    }),
    [data, loginRequest, signedIn, signOut, signingOut, signedOut, recheck],
  );

  if (isPending) return null;
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession needs a SessionProvider');
  return session;
}
