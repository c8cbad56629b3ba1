import { useEffect, useMemo, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { queryKeys } from '#client/api/query-keys.js';
import { useSession } from '#client/session/session.js';
import { fetchCartItems } from './cart-api.js';
import { CartContext, type Cart } from './cart-context.js';
import { readMirror, readQueue, withQueue, writeMirror, type ShownCartItem } from './cart-storage.js';
import { useCartChanges } from './use-cart-changes.js';
import { useOfflineQueueSync } from './use-offline-queue-sync.js';

/**
 * The signed-in customer's cart: the server's copy with the offline queue on top, mirrored in
 * local storage. Changes made offline wait in the queue and are sent, once each, on reconnect.
 */
export function CartProvider({ children }: { children: ReactNode }) {
  const { user } = useSession();
  const email = user?.email ?? null;

  const cart = useQuery<ShownCartItem[]>({
    queryKey: queryKeys.cart(email),
    enabled: email !== null,
    queryFn: async ({ signal }) => withQueue(await fetchCartItems(signal), readQueue(localStorage, email!)),
    // Until the server answers (or while it cannot), the copy kept in this browser is shown.
    placeholderData: () => (email ? readMirror(localStorage, email) : undefined),
  });
  const items = useMemo(() => cart.data ?? [], [cart.data]);

  useEffect(() => {
    if (!email || !cart.data) return;
    try {
      writeMirror(localStorage, email, cart.data);
    } catch {
      // The mirror is a convenience; the queue, written separately, is what must not be lost.
    }
  }, [email, cart.data]);

  const { add, setQuantity, remove, queueVersion } = useCartChanges(email, items);
  useOfflineQueueSync(email, queueVersion);

  const value = useMemo<Cart>(
    () => ({
      items,
      isPending: cart.isPending && !cart.data,
      awaitingServer: cart.isPlaceholderData && cart.isFetching,
      isError: cart.isError && !cart.data,
      refetch: () => void cart.refetch(),
      add,
      setQuantity,
      remove,
    }),
    [items, cart, add, setQuantity, remove],
  );
  return <CartContext.Provider value={value}>{children}</CartContext.Provider>;
}
