import { describe, expect, it } from 'vitest';
import type { CartItem } from '../../shared/cart.js';
import { newOperationId, queueRemoval, readMirror, readQueue, toOperations, withQueue, writeMirror, writeQueue, type QueuedOperation } from './cart-storage.js';

class MemoryStorage implements Storage {
  private values = new Map<string, string>();
  get length() {
    return this.values.size;
  }
  clear() {
    this.values.clear();
  }
  getItem(key: string) {
    return this.values.get(key) ?? null;
  }
  key(index: number) {
    return [...this.values.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.values.delete(key);
  }
  setItem(key: string, value: string) {
    this.values.set(key, value);
  }
}

const serverItem: CartItem = { id: 'a1b2c3d4-0000-4000-8000-000000000001', productId: 'p1', name: 'Rose Set', priceMinor: 2450, addedPriceMinor: 2450, addedAt: '2026-01-01T00:00:00Z' };
const queuedAdd: QueuedOperation = { id: 'op1xxxxx', type: 'add', productId: 'p2', name: 'Lemon Tips', priceMinor: 1999, addedAt: '2026-01-02T00:00:00Z', pendingSync: true };

describe('offline cart', () => {
  it('shows queued additions as pending and hides queued removals', () => {
    const queue: QueuedOperation[] = [queuedAdd, { id: 'op2xxxxx', type: 'remove', itemId: serverItem.id, pendingSync: true }];
    expect(withQueue([serverItem], queue)).toEqual([
      { id: 'pending-op1xxxxx', productId: 'p2', name: 'Lemon Tips', priceMinor: 1999, addedPriceMinor: 1999, addedAt: '2026-01-02T00:00:00Z', pendingSync: true },
    ]);
  });

  it('forgets a pending addition that is removed again, and queues the removal of a server line', () => {
    const [pending] = withQueue([], [queuedAdd]);
    expect(queueRemoval([queuedAdd], pending!, 'op3xxxxx')).toEqual([]);
    expect(queueRemoval([queuedAdd], serverItem, 'op3xxxxx')).toEqual([
      queuedAdd,
      { id: 'op3xxxxx', type: 'remove', itemId: serverItem.id, pendingSync: true },
    ]);
  });

  it('sends the server only the operations, not the display copies', () => {
    expect(toOperations([queuedAdd])).toEqual([{ id: 'op1xxxxx', type: 'add', productId: 'p2' }]);
  });

  it('keeps the queue in local storage under pending_purchases_{email} and clears it when empty', () => {
    const storage = new MemoryStorage();
    writeQueue(storage, 'ana@example.com', [queuedAdd]);
    expect(JSON.parse(storage.getItem('pending_purchases_ana@example.com')!)).toEqual([queuedAdd]);
    expect(readQueue(storage, 'ana@example.com')).toEqual([queuedAdd]);
    writeQueue(storage, 'ana@example.com', []);
    expect(storage.getItem('pending_purchases_ana@example.com')).toBeNull();
    storage.setItem('pending_purchases_ana@example.com', '{broken');
    expect(readQueue(storage, 'ana@example.com')).toEqual([]);
  });

  it('tells a cart never kept in this browser from an empty one, so that offline it is not shown as empty', () => {
    const storage = new MemoryStorage();
    expect(readMirror(storage, 'ana@example.com')).toBeUndefined();
    writeMirror(storage, 'ana@example.com', []);
    expect(readMirror(storage, 'ana@example.com')).toEqual([]);
    writeMirror(storage, 'ana@example.com', [serverItem]);
    expect(readMirror(storage, 'ana@example.com')).toEqual([serverItem]);
  });

  it('makes operation ids the server accepts', () => {
    const id = newOperationId();
    expect(id).toMatch(/^[a-f0-9]{32}$/);
    expect(newOperationId()).not.toBe(id);
  });
});
