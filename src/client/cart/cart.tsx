import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { MAX_CART_LINES, type CartItem, type CartOperation, type CartOperationOutcome, type CartOperationsResponse, type CartResponse } from '../../shared/cart.js';
import type { Product } from '../../shared/catalog.js';
import { CATALOGUE_TOPIC } from '../../shared/live.js';
import { TranslatedError } from '../api/error-text.js';
import { ApiError, requestJson } from '../api/http.js';
import { useConnectivity } from '../connectivity/connectivity.js';
import { useTranslation } from '../i18n/i18n.js';
import { useSession } from '../session/session.js';
import { useModal } from '../ui/modal/modal-context.js';
import {
  newOperationId,
  queueRemoval,
  readMirror,
  readQueue,
  toOperations,
  withQueue,
  writeMirror,
  writeQueue,
  type QueuedOperation,
  type ShownCartItem,
} from './cart-storage.js';

export const CART_QUERY_KEY = ['cart'] as const;

/** A failure whose text is meant for the customer, already translated. */
export class CartError extends TranslatedError {}

interface Cart {
  items: ShownCartItem[];
  isPending: boolean;
  isError: boolean;
  refetch(): void;
  /**
   * Resolves with offline true when the addition waits in the offline queue; otherwise with the line
   * as the server added it, at the product's current name and price.
   */
  add(product: Pick<Product, 'id' | 'name' | 'priceMinor'>): Promise<{ offline: boolean; added?: CartItem }>;
  remove(item: ShownCartItem): Promise<void>;
}

const CartContext = createContext<Cart | null>(null);

const sendOperations = (operations: CartOperation[]) =>
  requestJson<CartOperationsResponse>('/api/cart/operations', { method: 'POST', body: JSON.stringify({ operations }) });

/**
 * The signed-in customer's cart: the server's copy with the offline queue on top, mirrored in
 * local storage. Changes made offline wait in the queue and are sent, once each, on reconnect.
 */
