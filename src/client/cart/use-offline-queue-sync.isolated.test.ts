import type * as ReactModule from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CartItem, CartOperation, CartOperationResult, CartOperationsResponse } from '#shared/cart.js';
import { CATALOGUE_TOPIC } from '#shared/live.js';
import { readQueue, writeQueue, type QueuedOperation } from './cart-storage.js';
import { useOfflineQueueSync } from './use-offline-queue-sync.js';
import { cartLine } from '../../../tests/support/cart-line.js';
import { MemoryStorage } from '../../../tests/support/memory-storage.js';

// The hook runs here without a page: its effect runs at once, and the providers it reads (texts,
// connectivity, the modal, the query cache) are stand-ins that record what they are told. Requests
// go through the real cart API module to a fetch that answers as the server does
// (tests/api/cart.test.ts shows the server's side of the same queue).
const page = vi.hoisted(() => ({
  modals: [] as { type: string; message: string }[],
  syncing: [] as boolean[],
  networkFailures: 0,
  /** The query keys invalidated, in order (undefined: every query). */
  invalidated: [] as (readonly unknown[] | undefined)[],
  /** The cart set in the query cache, by its key. */
  cached: new Map<string, unknown>(),
}));

vi.mock('react', async (original) => ({
  ...(await original<typeof ReactModule>()),
  useEffect: (effect: () => void) => effect(),
  useRef: <T>(initial: T) => ({ current: initial }),
}));
vi.mock('@tanstack/react-query', () => ({
  useQueryClient: () => ({
    invalidateQueries: async (filters?: { queryKey?: readonly unknown[] }) => void page.invalidated.push(filters?.queryKey),
    cancelQueries: async () => {},
    setQueryData: (key: readonly unknown[], data: unknown) => void page.cached.set(JSON.stringify(key), data),
  }),
}));
vi.mock('#client/connectivity/connectivity.js', () => ({
  useConnectivity: () => ({
    online: true,
    reportNetworkFailure: () => void page.networkFailures++,
    setSyncing: (syncing: boolean) => void page.syncing.push(syncing),
  }),
}));
vi.mock('#client/i18n/i18n.js', () => ({
  useTranslation: () => ({ language: 'en', t: (key: string, params?: Record<string, string | number>) => `${key} ${JSON.stringify(params ?? {})}` }),
}));
vi.mock('#client/ui/modal/modal-context.js', () => ({
  useModal: () => (message: { type: string; message: string }) => void page.modals.push(message),
}));

const EMAIL = 'ana@example.com';
const DELETED = 'b0000000-0000-4000-8000-00000000dead';
const KEPT = 'b0000000-0000-4000-8000-000000000001';
const OTHER = 'b0000000-0000-4000-8000-000000000002';

const shown = (name: string) => ({ name: { en: name, bg: '' }, priceMinor: 1000, stock: null, addedAt: '2026-01-01T00:00:00Z', pendingSync: true as const });
const add = (id: string, productId: string, name: string): QueuedOperation => ({ id, type: 'add', productId, ...shown(name) });
const set = (id: string, productId: string, quantity: number, name: string): QueuedOperation => ({ id, type: 'set', productId, quantity, ...shown(name) });

let storage: MemoryStorage;
/** The operations of each request, in order. */
let requests: CartOperation[][];
/** Runs while a request is on its way, as the customer could meanwhile. */
let duringRequest: () => void;

/** Answers like the server: an addition or a quantity for a deleted product is product_missing, everything else applied. */
function answer(operations: CartOperation[]): CartOperationsResponse {
  const outcomes = operations.map((operation): CartOperationResult => ({
    id: operation.id,
    outcome: operation.type !== 'remove' && operation.productId === DELETED && !(operation.type === 'set' && operation.quantity === 0) ? 'product_missing' : 'applied',
  }));
  const kept = operations.filter((operation): operation is Extract<CartOperation, { type: 'add' }> => operation.type === 'add' && operation.productId !== DELETED);
  return { items: kept.map(serverLine), outcomes };
}

