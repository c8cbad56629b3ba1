import { useCallback, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { MAX_CART_PIECES, type CartItem, type CartOperation, type CartOperationResult } from '#shared/cart.js';
import { ApiError } from '#client/api/http.js';
import { queryKeys } from '#client/api/query-keys.js';
import { useConnectivity } from '#client/connectivity/connectivity.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { sendCartOperations } from './cart-api.js';
import { CartError, ChoicesRefused, type Cart } from './cart-context.js';
import { newOperationId, queueOperation, readQueue, withQueue, writeQueue, type QueuedOperation, type ShownCartItem } from './cart-storage.js';
import { shortageText } from './shortage-text.js';

/**
 * The customer's changes to their cart: each is sent at once when the shop can be reached, and
 * otherwise waits in the offline queue, shown in the cart meanwhile. `queueVersion` changes whenever
 * the queue does, for the replay (use-offline-queue-sync.ts) to look at it again.
 */
export function useCartChanges(email: string | null, items: ShownCartItem[]): Pick<Cart, 'add' | 'setQuantity' | 'remove'> & { queueVersion: number } {
  const { t, language } = useTranslation();
  const { online, reportNetworkFailure } = useConnectivity();
  const queryClient = useQueryClient();
  const [queueVersion, setQueueVersion] = useState(0);

  const show = useCallback((shown: ShownCartItem[]) => queryClient.setQueryData(queryKeys.cart(email), shown), [queryClient, email]);

  /** Changes the local queue and the shown cart together, or neither when storage refuses. */
  const changeOffline = useCallback(
    (change: (queue: QueuedOperation[]) => QueuedOperation[], shown: (items: ShownCartItem[]) => ShownCartItem[]) => {
      try {
        writeQueue(localStorage, email!, change(readQueue(localStorage, email!)));
      } catch {
        throw new CartError(t('cart.errors.offlineWriteFailed'));
      }
      show(shown(queryClient.getQueryData<ShownCartItem[]>(queryKeys.cart(email)) ?? items));
      setQueueVersion((version) => version + 1);
    },
    [email, items, queryClient, show, t],
  );

  /** Sends one operation, or queues it when offline or when the shop cannot be reached. */
  const sendOrQueue = useCallback(
    async (operation: CartOperation, queueIt: () => void): Promise<{ offline: boolean; result?: CartOperationResult; items?: CartItem[] }> => {
      if (online) {
        try {
          const response = await sendCartOperations([operation]);
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
    async (product, chosen) => {
      if (!product.id) throw new CartError(t('cart.errors.invalidProduct'));
      if (!email) throw new CartError(t('cart.errors.userRequired'));
      const operation: CartOperation = { id: newOperationId(), type: 'add', productId: product.id, choices: chosen?.choices };
      const priceMinor = chosen?.priceMinor ?? product.priceMinor;
      try {
        const { offline, result, items: lines } = await sendOrQueue(operation, () => {
          const queued: QueuedOperation = { ...operation, ...chosen, slug: product.slug, name: product.name, priceMinor, stock: product.stock, addedAt: new Date().toISOString(), pendingSync: true };
          changeOffline((queue) => queueOperation(queue, queued), (shown) => withQueue(shown, [queued]));
        });
        const added = lines?.find((line) => line.productId === product.id && line.choiceKey === (chosen?.choiceKey ?? ''));
        // The page showed the product otherwise than the shop has it (its news is still on the way): it is shown anew.
        const outdated =
          result?.outcome === 'product_missing' ||
          result?.outcome === 'stock_short' ||
          result?.outcome === 'choices_invalid' ||
          (added !== undefined && (added.name.en !== product.name.en || added.name.bg !== product.name.bg || added.priceMinor !== priceMinor));
        if (outdated) void queryClient.invalidateQueries({ queryKey: queryKeys.catalogue() });
        if (result?.outcome === 'product_missing') throw new CartError(t('cart.errors.productMissing'));
        if (result?.problem) throw new ChoicesRefused(t(result.problem.messageKey), result.problem);
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
      // Lines of one product differ by their choices: the quantity is the line's with these.
      const choices = item.choiceKey ? item.choices : undefined;
      const operation: CartOperation = { id: newOperationId(), type: 'set', productId: item.productId, choices, quantity };
      const queued: QueuedOperation = {
        ...operation,
        slug: item.slug,
        name: item.name,
        priceMinor: item.priceMinor,
        stock: item.stock,
        addedAt: item.addedAt,
        choiceKey: item.choiceKey,
        summary: item.summary,
        pendingSync: true,
      };
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

  return { add, setQuantity, remove, queueVersion };
}
