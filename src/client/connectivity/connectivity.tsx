import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { onlineManager, useQueryClient } from '@tanstack/react-query';

export type ConnectionStatus = 'online' | 'offline' | 'syncing';

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

  // The browser may think it is online while the shop cannot be reached; look again now and then.
  useEffect(() => {
    if (online) return;
    const timer = setInterval(() => {
      if (navigator.onLine) void serverAnswers().then((answers) => answers && setOnline(true));
    }, SERVER_CHECK_MS);
    return () => clearInterval(timer);
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
