import { describe, expect, it } from 'vitest';
import { earlierPriceOf } from './price-change.js';

describe('earlierPriceOf', () => {
  it.each([
    { case: 'unchanged since added', added: 1649, now: 1649, seen: undefined, earlier: null },
    { case: 'raised since added', added: 1649, now: 5849, seen: undefined, earlier: 1649 },
    { case: 'lowered since added', added: 5849, now: 1649, seen: undefined, earlier: 5849 },
    { case: 'changed after the customer saw it', added: 1649, now: 5849, seen: 2000, earlier: 2000 },
    { case: 'seen as it is, changed since added', added: 1649, now: 5849, seen: 5849, earlier: 1649 },
    { case: 'changed and changed back after it was seen', added: 1649, now: 1649, seen: 5849, earlier: 5849 },
    { case: 'seen as it is and never changed', added: 1649, now: 1649, seen: 1649, earlier: null },
  ])('$case', ({ added, now, seen, earlier }) => {
    expect(earlierPriceOf({ addedPriceMinor: added, priceMinor: now }, seen)).toBe(earlier);
  });
});
