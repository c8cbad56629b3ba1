import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { MAX_CART_PIECES, type CartItem, type CartOperation, type CartOperationResult, type CartOperationsResponse, type CartResponse } from '../../shared/cart.js';
import type { Product } from '../../shared/catalog.js';
import { pickText } from '../../shared/catalog.js';
import { CATALOGUE_TOPIC } from '../../shared/live.js';
import { TranslatedError } from '../api/error-text.js';
import { ApiError, requestJson } from '../api/http.js';
import { useConnectivity } from '../connectivity/connectivity.js';
import { useTranslation } from '../i18n/i18n.js';
import { useSession } from '../session/session.js';
import { useModal } from '../ui/modal/modal-context.js';
import { shortageText } from './shortage-text.js';
import {
  newOperationId,
  queueOperation,
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
  add(product: Pick<Product, 'id' | 'name' | 'priceMinor' | 'stock'>): Promise<{ offline: boolean; added?: CartItem }>;
  /** Sets a line's quantity; refused with a CartError naming what is left when the product has fewer pieces. */
  setQuantity(item: ShownCartItem, quantity: number): Promise<void>;
  /** Takes the whole line out. */
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
  const { t, language } = useTranslation();
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
    async (operation: CartOperation, queueIt: () => void): Promise<{ offline: boolean; result?: CartOperationResult; items?: CartItem[] }> => {
      if (online) {
        try {
          const response = await sendOperations([operation]);
          show(withQueue(response.items, readQueue(localStorage, email!)));
          return { offline: false, result: response.outcomes[0], items: response.items };
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
        const { offline, result, items: lines } = await sendOrQueue(operation, () => {
          const queued: QueuedOperation = { ...operation, name: product.name, priceMinor: product.priceMinor, stock: product.stock, addedAt: new Date().toISOString(), pendingSync: true };
          changeOffline((queue) => queueOperation(queue, queued), (shown) => withQueue(shown, [queued]));
        });
        const added = lines?.find((line) => line.productId === product.id);
        // The page showed the product otherwise than the shop has it (its news is still on the way): it is shown anew.
        const outdated =
          result?.outcome === 'product_missing' ||
          result?.outcome === 'stock_short' ||
          (added !== undefined && (added.name.en !== product.name.en || added.name.bg !== product.name.bg || added.priceMinor !== product.priceMinor));
        if (outdated) void queryClient.invalidateQueries({ queryKey: [CATALOGUE_TOPIC] });
        if (result?.outcome === 'product_missing') throw new CartError(t('cart.errors.productMissing'));
        if (result?.shortage) throw new CartError(shortageText(t, language, result.shortage));
        return { offline, added };
      } catch (error) {
        if (error instanceof ApiError && error.code === 'cart_full') throw new CartError(t('cart.errors.cartFull', { max: MAX_CART_PIECES }));
        throw error;
      }
    },
    [changeOffline, email, language, queryClient, sendOrQueue, t],
  );

  const setQuantity = useCallback<Cart['setQuantity']>(
    async (item, quantity) => {
      if (!email) throw new CartError(t('cart.errors.userRequired'));
      const operation: CartOperation = { id: newOperationId(), type: 'set', productId: item.productId, quantity };
      const queued: QueuedOperation = { ...operation, name: item.name, priceMinor: item.priceMinor, stock: item.stock, addedAt: item.addedAt, pendingSync: true };
      const queueIt = () => changeOffline((queue) => queueOperation(queue, queued), (shown) => withQueue(shown, [queued]));
      // A line known only to this browser changes in the queue alone, which the server will replay in order.
      if (item.pendingSync && item.id.startsWith('pending-')) return queueIt();
      try {
        const { result } = await sendOrQueue(operation, queueIt);
        if (result?.shortage) throw new CartError(shortageText(t, language, result.shortage));
        if (result?.outcome === 'product_missing') throw new CartError(t('cart.errors.productMissing'));
      } catch (error) {
        if (error instanceof ApiError && error.code === 'cart_full') throw new CartError(t('cart.errors.cartFull', { max: MAX_CART_PIECES }));
        throw error;
      }
    },
    [changeOffline, email, language, sendOrQueue, t],
  );

  const remove = useCallback<Cart['remove']>((item) => setQuantity(item, 0), [setQuantity]);

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
    // What may add pieces; the rest (removals, quantities of 0) never fills a cart nor meets a short stock.
    const additions = queue.filter(
      (operation): operation is Exclude<QueuedOperation, { type: 'remove' }> => operation.type === 'add' || (operation.type === 'set' && operation.quantity > 0),
    );
    void (async () => {
      try {
        try {
          const response = await sendOperations(toOperations(queue));
          forget(queue);
          const outcomeOf = (operation: QueuedOperation) => response.outcomes.find((outcome) => outcome.id === operation.id);
          const gone = additions.filter((operation) => outcomeOf(operation)?.outcome === 'product_missing');
          const short = additions.flatMap((operation) => outcomeOf(operation)?.shortage ?? []);
          const messages = [
            ...(gone.length > 0 ? [t('cart.errors.droppedOffline', { names: [...new Set(gone.map((operation) => pickText(operation.name, language).text))].join(', ') })] : []),
            // One message per product, with the count the server named last.
            ...[...new Map(short.map((shortage) => [shortage.productId, shortage])).values()].map((shortage) => shortageText(t, language, shortage)),
          ];
          if (messages.length > 0) showModal({ type: 'warning', message: messages.join(' ') });
        } catch (error) {
          if (!(error instanceof ApiError && error.code === 'cart_full')) throw error;
          // The server applied none of it. Removals never fill a cart, so they go alone; the additions cannot.
          const removals = queue.filter((operation) => !additions.some((addition) => addition.id === operation.id));
          if (removals.length > 0) await sendOperations(toOperations(removals));
          forget(queue);
          showModal({
            type: 'warning',
            message: t('cart.errors.cartFullOffline', { max: MAX_CART_PIECES, names: [...new Set(additions.map((operation) => pickText(operation.name, language).text))].join(', ') }),
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
  }, [email, language, online, queueVersion, queryClient, reportNetworkFailure, setSyncing, showModal, t]);

  const value = useMemo<Cart>(
    () => ({ items, isPending: cart.isPending && !cart.data, isError: cart.isError && !cart.data, refetch: () => void cart.refetch(), add, setQuantity, remove }),
    [items, cart, add, setQuantity, remove],
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
