import type { CartItem, CartOperation } from '../../shared/cart.js';
import type { LocalizedText } from '../../shared/catalog.js';

/** A cart line as the browser shows it: pendingSync marks a line added or changed offline and not yet on the server. */
export interface ShownCartItem extends CartItem {
  pendingSync?: true;
}

/** What the browser knows of a product when it queues a change to its line offline, to show the line meanwhile. */
interface QueuedProduct {
  name: LocalizedText;
  priceMinor: number;
  stock: number | null;
  addedAt: string;
}

/**
 * An operation made offline, waiting in local storage for the connection (spec: pending_purchases).
 * Removal by line id is what this browser queued before lines had quantities; it is still sent.
 */
export type QueuedOperation =
  | (Extract<CartOperation, { type: 'add' }> & QueuedProduct & { pendingSync: true })
  | (Extract<CartOperation, { type: 'set' }> & QueuedProduct & { pendingSync: true })
  | (Extract<CartOperation, { type: 'remove' }> & { pendingSync: true });

const cartMirrorKey = (email: string) => `user_cart_${email}`;
const pendingQueueKey = (email: string) => `pending_purchases_${email}`;

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
  // A mirror kept before lines had quantities holds one piece per line and knows no stock.
  return readJson<ShownCartItem>(storage, cartMirrorKey(email)).map((item) => ({ ...item, name: storedName(item.name), quantity: item.quantity ?? 1, stock: item.stock ?? null }));
}

export const readQueue = (storage: Storage, email: string) =>
  readJson<QueuedOperation>(storage, pendingQueueKey(email)).map((operation) => (operation.type === 'remove' ? operation : { ...operation, name: storedName(operation.name) }));

/** A name as this browser kept it: before products had names in two languages, it was the English one. */
const storedName = (name: LocalizedText | string | undefined): LocalizedText => (typeof name === 'object' && name !== null ? name : { en: name ?? '', bg: '' });

/** Throws when the storage refuses the write (full, or disabled). */
export function writeQueue(storage: Storage, email: string, queue: readonly QueuedOperation[]): void {
  if (queue.length === 0) storage.removeItem(pendingQueueKey(email));
  else storage.setItem(pendingQueueKey(email), JSON.stringify(queue));
}

export function writeMirror(storage: Storage, email: string, items: readonly ShownCartItem[]): void {
  storage.setItem(cartMirrorKey(email), JSON.stringify(items));
}

/** Forgets the cart this browser kept for the e-mail, and its offline queue: for an account that was deleted. */
export function forgetCart(storage: Storage, email: string): void {
  try {
    storage.removeItem(cartMirrorKey(email));
    storage.removeItem(pendingQueueKey(email));
  } catch {
    // Storage may be disabled; then nothing was kept.
  }
}

/** A line known only to this browser is named after its product, so later changes to it find it. */
const pendingItemId = (productId: string) => `pending-${productId}`;

/** The server's cart with the offline queue applied on top, as the server will apply it: one line per product. */
export function withQueue(serverItems: readonly CartItem[], queue: readonly QueuedOperation[]): ShownCartItem[] {
  let lines: ShownCartItem[] = [...serverItems];
  for (const operation of queue) {
    if (operation.type === 'remove') {
      lines = lines.filter((line) => line.id !== operation.itemId);
      continue;
    }
    const line = lines.find((candidate) => candidate.productId === operation.productId);
    const quantity = operation.type === 'add' ? (line?.quantity ?? 0) + 1 : operation.quantity;
    if (quantity === 0) lines = lines.filter((candidate) => candidate !== line);
    else if (line) lines = lines.map((candidate) => (candidate === line ? { ...line, quantity, pendingSync: true } : candidate));
    else {
      lines.push({
        id: pendingItemId(operation.productId),
        productId: operation.productId,
        name: operation.name,
        priceMinor: operation.priceMinor,
        addedPriceMinor: operation.priceMinor,
        quantity,
        stock: operation.stock,
        addedAt: operation.addedAt,
        pendingSync: true,
      });
    }
  }
  return lines;
}

/**
 * The queue with one more operation. A quantity set offline replaces what was queued before for
 * the same product, since it says the whole of what the line should be.
 */
export function queueOperation(queue: readonly QueuedOperation[], operation: QueuedOperation): QueuedOperation[] {
  if (operation.type !== 'set') return [...queue, operation];
  return [...queue.filter((queued) => queued.type === 'remove' || queued.productId !== operation.productId), operation];
}

/** The operations as the server takes them, without what the browser keeps for display. */
export function toOperations(queue: readonly QueuedOperation[]): CartOperation[] {
  return queue.map((operation): CartOperation => {
    if (operation.type === 'add') return { id: operation.id, type: 'add', productId: operation.productId };
    if (operation.type === 'set') return { id: operation.id, type: 'set', productId: operation.productId, quantity: operation.quantity };
    return { id: operation.id, type: 'remove', itemId: operation.itemId };
  });
}

/** A fresh operation id; crypto.randomUUID needs a secure context, getRandomValues does not. */
export function newOperationId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