export function CartProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const email = user?.email ?? null;
  const { online, reportNetworkFailure, setSyncing } = useConnectivity();
  const queryClient = useQueryClient();
  const showModal = useModal();
  const [queueVersion, setQueueVersion] = useState(0);

  const cart = useQuery({
    queryKey: [...CART_QUERY_KEY, email],
    enabled: email !== null,
    queryFn: async () => withQueue((await requestJson<CartResponse>('/api/cart')).items, readQueue(localStorage, email!)),
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

  const show = useCallback((shown: ShownCartItem[]) => queryClient.setQueryData([...CART_QUERY_KEY, email], shown), [queryClient, email]);

  /** Changes the local queue and the shown cart together, or neither when storage refuses. */
  const changeOffline = useCallback(
    (change: (queue: QueuedOperation[]) => QueuedOperation[], shown: (items: ShownCartItem[]) => ShownCartItem[]) => {
      try {
        writeQueue(localStorage, email!, change(readQueue(localStorage, email!)));
      } catch {
        throw new CartError(t('cart.errors.offlineWriteFailed'));
      }
      show(shown(queryClient.getQueryData<ShownCartItem[]>([...CART_QUERY_KEY, email]) ?? items));
      setQueueVersion((version) => version + 1);
    },
    [email, items, queryClient, show, t],
  );

  /** Sends one operation, or queues it when offline or when the shop cannot be reached. */
  const sendOrQueue = useCallback(
    async (operation: CartOperation, queueIt: () => void): Promise<{ offline: boolean; outcome?: CartOperationOutcome; items?: CartItem[] }> => {
      if (online) {
        try {
          const response = await sendOperations([operation]);
          show(withQueue(response.items, readQueue(localStorage, email!)));
          return { offline: false, outcome: response.outcomes[0]?.outcome, items: response.items };
        } catch (error) {
          if (!(error instanceof ApiError && error.code === 'network')) throw error;
          reportNetworkFailure();
        }
      }
      queueIt();
      return { offline: true };
    },
    [email, online, reportNetworkFailure, show],
  );

  const add = useCallback<Cart['add']>(
    async (product) => {
      if (!product.id) throw new CartError(t('cart.errors.invalidProduct'));
      if (!email) throw new CartError(t('cart.errors.userRequired'));
      const operation: CartOperation = { id: newOperationId(), type: 'add', productId: product.id };
      try {
        const { offline, outcome, items: lines } = await sendOrQueue(operation, () => {
          const queued: QueuedOperation = { ...operation, name: product.name, priceMinor: product.priceMinor, addedAt: new Date().toISOString(), pendingSync: true };
          changeOffline((queue) => [...queue, queued], (shown) => withQueue(shown, [queued]));
        });
        // Every line of a product shows its current name and price, so any of them tells what was added.
        const added = lines?.find((line) => line.productId === product.id);
        // The page showed the product otherwise than the shop has it (its news is still on the way): it is shown anew.
        const outdated = outcome === 'product_missing' || (added !== undefined && (added.name !== product.name || added.priceMinor !== product.priceMinor));
        if (outdated) void queryClient.invalidateQueries({ queryKey: [CATALOGUE_TOPIC] });
        if (outcome === 'product_missing') throw new CartError(t('cart.errors.productMissing'));
        return { offline, added };
      } catch (error) {
        if (error instanceof ApiError && error.code === 'cart_full') throw new CartError(t('cart.errors.cartFull', { max: MAX_CART_LINES }));
        throw error;
      }
    },
    [changeOffline, email, queryClient, sendOrQueue, t],
  );

  const remove = useCallback<Cart['remove']>(
    async (item) => {
      if (!email) throw new CartError(t('cart.errors.userRequired'));
      const operationId = newOperationId();
      const queueIt = () =>
        changeOffline(
          (queue) => queueRemoval(queue, item, operationId),
          (shown) => shown.filter((line) => line.id !== item.id),
        );
      // A line still waiting in the queue is only in this browser: taking it out of the queue removes it.
      if (item.pendingSync) return queueIt();
      await sendOrQueue({ id: operationId, type: 'remove', itemId: item.id }, queueIt);
    },
    [changeOffline, email, sendOrQueue, t],
  );

  // Back online with work queued: send it, once, then reload what the customer sees.
  const syncing = useRef(false);
  useEffect(() => {
    if (!email || !online || syncing.current) return;
    const queue = readQueue(localStorage, email);
    if (queue.length === 0) return;
    syncing.current = true;
    setSyncing(true);
    /** Takes what was sent out of the stored queue; anything queued meanwhile stays for the next round. */
    const forget = (sent: readonly QueuedOperation[]) => {
      const ids = new Set(sent.map((operation) => operation.id));
      writeQueue(localStorage, email, readQueue(localStorage, email).filter((operation) => !ids.has(operation.id)));
    };
    const additions = queue.filter((operation): operation is Extract<QueuedOperation, { type: 'add' }> => operation.type === 'add');
    void (async () => {
      try {
        try {
          const response = await sendOperations(toOperations(queue));
          forget(queue);
          const gone = additions.filter((operation) =>
            response.outcomes.some((outcome) => outcome.id === operation.id && outcome.outcome === 'product_missing'),
          );
          if (gone.length > 0) {
            showModal({ type: 'warning', message: t('cart.errors.droppedOffline', { names: gone.map((operation) => operation.name).join(', ') }) });
          }
        } catch (error) {
          if (!(error instanceof ApiError && error.code === 'cart_full')) throw error;
          // The server applied none of it. Removals never fill a cart, so they go alone; the additions cannot.
          const removals = queue.filter((operation) => operation.type === 'remove');
          if (removals.length > 0) await sendOperations(toOperations(removals));
          forget(queue);
          showModal({
            type: 'warning',
            message: t('cart.errors.cartFullOffline', { max: MAX_CART_LINES, names: [...new Set(additions.map((operation) => operation.name))].join(', ') }),
          });
        }
        await queryClient.invalidateQueries();
      } catch (error) {
        if (error instanceof ApiError && error.code === 'network') reportNetworkFailure();
        else if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
          // The server will never take this queue; keeping it would only fail again at every reconnect.
          writeQueue(localStorage, email, []);
          showModal({ type: 'error', message: t('cart.errors.syncFailed') });
          await queryClient.invalidateQueries({ queryKey: CART_QUERY_KEY });
        }
      } finally {
        syncing.current = false;
        setSyncing(false);
      }
    })();
  }, [email, online, queueVersion, queryClient, reportNetworkFailure, setSyncing, showModal, t]);

  const value = useMemo<Cart>(
    () => ({ items, isPending: cart.isPending && !cart.data, isError: cart.isError && !cart.data, refetch: () => void cart.refetch(), add, remove }),
    [items, cart, add, remove],
  );
  return <CartContext.Provider value={value}>{children}</CartContext.Provider>;
}

export function useCart(): Cart {
  const cart = useContext(CartContext);
  if (!cart) throw new Error('useCart needs a CartProvider');
  return cart;
}

/**
 * The cart for a page that shows its prices (cart, checkout): asked of the server again as the page
 * opens, since a product's price may have changed after the cart was last loaded while the live
 * stream, which would have said so, was down or refused.
 */
export function useCartWithCurrentPrices(): Cart {
  const cart = useCart();
  const queryClient = useQueryClient();
  useEffect(() => {
    void queryClient.invalidateQueries({ queryKey: CART_QUERY_KEY });
  }, [queryClient]);
  return cart;
}
