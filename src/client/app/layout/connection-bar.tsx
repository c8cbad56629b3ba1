import { useTranslation } from '#client/i18n/i18n.js';
import { useConnectivity } from '#client/connectivity/connectivity.js';

export function ConnectionBar() {
  const { t } = useTranslation();
  const { status, reconnecting, reconnect } = useConnectivity();
  if (status === 'online') return null;
  return (
    <div className={`connection-bar connection-bar--${status}`} role="status">
      {status === 'offline' ? (
        <>
          <span>{t('connection.offline')}</span>
          <button type="button" className="button button--small" onClick={() => void reconnect()} disabled={reconnecting}>
            {reconnecting ? t('connection.reconnecting') : t('connection.reconnect')}
          </button>
        </>
      ) : (
        <span>{t('connection.syncing')}</span>
      )}
    </div>
  );
}
