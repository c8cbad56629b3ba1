import { describe, expect, it } from 'vitest';
import { piecesAvailable, stockLevel } from './stock.js';

describe('stockLevel', () => {
  it.each([
    [null, 'madeToOrder'],
    [0, 'soldOut'],
    [1, 'low'],
    [3, 'low'],
    [4, 'inStock'],
    [500, 'inStock'],
  ] as const)('a stock of %s is %s', (stock, level) => {
    expect(stockLevel(stock)).toBe(level);
  });
});

describe('piecesAvailable', () => {
  it('has no limit for a product made to order', () => {
    expect(piecesAvailable(null, 40)).toBe(Number.POSITIVE_INFINITY);
  });

  it('is what is left beside the pieces already in the cart, never less than none', () => {
    expect(piecesAvailable(5, 2)).toBe(3);
    expect(piecesAvailable(1, 1)).toBe(0);
    expect(piecesAvailable(1, 3)).toBe(0);
  });
});
