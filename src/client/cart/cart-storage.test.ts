import { describe, expect, it } from 'vitest';
import type { CartItem } from '#shared/cart.js';
import { choiceKey, type LineChoices } from '#shared/product-options.js';
import { cartLine } from '../../../tests/support/cart-line.js';
import { MemoryStorage } from '../../../tests/support/memory-storage.js';
import { forgetCart, newOperationId, queueOperation, readMirror, readQueue, toOperations, withQueue, writeMirror, writeQueue, type QueuedOperation } from './cart-storage.js';

const serverItem: CartItem = cartLine({
  id: 'a1b2c3d4-0000-4000-8000-000000000001',
  productId: 'p1',
  slug: 'rose-set',
  name: { en: 'Rose Set', bg: 'Розов комплект' },
  priceMinor: 2450,
  stock: 4,
});
const product = { slug: 'lemon-tips', name: { en: 'Lemon Tips', bg: '' }, priceMinor: 1999, stock: null, addedAt: '2026-01-02T00:00:00Z' };
const queuedAdd: QueuedOperation = { id: 'op1xxxxx', type: 'add', productId: 'p2', ...product, pendingSync: true };
const queuedSet = (productId: string, quantity: number, id = 'op9xxxxx'): QueuedOperation => ({ id, type: 'set', productId, quantity, ...product, pendingSync: true });

describe('offline cart', () => {
  it('shows a queued addition of a new product as a pending line, and of a product in the cart as one more piece', () => {
    expect(withQueue([serverItem], [queuedAdd, { ...queuedAdd, id: 'op2xxxxx', productId: 'p1' }])).toEqual([
      { ...serverItem, quantity: 2, pendingSync: true },
      {
        id: 'pending-op1xxxxx',
        productId: 'p2',
        slug: 'lemon-tips',
        name: { en: 'Lemon Tips', bg: '' },
        priceMinor: 1999,
        addedPriceMinor: 1999,
        quantity: 1,
        stock: null,
        addedAt: '2026-01-02T00:00:00Z',
        choices: { options: {}, sizes: null, answers: {} },
        choiceKey: '',
        summary: { options: [], sizes: null, answers: [] },
        problem: null,
        dispatchBy: '',
        pendingSync: true,
      },
    ]);
  });

  it('applies queued quantities, a quantity of 0 and an old removal by line id, in order', () => {
    expect(withQueue([serverItem], [queuedAdd, queuedSet('p2', 3)])).toEqual([serverItem, expect.objectContaining({ id: 'pending-op1xxxxx', quantity: 3 })]);
    expect(withQueue([serverItem], [queuedAdd, queuedSet('p1', 0)])).toEqual([expect.objectContaining({ id: 'pending-op1xxxxx', quantity: 1 })]);
    expect(withQueue([serverItem], [{ id: 'op3xxxxx', type: 'remove', itemId: serverItem.id, pendingSync: true }])).toEqual([]);
  });

  it('lets a queued quantity replace what was queued before for the same product', () => {
    const queue = queueOperation(queueOperation([queuedAdd], { ...queuedAdd, id: 'op2xxxxx', productId: 'p1' }), queuedSet('p2', 0));
    expect(queue.map((operation) => operation.id)).toEqual(['op2xxxxx', 'op9xxxxx']);
    expect(withQueue([serverItem], queue)).toEqual([{ ...serverItem, quantity: 2, pendingSync: true }]);
  });

  it('sends the server only the operations, not the display copies', () => {
    expect(toOperations([queuedAdd, queuedSet('p2', 2)])).toEqual([
      { id: 'op1xxxxx', type: 'add', productId: 'p2' },
      { id: 'op9xxxxx', type: 'set', productId: 'p2', quantity: 2 },
    ]);
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
    // As an earlier release kept it: no quantity, no stock, no choices.
    const { quantity: _quantity, stock: _stock, choiceKey: _key, summary: _summary, ...older } = serverItem;
    storage.setItem('user_cart_ana@example.com', JSON.stringify([older]));
    expect(readMirror(storage, 'ana@example.com')).toEqual([{ ...serverItem, quantity: 1, stock: null }]);
  });

  it('reads names kept before products had names in two languages as English names', () => {
    const storage = new MemoryStorage();
    storage.setItem('user_cart_ana@example.com', JSON.stringify([{ ...serverItem, name: 'Rose Set' }]));
    expect(readMirror(storage, 'ana@example.com')).toEqual([{ ...serverItem, name: { en: 'Rose Set', bg: '' } }]);
    storage.setItem('pending_purchases_ana@example.com', JSON.stringify([{ ...queuedAdd, name: 'Lemon Tips' }]));
    expect(readQueue(storage, 'ana@example.com')).toEqual([queuedAdd]);
  });

  it('makes operation ids the server accepts', () => {
    const id = newOperationId();
    expect(id).toMatch(/^[a-f0-9]{32}$/);
    expect(newOperationId()).not.toBe(id);
  });
});

