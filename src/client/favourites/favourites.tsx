import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { FavouritesResponse } from '#shared/favourites.js';
import { ApiError, requestJson } from '#client/api/http.js';
import { queryKeys } from '#client/api/query-keys.js';
import { errorText } from '#client/api/error-text.js';
import { useConnectivity } from '#client/connectivity/connectivity.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { useSession } from '#client/session/session.js';
import { Toast } from '#client/ui/toast.js';
import { readPendingFavourites, readVisitorFavourites, writePendingFavourites, writeVisitorFavourites, type PendingFavourites } from './favourites-storage.js';

interface Favourites {
  /** Her favourites' ids, newest first; empty until they are known (see loaded). */
  ids: readonly string[];
  /** Whether the account's favourites have arrived (a visitor's are always known). */
  loaded: boolean;
  isFavourite(productId: string): boolean;
  setFavourite(productId: string, favourite: boolean): void;
}

const FavouritesContext = createContext<Favourites>({ ids: [], loaded: true, isFavourite: () => false, setFavourite: () => {} });

const withoutId = (ids: readonly string[], productId: string) => ids.filter((id) => id !== productId);

/**
 * The hearts on cards and product pages. A visitor's stay in this browser; when she signs in they
 * join her account's, which are the same on every device she signs in on. A heart set while the
 * server cannot be reached waits in this browser and is sent when the connection is back: PUT and
 * DELETE say what it should be, so a request sent twice changes nothing.
 */
export function FavouritesProvider({ children }: { children: ReactNode }) {
  const { user } = useSession();
  const { online } = useConnectivity();
  const queryClient = useQueryClient();
  const email = user?.email ?? null;
  const [visitorIds, setVisitorIds] = useState(readVisitorFavourites);
  const [pending, setPending] = useState<PendingFavourites>(() => (email ? readPendingFavourites(email) : {}));
  const sending = useRef(false);
  const { t } = useTranslation();
  const [refusal, setRefusal] = useState<string | null>(null);
  const refusalShown = useCallback(() => setRefusal(null), []);
  /** The visitor's hearts, kept in this browser and shown. */
  const keepVisitorIds = useCallback((next: string[]) => {
    writeVisitorFavourites(next);
    setVisitorIds(next);
  }, []);

  const account = useQuery({
    queryKey: queryKeys.favourites(email ?? ''),
    queryFn: () => requestJson<FavouritesResponse>('/api/favourites'),
    enabled: email !== null,
    staleTime: 60_000,
  });

  useEffect(() => setPending(email ? readPendingFavourites(email) : {}), [email]);

  /**
   * Shows the account's list as a change left it. A read of the list sent before the change was
   * written may still be on its way (the first read as she signs in, say): it is cancelled first, or
   * its older answer would land after this one and take the change off the screen. Without a list
   * to change, the list is read again.
   */
  const showChanged = useCallback(
    async (accountEmail: string, change: (current: FavouritesResponse | undefined) => FavouritesResponse | undefined) => {
      const queryKey = queryKeys.favourites(accountEmail);
      await queryClient.cancelQueries({ queryKey });
      const changed = change(queryClient.getQueryData<FavouritesResponse>(queryKey));
      if (changed) queryClient.setQueryData(queryKey, changed);
      else void queryClient.invalidateQueries({ queryKey });
    },
    [queryClient],
  );

  const choose = useCallback(
    (change: (current: PendingFavourites) => PendingFavourites) => {
      if (!email) return;
      const next = change(readPendingFavourites(email));
      writePendingFavourites(email, next);
      setPending(next);
    },
    [email],
  );

  /** Sends the hearts waiting in this browser, one after another, until none is left or the connection fails. */
  const sendPending = useCallback(async () => {
    if (!email || sending.current) return;
    sending.current = true;
    try {
      for (;;) {
        const [productId, favourite] = Object.entries(readPendingFavourites(email))[0] ?? [];
        if (productId === undefined) return;
        try {
          await requestJson(`/api/favourites/${productId}`, { method: favourite ? 'PUT' : 'DELETE' });
          await showChanged(email, (current) =>
            current ? { productIds: favourite ? [productId, ...withoutId(current.productIds, productId)] : withoutId(current.productIds, productId) } : undefined,
          );
        } catch (error) {
          // Offline or the server away: it waits for the connection. A refusal (a product since
          // deleted, a full list) is final: the heart shows what the account holds, and she is told why.
          if (error instanceof ApiError && (error.code === 'network' || error.status >= 500)) return;
          if (!(error instanceof ApiError && error.status === 404)) setRefusal(errorText(t, error));
        }
        // Taken off the queue unless she changed it again meanwhile: that choice is sent next.
        choose((current) => {
          if (current[productId] !== favourite) return current;
          const { [productId]: _sent, ...rest } = current;
          return rest;
        });
      }
    } finally {
      sending.current = false;
    }
  }, [email, showChanged, choose, t]);

  // Waiting hearts go when the connection comes back and when this customer signs in here.
  useEffect(() => {
    if (online) void sendPending();
  }, [online, sendPending]);

  // A visitor who signs in brings her hearts into her account, once.
  useEffect(() => {
    if (!email || !online || visitorIds.length === 0) return;
    const brought = visitorIds;
    void requestJson<FavouritesResponse>('/api/favourites/merge', { method: 'POST', body: JSON.stringify({ productIds: brought.slice(0, 100) }) })
      .then(async (merged) => {
        await showChanged(email, () => merged);
        keepVisitorIds([]);
      })
      .catch(() => {
        // Kept in the browser for the next sign-in or page load.
      });
  }, [email, online, visitorIds, showChanged, keepVisitorIds]);

  const value = useMemo<Favourites>(() => {
    // A visitor's hearts brought in at sign-in show until they have joined the account's (the merge
    // may wait for the connection, or fail and wait for the next page load).
    const accountIds = account.data?.productIds ?? [];
    const kept = email ? [...accountIds, ...visitorIds.filter((productId) => !accountIds.includes(productId))] : visitorIds;
    // Hearts still to be sent count already: added ones first, as the newest.
    const added = Object.entries(pending).flatMap(([productId, favourite]) => (favourite && !kept.includes(productId) ? [productId] : []));
    const ids = [...added, ...kept.filter((productId) => pending[productId] !== false)];
    const held = new Set(ids);
    return {
      ids,
      loaded: !email || account.data !== undefined,
      isFavourite: (productId) => held.has(productId),
      setFavourite(productId, favourite) {
        if (!email) {
          keepVisitorIds(favourite ? [productId, ...withoutId(visitorIds, productId)] : withoutId(visitorIds, productId));
          return;
        }
        // One still waiting to join the account is taken off here too, or the merge would bring it back.
        if (!favourite && visitorIds.includes(productId)) keepVisitorIds(withoutId(visitorIds, productId));
        choose((current) => ({ ...current, [productId]: favourite }));
        void sendPending();
      },
    };
  }, [email, account.data, visitorIds, pending, choose, sendPending, keepVisitorIds]);

  return (
    <FavouritesContext.Provider value={value}>
      {children}
      {refusal && <Toast message={refusal} kind="error" onDone={refusalShown} />}
    </FavouritesContext.Provider>
  );
}

export const useFavourites = (): Favourites => useContext(FavouritesContext);
