import { lazy, useEffect, useState } from 'react';
import { SIGN_IN_TOKEN_PARAM } from '../../shared/auth.js';
import { useSession } from '../session/session.js';
import { ChunkBoundary } from '../ui/chunk-boundary.js';

// Sign-in code is not needed to show the first page, so it is not part of it.
const loadLoginDialog = () => import('../features/auth/login-dialog.js');
const LoginDialog = lazy(loadLoginDialog);
const CompleteSignIn = lazy(() => import('../features/auth/complete-sign-in.js'));

/** Takes the sign-in token out of the address bar, so that it is not bookmarked, shared or reloaded. */
function takeTokenFromAddress(): string | null {
  const url = new URL(window.location.href);
  const token = url.searchParams.get(SIGN_IN_TOKEN_PARAM);
  if (!token) return null;
  url.searchParams.delete(SIGN_IN_TOKEN_PARAM);
  window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
  return token;
}

export function AuthDialogs() {
  const { user, loginRequest } = useSession();
  const [token, setToken] = useState(takeTokenFromAddress);

  useEffect(() => {
    // Fetched right after the first page shows (a few kilobytes), so that the login dialog opens at
    // once, and still opens after the connection drops.
    if (!user) void loadLoginDialog().catch(() => {});
  }, [user]);

  return (
    <ChunkBoundary fallback={null}>
      {token ? <CompleteSignIn token={token} onDone={() => setToken(null)} /> : loginRequest && <LoginDialog />}
    </ChunkBoundary>
  );
}
