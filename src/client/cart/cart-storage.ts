import type { CartItem, CartOperation } from '#shared/cart.js';
import type { LocalizedText } from '#shared/catalog.js';
import type { ChoiceSummary } from '#shared/product-options.js';

/** A cart line as the browser shows it: pendingSync marks a line added or changed offline and not yet on the server. */
export interface ShownCartItem extends CartItem {
  pendingSync?: true;
}

/**
 * What the browser knows of a product when it queues a change to its line offline, to show the line
 * meanwhile: with choices, the line's key and their names (queues from before choices have neither).
 */
interface QueuedProduct {
  /** Absent in queues from before lines linked to their product's page. */
  slug?: string;
  name: LocalizedText;
  priceMinor: number;
  stock: number | null;
  addedAt: string;
  choiceKey?: string;
  summary?: ChoiceSummary;
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
  // One kept before lines had choices is a line of its product as it is.
  return readJson<ShownCartItem>(storage, cartMirrorKey(email)).map((item) => ({
    ...item,
    name: storedName(item.name),
    quantity: item.quantity ?? 1,
    stock: item.stock ?? null,
    choiceKey: item.choiceKey ?? '',
    summary: item.summary ?? EMPTY_SUMMARY,
  }));
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

const EMPTY_SUMMARY: ChoiceSummary = { options: [], sizes: null, answers: [] };

/** Whether a line is the one a queued change is about: the same product with the same choices. */
type LineIdentity = { productId: string; choiceKey?: string };
const isLineOf = (line: LineIdentity, operation: LineIdentity) =>
  line.productId === operation.productId && (line.choiceKey ?? '') === (operation.choiceKey ?? '');

/** The server's cart with the offline queue applied on top, as the server will apply it: one line per product and choices. */
export function withQueue(serverItems: readonly CartItem[], queue: readonly QueuedOperation[]): ShownCartItem[] {
  let lines: ShownCartItem[] = [...serverItems];
  for (const operation of queue) {
    if (operation.type === 'remove') {
      lines = lines.filter((line) => line.id !== operation.itemId);
      continue;
    }
    const line = lines.find((candidate) => isLineOf(candidate, operation));
    const quantity = operation.type === 'add' ? (line?.quantity ?? 0) + 1 : operation.quantity;
    if (quantity === 0) lines = lines.filter((candidate) => candidate !== line);
    else if (line) lines = lines.map((candidate) => (candidate === line ? { ...line, quantity, pendingSync: true } : candidate));
    else {
      // Known only to this browser: named after the change that made it; later changes find it by its product and choices.
      lines.push({
        id: `pending-${operation.id}`,
        productId: operation.productId,
        slug: operation.slug ?? '',
        name: operation.name,
        priceMinor: operation.priceMinor,
        addedPriceMinor: operation.priceMinor,
        quantity,
        stock: operation.stock,
        addedAt: operation.addedAt,
        choices: operation.choices ?? { options: {}, sizes: null, answers: {} },
        choiceKey: operation.choiceKey ?? '',
        summary: operation.summary ?? EMPTY_SUMMARY,
        problem: null,
        // Its date comes with the server's copy of the line.
        dispatchBy: '',
        pendingSync: true,
      });
    }
  }
  return lines;
}

/**
 * The queue with one more operation. A quantity set offline replaces what was queued before for
 * the same line (product and choices), since it says the whole of what the line should be.
 */
export function queueOperation(queue: readonly QueuedOperation[], operation: QueuedOperation): QueuedOperation[] {
  if (operation.type !== 'set') return [...queue, operation];
  return [...queue.filter((queued) => queued.type === 'remove' || !isLineOf(queued, operation)), operation];
}

/** The operations as the server takes them, without what the browser keeps for display. */
export function toOperations(queue: readonly QueuedOperation[]): CartOperation[] {
  return queue.map((operation): CartOperation => {
    if (operation.type === 'remove') return { id: operation.id, type: 'remove', itemId: operation.itemId };
    const { id, productId, choices } = operation;
    return operation.type === 'add' ? { id, type: 'add', productId, choices } : { id, type: 'set', productId, choices, quantity: operation.quantity };
  });
}

/** A fresh operation id; crypto.randomUUID needs a secure context, getRandomValues does not. */
export function newOperationId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
