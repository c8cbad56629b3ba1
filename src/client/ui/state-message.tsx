import type { ReactNode } from 'react';
import { useTranslation } from '../i18n/i18n.js';

/** A page or panel still waiting for its data; screen readers hear it once. */
export function LoadingMessage({ children }: { children: ReactNode }) {
  return (
    <p className="state-message" role="status">
      {children}
    </p>
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
