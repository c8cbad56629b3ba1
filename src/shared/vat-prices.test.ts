import { describe, expect, it } from 'vitest';
import { taxFor } from './pricing.js';
import { nearestWholeCentNetPrices, wholeCentNetPrice } from './vat-prices.js';

describe('VAT-inclusive prices and whole-cent net prices', () => {
  it.each([
    [999, 2000, null],
    [1000, 2000, 833],
    [998, 2000, 832],
    [2399, 2000, 1999],
    [999, 900, null],
    [1000, 900, 917],
    [1234, 0, 1234],
  ])('%i at %i basis points comes from a net price of %s', (gross, rate, net) => {
    expect(wholeCentNetPrice(gross, rate)).toBe(net);
  });

  it('agrees with every net price from 0 to 100.00 at the rates Bulgaria uses and the specification’s 5%', () => {
    for (const rate of [2000, 900, 500, 0]) {
      const reachable = new Set<number>();
      for (let net = 0; net <= 10_000; net++) {
        const gross = net + taxFor(net, rate);
        reachable.add(gross);
        expect(wholeCentNetPrice(gross, rate)! + taxFor(wholeCentNetPrice(gross, rate)!, rate)).toBe(gross);
      }
      const top = 10_000 + taxFor(10_000, rate);
      for (let gross = 0; gross <= top; gross++) expect(wholeCentNetPrice(gross, rate) !== null, `${gross} at ${rate}`).toBe(reachable.has(gross));
    }
  });

  it('names the nearest prices on either side that have one', () => {
    expect(nearestWholeCentNetPrices(999, 2000)).toEqual([998, 1000]);
    expect(nearestWholeCentNetPrices(1005, 2000)).toEqual([1004, 1006]);
  });
});
