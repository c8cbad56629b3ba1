import { useTranslation } from '#client/i18n/i18n.js';
import { useAppUpdate } from './app-update.js';

const MESSAGE_KEYS = { available: 'update.available', switching: 'update.switching', required: 'update.required' } as const;

/** Says when a new version of the shop is ready, and loads it when the visitor chooses. */
export function UpdateBar() {
  const { t } = useTranslation();
  const update = useAppUpdate();
  if (update.kind === 'none') return null;
  return (
    <div className="update-bar" role="status" aria-busy={update.kind === 'switching'}>
      <span>{t(MESSAGE_KEYS[update.kind])}</span>
      {update.kind !== 'switching' && (
        <span className="update-bar__actions">
          <button type="button" className="button button--small button--primary" onClick={update.kind === 'available' ? update.reload : () => window.location.reload()}>
            {t('update.reload')}
          </button>
          {update.kind === 'available' && (
            <button type="button" className="button button--small" onClick={update.dismiss}>
              {t('update.later')}
            </button>
          )}
        </span>
      )}
    </div>
  );
}