/** The line the server keeps for an addition it applied. */
const serverLine = (operation: Extract<CartOperation, { type: 'add' }>): CartItem => cartLine({ id: `line-${operation.id}`, productId: operation.productId, slug: 'rose-set', name: { en: 'Rose Set', bg: '' } });

beforeEach(() => {
  storage = new MemoryStorage();
  requests = [];
  duringRequest = () => {};
  Object.assign(page, { modals: [], syncing: [], networkFailures: 0, invalidated: [], cached: new Map() });
  vi.stubGlobal('localStorage', storage);
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    expect(url).toBe('/api/cart/operations');
    const { operations } = JSON.parse(String(init.body)) as { operations: CartOperation[] };
    requests.push(operations);
    duringRequest();
    return new Response(JSON.stringify(answer(operations)), { status: 200, headers: { 'content-type': 'application/json' } });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

/** A render of the hook while online, as at a reconnection. Without React, its effect runs at once (see the mocks above). */
// eslint-disable-next-line react-hooks/rules-of-hooks -- a plain call stands in for a render here
const reconnect = () => useOfflineQueueSync(EMAIL, 0);

/** Reconnects once and waits until the round of sending is over. */
async function syncOnce(): Promise<void> {
  const rounds = page.syncing.filter((syncing) => !syncing).length;
  reconnect();
  await vi.waitFor(() => expect(page.syncing.filter((syncing) => !syncing).length).toBe(rounds + 1), { timeout: 2000, interval: 5 });
}

describe('replaying the offline cart queue', () => {
  it('drops the changes of a product deleted meanwhile, keeps what was queued while sending, and does not send them again', async () => {
    writeQueue(storage, EMAIL, [add('op-gone-add', DELETED, 'Moon Set'), add('op-kept-add', KEPT, 'Rose Set'), set('op-gone-set', DELETED, 2, 'Moon Set'), set('op-other', OTHER, 3, 'Lemon Tips')]);
    const late = add('op-late', KEPT, 'Rose Set');
    duringRequest = () => writeQueue(storage, EMAIL, [...readQueue(storage, EMAIL), late]);

    await syncOnce();

    expect(requests.map((operations) => operations.map((operation) => operation.id))).toEqual([['op-gone-add', 'op-kept-add', 'op-gone-set', 'op-other']]);
    // Only the change made while the first round was on its way is left.
    expect(readQueue(storage, EMAIL).map((operation) => operation.id)).toEqual(['op-late']);
    expect(page.modals).toEqual([{ type: 'warning', message: `cart.errors.droppedOffline ${JSON.stringify({ names: 'Moon Set' })}` }]);
    // The cart shown is the shop's answer with the late change on top; the catalogue, which showed the
    // deleted product, is asked again, and nothing else is.
    const shownCart = page.cached.get(JSON.stringify(['cart', EMAIL])) as { productId: string; quantity: number; pendingSync?: boolean }[];
    expect(shownCart.map((line) => [line.productId, line.quantity, Boolean(line.pendingSync)])).toEqual([[KEPT, 2, true]]);
    expect(page.invalidated).toEqual([[CATALOGUE_TOPIC]]);

    // The next reconnection sends what is left, and never the deleted product's changes again.
    duringRequest = () => {};
    await syncOnce();
    expect(requests.map((operations) => operations.map((operation) => operation.id))).toEqual([['op-gone-add', 'op-kept-add', 'op-gone-set', 'op-other'], ['op-late']]);
    expect(readQueue(storage, EMAIL)).toEqual([]);
    expect(page.modals).toHaveLength(1);

    // With the queue empty, a reconnection sends nothing at all.
    reconnect();
    expect(requests).toHaveLength(2);
    expect(page.networkFailures).toBe(0);
  });
});
