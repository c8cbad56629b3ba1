import { useEffect, useState, type ReactNode } from 'react';
import { useConnectivity } from '#client/connectivity/connectivity.js';
import { useTranslation } from '#client/i18n/i18n.js';

/** Offline, what the service worker keeps (code, the catalogue) still arrives within this time. */
const OFFLINE_GRACE_MS = 500;

/**
 * A page or panel still waiting for its data; screen readers hear it once. Offline, requests wait for
 * the connection (they are paused, not failed), so the wait may be endless: the message says so then,
 * and offers to try the connection again; the data loads by itself once the shop answers.
 */
export function LoadingMessage({ children }: { children: ReactNode }) {
  const { online } = useConnectivity();
  const [graceOver, setGraceOver] = useState(false);
  useEffect(() => {
    if (online) return;
    const timer = setTimeout(() => setGraceOver(true), OFFLINE_GRACE_MS);
    return () => {
      clearTimeout(timer);
      setGraceOver(false);
    };
  }, [online]);
  if (!online && graceOver) return <OfflineMessage />;
  return (
    <p className="state-message" role="status">
      {children}
    </p>
  );
}

function OfflineMessage() {
  const { t } = useTranslation();
  const { reconnecting, reconnect } = useConnectivity();
  return (
    <div className="state-message state-message--offline" role="status">
      <p>{t('connection.notLoaded')}</p>
      <button type="button" className="button" onClick={() => void reconnect()} disabled={reconnecting}>
        {reconnecting ? t('connection.reconnecting') : t('common.tryAgain')}
      </button>
    </div>
  );
}

/** Data that could not be loaded, with a way to ask again where one is given. */
export function LoadErrorMessage({ message, onRetry }: { message: string; onRetry?: () => unknown }) {
  const { t } = useTranslation();
  return (
    <div className="state-message state-message--error" role="alert">
      <p>{message}</p>
      {onRetry && (
        <button type="button" className="button" onClick={() => void onRetry()}>
          {t('common.tryAgain')}
        </button>
      )}
    </div>
  );
}
