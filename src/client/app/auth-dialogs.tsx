import { lazy, useEffect, useState } from 'react';
import { SIGN_IN_TOKEN_PARAM } from '#shared/auth.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { loadDictionary } from '#client/i18n/texts.js';
import { useSession } from '#client/session/session.js';
import { ChunkBoundary } from '#client/ui/chunk-boundary.js';
import { useModal } from '#client/ui/modal/modal-context.js';
import { whenPageIdle } from './when-page-idle.js';

// Sign-in code is not needed to show the first page, so it is not part of it.
const loadLoginDialog = () => import('#client/features/auth/login-dialog.js');
const LoginDialog = lazy(loadLoginDialog);
const CompleteSignIn = lazy(() => import('#client/features/auth/complete-sign-in.js'));

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
  const { t, language, pageTextsReady, loadPageTexts } = useTranslation();
  const { user, loginRequest, closeLogin } = useSession();
  const showModal = useModal();
  const [token, setToken] = useState(takeTokenFromAddress);
  const dialogWanted = token !== null || loginRequest !== null;

  // The dialogs' texts are among the pages' ones: asked for with each dialog, so that one asked for
  // again after a failed download (offline before the app was kept for offline use) tries again.
  useEffect(() => {
    if (!dialogWanted || pageTextsReady) return;
    let current = true;
    void loadPageTexts().then((loaded) => {
      if (loaded || !current) return;
      showModal({ type: 'error', message: t('app.chunkError') });
      closeLogin();
      setToken(null);
    });
    return () => {
      current = false;
    };
  }, [dialogWanted, pageTextsReady, loadPageTexts, showModal, t, closeLogin]);

  useEffect(() => {
    // Fetched once the first page is idle, so that the login dialog opens at once, and still opens
    // after the connection drops. Not sooner: its code brings the validation library (about 80 KB) and
    // its texts are among the pages' ones, none of which the first page needs.
    if (!user)
      return whenPageIdle(() => {
        void loadLoginDialog().catch(() => {});
        void loadDictionary(language, 'pages').catch(() => {});
      });
  }, [user, language]);

  if (!dialogWanted || !pageTextsReady) return null;
  return (
    <ChunkBoundary fallback={null}>
      {token ? <CompleteSignIn token={token} onDone={() => setToken(null)} /> : <LoginDialog />}
    </ChunkBoundary>
  );
}
