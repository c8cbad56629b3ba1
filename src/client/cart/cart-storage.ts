import type { CartItem, CartOperation } from '../../shared/cart.js';

/** A cart line as the browser shows it: pendingSync marks a line added offline and not yet on the server. */
export interface ShownCartItem extends CartItem {
  pendingSync?: true;
}

/** An operation made offline, waiting in local storage for the connection (spec: pending_purchases). */
export type QueuedOperation =
  | (Extract<CartOperation, { type: 'add' }> & { name: string; priceMinor: number; addedAt: string; pendingSync: true })
  | (Extract<CartOperation, { type: 'remove' }> & { pendingSync: true });

export const cartMirrorKey = (email: string) => `user_cart_${email}`;
export const pendingQueueKey = (email: string) => `pending_purchases_${email}`;

function readJson<T>(storage: Storage, key: string): T[] {
  try {
    const value: unknown = JSON.parse(storage.getItem(key) ?? '[]');
    return Array.isArray(value) ? (value as T[]) : [];
  } catch {
    return [];
  }
}

/** The cart as last shown in this browser, or undefined when none was kept (then nothing is known offline). */
export function readMirror(storage: Storage, email: string): ShownCartItem[] | undefined {
  try {
    if (storage.getItem(cartMirrorKey(email)) === null) return undefined;
  } catch {
    return undefined;
  }
  return readJson<ShownCartItem>(storage, cartMirrorKey(email));
}
export const readQueue = (storage: Storage, email: string) => readJson<QueuedOperation>(storage, pendingQueueKey(email));

/** Throws when the storage refuses the write (full, or disabled). */
export function writeQueue(storage: Storage, email: string, queue: readonly QueuedOperation[]): void {
  if (queue.length === 0) storage.removeItem(pendingQueueKey(email));
  else storage.setItem(pendingQueueKey(email), JSON.stringify(queue));
}

export function writeMirror(storage: Storage, email: string, items: readonly ShownCartItem[]): void {
  storage.setItem(cartMirrorKey(email), JSON.stringify(items));
}

export const pendingItemId = (operationId: string) => `pending-${operationId}`;

/** The server's cart with the offline queue on top: queued removals hidden, queued additions shown as pending. */
export function withQueue(serverItems: readonly CartItem[], queue: readonly QueuedOperation[]): ShownCartItem[] {
  const removed = new Set(queue.flatMap((operation) => (operation.type === 'remove' ? [operation.itemId] : [])));
  const added: ShownCartItem[] = queue.flatMap((operation) =>
    operation.type === 'add'
      ? [{ id: pendingItemId(operation.id), productId: operation.productId, name: operation.name, priceMinor: operation.priceMinor, addedPriceMinor: operation.priceMinor, addedAt: operation.addedAt, pendingSync: true as const }]
      : [],
  );
  return [...serverItems.filter((item) => !removed.has(item.id)), ...added];
}

/** The queue after removing a line offline: a pending addition is simply forgotten, a server line is queued for removal. */
export function queueRemoval(queue: readonly QueuedOperation[], item: ShownCartItem, operationId: string): QueuedOperation[] {
  if (item.pendingSync) return queue.filter((operation) => pendingItemId(operation.id) !== item.id);
  return [...queue, { id: operationId, type: 'remove', itemId: item.id, pendingSync: true }];
}

/** The operations as the server takes them, without what the browser keeps for display. */
export function toOperations(queue: readonly QueuedOperation[]): CartOperation[] {
  return queue.map((operation) =>
    operation.type === 'add'
      ? { id: operation.id, type: 'add', productId: operation.productId }
      : { id: operation.id, type: 'remove', itemId: operation.itemId },
  );
}

/** A fresh operation id; crypto.randomUUID needs a secure context, getRandomValues does not. */
export function newOperationId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
