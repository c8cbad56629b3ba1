import type { QueryClient } from '@tanstack/react-query';
import { MAX_CART_PIECES } from '#shared/cart.js';
import { pickText } from '#shared/catalog.js';
import { ApiError } from '#client/api/http.js';
import { queryKeys } from '#client/api/query-keys.js';
import type { Translate } from '#client/i18n/i18n.js';
import type { Language } from '#client/i18n/texts.js';
import type { ModalMessage } from '#client/ui/modal/modal-context.js';
import { sendCartOperations } from './cart-api.js';
import { readQueue, toOperations, withQueue, writeQueue, type QueuedOperation } from './cart-storage.js';
import { shortageText } from './shortage-text.js';

/** What sending the queue needs from the page: its texts, its dialogs, the query cache and the connection. */
export interface QueueSyncContext {
  email: string;
  t: Translate;
  language: Language;
  showModal(message: ModalMessage): void;
  queryClient: QueryClient;
  reportNetworkFailure(): void;
}

/**
 * Sends the cart changes queued offline, once, shows the cart the shop answered with, and says which
 * of them the shop could not take (a product gone, too few pieces, a full cart). Only what the answer
 * makes stale is asked again: the catalogue when a product was not as the page showed it (the
 * reconnection itself asks every view again, connectivity.tsx). use-offline-queue-sync.ts loads it
 * only when there is a queue to send, so that a first visit does not download it.
 */
export async function sendOfflineQueue(queue: readonly QueuedOperation[], context: QueueSyncContext): Promise<void> {
  const { email, t, language, showModal, queryClient, reportNetworkFailure } = context;
  /** Takes what was sent out of the stored queue; anything queued meanwhile stays for the next round. */
  const forget = (sent: readonly QueuedOperation[]) => {
    const ids = new Set(sent.map((operation) => operation.id));
    writeQueue(localStorage, email, readQueue(localStorage, email).filter((operation) => !ids.has(operation.id)));
  };
  // What may add pieces; the rest (removals, quantities of 0) never fills a cart nor meets a short stock.
  const additions = queue.filter(
    (operation): operation is Exclude<QueuedOperation, { type: 'remove' }> => operation.type === 'add' || (operation.type === 'set' && operation.quantity > 0),
  );
  try {
    try {
      const response = await sendCartOperations(toOperations(queue));
      forget(queue);
      // The shop's cart, with what the customer queued while it was on its way still shown on top. A
      // reload of the cart begun before the answer (the reconnection's) would bring it from before.
      await queryClient.cancelQueries({ queryKey: queryKeys.cart(email) });
      queryClient.setQueryData(queryKeys.cart(email), withQueue(response.items, readQueue(localStorage, email)));
      const outcomeOf = (operation: QueuedOperation) => response.outcomes.find((outcome) => outcome.id === operation.id);
      // A product gone, or one whose options changed so that the choices made offline no longer fit it.
      const gone = additions.filter((operation) => ['product_missing', 'choices_invalid'].includes(outcomeOf(operation)?.outcome ?? ''));
      const short = additions.flatMap((operation) => outcomeOf(operation)?.shortage ?? []);
      const messages = [
        ...(gone.length > 0 ? [t('cart.errors.droppedOffline', { names: [...new Set(gone.map((operation) => pickText(operation.name, language).text))].join(', ') })] : []),
        // One message per product, with the count the server named last.
        ...[...new Map(short.map((shortage) => [shortage.productId, shortage])).values()].map((shortage) => shortageText(t, language, shortage)),
      ];
      if (messages.length > 0) {
        void queryClient.invalidateQueries({ queryKey: queryKeys.catalogue() });
        showModal({ type: 'warning', message: messages.join(' ') });
      }
    } catch (error) {
      if (!(error instanceof ApiError && error.code === 'cart_full')) throw error;
      // The server applied none of it. Removals never fill a cart, so they go alone; the additions cannot.
      const removals = queue.filter((operation) => !additions.some((addition) => addition.id === operation.id));
      if (removals.length > 0) await sendCartOperations(toOperations(removals));
      forget(queue);
      // The additions shown while offline are gone from the queue: the cart is asked again without them.
      await queryClient.invalidateQueries({ queryKey: queryKeys.carts() });
      showModal({
        type: 'warning',
        message: t('cart.errors.cartFullOffline', { max: MAX_CART_PIECES, names: [...new Set(additions.map((operation) => pickText(operation.name, language).text))].join(', ') }),
      });
    }
  } catch (error) {
    if (error instanceof ApiError && error.code === 'network') reportNetworkFailure();
    else if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
      // The server will never take this queue; keeping it would only fail again at every reconnect.
      writeQueue(localStorage, email, []);
      showModal({ type: 'error', message: t('cart.errors.syncFailed') });
      await queryClient.invalidateQueries({ queryKey: queryKeys.carts() });
    }
  }
}
