import { Component, Suspense, type ReactNode } from 'react';
import { useTranslation } from '#client/i18n/i18n.js';
import { LoadErrorMessage } from './state-message.js';

// React.lazy remembers a failed download, so a retry loads the page again.
function ChunkFailed() {
  const { t } = useTranslation();
  return <LoadErrorMessage message={t('app.chunkError')} onRetry={() => window.location.reload()} />;
}

/**
 * Shows a lazily loaded part of the app, or a message with a retry when its code cannot be
 * downloaded (offline, or a new version replaced the files), instead of a blank page.
 */
export class ChunkBoundary extends Component<{ children: ReactNode; fallback: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    if (this.state.failed) return <ChunkFailed />;
    return <Suspense fallback={this.props.fallback}>{this.props.children}</Suspense>;
  }
}
