import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { onlineManager, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '#client/api/http.js';

type ConnectionStatus = 'online' | 'offline' | 'syncing';

interface Connectivity {
  status: ConnectionStatus;
  online: boolean;
  reconnecting: boolean;
  /** Checks the server again and, when it answers, refreshes what the page shows. */
  reconnect(): Promise<void>;
  /** A request failed for want of a network: treat the shop as offline until the server answers again. */
  reportNetworkFailure(): void;
  /** Raised by whoever replays offline work while it runs. */
  setSyncing(syncing: boolean): void;
}

const ConnectivityContext = createContext<Connectivity | null>(null);
/**
 * After a request failed for want of a network, the server is asked again after 1, 2, 4 and 8
 * seconds, then every 10: a connection that has just come back (the browser's online event often
 * comes before requests get through) is noticed at once, and a long outage costs little.
 */
const SERVER_CHECK_DELAYS_MS = [1_000, 2_000, 4_000, 8_000];
const SERVER_CHECK_MS = 10_000;

async function serverAnswers(): Promise<boolean> {
  try {
    return (await fetch('/api/health', { cache: 'no-store' })).ok;
  } catch {
    return false;
  }
}

export function ConnectivityProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [online, setOnline] = useState(() => navigator.onLine);
  const [syncing, setSyncing] = useState(false);
  const [reconnecting, setReconnecting] = useState(false);

  useEffect(() => {
    const goOnline = () => setOnline(true);
    const goOffline = () => setOnline(false);
    window.addEventListener('online', goOnline);
    window.addEventListener('offline', goOffline);
    return () => {
      window.removeEventListener('online', goOnline);
      window.removeEventListener('offline', goOffline);
    };
  }, []);

  useEffect(() => onlineManager.setOnline(online), [online]);

  // Any data request that fails for want of a network means the same as a failed cart change: the
  // shop is out of reach. Queries then wait (paused) instead of failing, and resume when it answers.
  useEffect(
    () =>
      queryClient.getQueryCache().subscribe((event) => {
        if (event.type !== 'updated' || (event.action.type !== 'failed' && event.action.type !== 'error')) return;
        if (event.action.error instanceof ApiError && event.action.error.code === 'network') setOnline(false);
      }),
    [queryClient],
  );

  // The browser may think it is online while the shop cannot be reached; look again now and then.
  useEffect(() => {
    if (online) return;
    let stopped = false;
    let attempt = 0;
    let timer: ReturnType<typeof setTimeout>;
    const checkLater = () => {
      timer = setTimeout(() => void check(), SERVER_CHECK_DELAYS_MS[attempt++] ?? SERVER_CHECK_MS);
    };
    const check = async () => {
      const answers = navigator.onLine && (await serverAnswers());
      if (stopped) return;
      if (answers) setOnline(true);
      else checkLater();
    };
    checkLater();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [online]);

  const reconnect = useCallback(async () => {
    setReconnecting(true);
    try {
      if (await serverAnswers()) {
        setOnline(true);
        await queryClient.invalidateQueries();
      }
    } finally {
      setReconnecting(false);
    }
  }, [queryClient]);

  const reportNetworkFailure = useCallback(() => setOnline(false), []);

  const value = useMemo<Connectivity>(
    () => ({
      status: !online ? 'offline' : syncing ? 'syncing' : 'online',
      online,
      reconnecting,
      reconnect,
      reportNetworkFailure,
      setSyncing,
    }),
    [online, syncing, reconnecting, reconnect, reportNetworkFailure],
  );
  return <ConnectivityContext.Provider value={value}>{children}</ConnectivityContext.Provider>;
}

export function useConnectivity(): Connectivity {
  const value = useContext(ConnectivityContext);
  if (!value) throw new Error('useConnectivity needs a ConnectivityProvider');
  return value;
}
