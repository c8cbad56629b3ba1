import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useConnectivity } from '#client/connectivity/connectivity.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { useModal } from '#client/ui/modal/modal-context.js';
import { readQueue } from './cart-storage.js';

/**
 * Back online with cart changes queued: sends them (send-offline-queue.ts), one round at a time.
 * `queueVersion` is a change of the queue made by this tab, which the effect looks at again.
 */
export function useOfflineQueueSync(email: string | null, queueVersion: number): void {
  const { t, language } = useTranslation();
  const { online, reportNetworkFailure, setSyncing } = useConnectivity();
  const queryClient = useQueryClient();
  const showModal = useModal();
  const syncing = useRef(false);

  useEffect(() => {
    if (!email || !online || syncing.current) return;
    const queue = readQueue(localStorage, email);
    if (queue.length === 0) return;
    syncing.current = true;
    setSyncing(true);
    void import('./send-offline-queue.js')
      .then(({ sendOfflineQueue }) => sendOfflineQueue(queue, { email, t, language, showModal, queryClient, reportNetworkFailure }))
      // Its code could not be downloaded (offline again, or a new version replaced it): the queue stays for the next round.
      .catch(() => undefined)
      .finally(() => {
        syncing.current = false;
        setSyncing(false);
      });
  }, [email, language, online, queueVersion, queryClient, reportNetworkFailure, setSyncing, showModal, t]);
}