describe('offline cart lines with choices', () => {
  const almond: LineChoices = { options: { shape: 'almond', length: 'medium' }, sizes: [3, 6, 5, 7, 9, 3, 6, 5, 7, 9], answers: { wish: 'pink' } };
  const coffin: LineChoices = { ...almond, options: { shape: 'coffin', length: 'medium' } };
  const summary = { options: [{ group: { en: 'Shape', bg: 'Форма' }, value: { en: 'Almond', bg: 'Бадем' } }], sizes: almond.sizes, answers: [] };
  const sizedLine: CartItem = { ...serverItem, id: 'line-almond', productId: 'p3', choices: almond, choiceKey: choiceKey(almond), summary };
  const addOf = (id: string, choices: LineChoices): QueuedOperation => ({ ...queuedAdd, id, productId: 'p3', choices, choiceKey: choiceKey(choices), summary });
  const setOf = (id: string, choices: LineChoices, quantity: number): QueuedOperation => ({
    id,
    type: 'set',
    productId: 'p3',
    quantity,
    ...product,
    choices,
    choiceKey: choiceKey(choices),
    summary,
    pendingSync: true,
  });

  it('raises the line with the same choices and shows other choices of the product as a line of their own', () => {
    const shown = withQueue([serverItem, sizedLine], [addOf('op-a', almond), addOf('op-c', coffin)]);
    expect(shown.map((line) => [line.id, line.productId, line.quantity])).toEqual([
      [serverItem.id, 'p1', 1],
      ['line-almond', 'p3', 2],
      ['pending-op-c', 'p3', 1],
    ]);
    expect(shown[2]).toMatchObject({ choices: coffin, choiceKey: choiceKey(coffin), summary, pendingSync: true });
  });

  it('sets and removes only the line with those choices, and a later quantity replaces the earlier one of that line alone', () => {
    const queue = [addOf('op-c', coffin), setOf('op-s1', almond, 4), setOf('op-s2', coffin, 3), setOf('op-s3', almond, 0)].reduce(queueOperation, [] as QueuedOperation[]);
    expect(queue.map((operation) => operation.id)).toEqual(['op-s2', 'op-s3']);
    expect(withQueue([sizedLine], [addOf('op-c', coffin), ...queue]).map((line) => [line.choiceKey, line.quantity])).toEqual([[choiceKey(coffin), 3]]);
  });

  it('sends the choices with each addition and quantity, and none for a product sold as it is', () => {
    expect(toOperations([addOf('op-a', almond), setOf('op-s', almond, 2), queuedAdd])).toEqual([
      { id: 'op-a', type: 'add', productId: 'p3', choices: almond },
      { id: 'op-s', type: 'set', productId: 'p3', choices: almond, quantity: 2 },
      { id: 'op1xxxxx', type: 'add', productId: 'p2' },
    ]);
    expect(JSON.stringify(toOperations([queuedAdd]))).not.toContain('choices');
  });

  it('reads a queued addition from before choices as an addition of the product as it is', () => {
    expect(withQueue([serverItem], [{ ...queuedAdd, productId: 'p1' }])).toEqual([{ ...serverItem, quantity: 2, pendingSync: true }]);
  });
});

describe('forgetting a deleted account’s cart', () => {
  it('removes its mirror and offline queue, and nobody else’s', () => {
    const storage = new MemoryStorage();
    for (const email of ['gone@example.com', 'stays@example.com']) {
      writeMirror(storage, email, [serverItem]);
      writeQueue(storage, email, [queuedAdd]);
    }
    forgetCart(storage, 'gone@example.com');
    expect(readMirror(storage, 'gone@example.com')).toBeUndefined();
    expect(readQueue(storage, 'gone@example.com')).toEqual([]);
    expect(readMirror(storage, 'stays@example.com')).toHaveLength(1);
    expect(readQueue(storage, 'stays@example.com')).toHaveLength(1);
  });
});
